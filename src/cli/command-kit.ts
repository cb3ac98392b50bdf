// What command modules share, free of heavy imports so that building the program stays fast.

/** Bad arguments: exit code 2 with the command's usage, nothing stored. */
export class UsageError extends Error {}

export const out = (text: string) => process.stdout.write(text);
