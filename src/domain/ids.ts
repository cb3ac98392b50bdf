import { randomBytes } from "node:crypto";

const prefixes = { case: "CASE", thread: "THREAD", message: "MSG", approval: "APR" } as const;
export type IdKind = keyof typeof prefixes;

/** CASE-/THREAD-/MSG-/APR- followed by 8 upper-case hex digits. */
export function newId(kind: IdKind): string {
  return `${prefixes[kind]}-${randomBytes(4).toString("hex").toUpperCase()}`;
}

export function isId(kind: IdKind, value: string): boolean {
  return new RegExp(`^${prefixes[kind]}-[0-9A-F]{8}$`).test(value);
}
