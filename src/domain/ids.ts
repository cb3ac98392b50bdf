import { randomBytes } from "node:crypto";

const prefixes = {
  case: "CASE",
  thread: "THREAD",
  message: "MSG",
  approval: "APR",
  exception: "EXC",
  import: "IMP",
  answer: "ANS",
} as const;
export type IdKind = keyof typeof prefixes;

/**
 * The hex part of an id: 16 digits (64 random bits) for new ids; 8 digits for ids made before
 * the switch, which stay valid in stored data and fixtures.
 */
export const ID_HEX = "(?:[0-9A-F]{16}|[0-9A-F]{8})";

/** CASE-/THREAD-/MSG-/APR-/EXC-/IMP-/ANS- followed by 16 upper-case hex digits (64 random bits). */
export function newId(kind: IdKind): string {
  return `${prefixes[kind]}-${randomBytes(8).toString("hex").toUpperCase()}`;
}

/** Matches a whole id of that kind (anchor it yourself with ^…$ or search for it in text). */
export function idPattern(kind: IdKind): string {
  return `${prefixes[kind]}-${ID_HEX}`;
}

export function isId(kind: IdKind, value: string): boolean {
  return new RegExp(`^${idPattern(kind)}$`).test(value);
}
