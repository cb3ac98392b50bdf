/** Progress and warnings for a person at a terminal: standard error, so standard output stays the command's answer. */
export const log = (line: string) => process.stderr.write(`${line}\n`);
