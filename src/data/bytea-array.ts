// bytea[] values read over the pg pool, as LangGraph's checkpointer selects a checkpoint's
// channel values (array_agg of [channel, type, blob]). pg's generic array parser walks the
// hex text one character at a time, which made reading a conversation's checkpoint the
// largest CPU cost of an answer; hex-encoded bytea needs only a scan for its tokens.
import pg from "pg";

const BYTEA_ARRAY_OID = 1001 as Parameters<typeof pg.types.getTypeParser>[0];
const TOKEN = /\{|\}|"\\\\x([0-9a-fA-F]*)"|NULL/g;
const defaultParser = pg.types.getTypeParser(BYTEA_ARRAY_OID, "text");

type Nested = (Buffer | null | Nested)[];

export function parseByteaArray(text: string): Nested | null {
  // Anything but hex elements (bytea_output = 'escape'): the generic parser.
  if (text.replace(TOKEN, "").replace(/,/g, "") !== "") return defaultParser(text) as Nested;
  const open: Nested[] = [];
  let root: Nested | null = null;
  for (const [token, hex] of text.matchAll(TOKEN)) {
    if (token === "{") {
      const array: Nested = [];
      if (open.length) open.at(-1)!.push(array);
      else root = array;
      open.push(array);
    } else if (token === "}") open.pop();
    else open.at(-1)!.push(token === "NULL" ? null : Buffer.from(hex!, "hex"));
  }
  return root;
}

/** The pool's type parsers: pg's own, with the fast bytea[] one. Prisma sets its own per query. */
export const poolTypes = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === BYTEA_ARRAY_OID && format !== "binary"
      ? parseByteaArray
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};
