// Cursors (the last item's key, opaque to the client) and ETags of single resources.
import { createHash } from "node:crypto";
import type { Context } from "hono";

export function encodeCursor(key: unknown): string {
  return Buffer.from(JSON.stringify(key)).toString("base64url");
}

/** The key in a cursor this API made; a made-up one is refused (400 naming the field). */
export function decodeCursor<T>(cursor: string | undefined, valid: (key: unknown) => key is T): T | undefined {
  if (cursor === undefined) return undefined;
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    key = undefined;
  }
  if (!valid(key)) throw new CursorError();
  return key;
}

export class CursorError extends Error {
  constructor() {
    super("cursor is not one this API gave out: pass next_cursor from the previous page as it is.");
  }
}

export const isString = (key: unknown): key is string => typeof key === "string";

/** A page of `limit` from `limit + 1` rows read: the extra row says another page follows. */
export function page<T>(
  rows: T[],
  limit: number,
  keyOf: (last: T) => unknown,
): { items: T[]; next_cursor: string | null } {
  const items = rows.slice(0, limit);
  return { items, next_cursor: rows.length > limit ? encodeCursor(keyOf(items.at(-1)!)) : null };
}

/** A JSON body with its ETag (hashed from the text sent, written once); 304 when the client's If-None-Match already names it. */
export function jsonWithETag(c: Context, body: unknown): Response {
  const text = JSON.stringify(body);
  const etag = `"${createHash("sha1").update(text).digest("base64url")}"`;
  c.header("etag", etag);
  c.header("cache-control", "private, no-cache");
  const asked = c.req.header("if-none-match");
  if (asked?.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag || tag.trim() === "*"))
    return c.body(null, 304);
  return c.body(text, 200, { "content-type": "application/json" });
}
