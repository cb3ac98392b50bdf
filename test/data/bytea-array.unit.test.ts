// The fast bytea[] parser reads what pg's own parser reads.
import pg from "pg";
import { describe, expect, it } from "vitest";
import { parseByteaArray } from "../../src/data/bytea-array.js";

const generic = pg.types.getTypeParser(1001 as Parameters<typeof pg.types.getTypeParser>[0], "text");
const hex = (s: string) => `"\\\\x${Buffer.from(s).toString("hex")}"`;

describe("parseByteaArray", () => {
  it.each([
    ["flat", `{${hex("messages")},${hex("json")},${hex('[{"a":"b,c}{"}]')}}`],
    ["nested, as array_agg of arrays", `{{${hex("messages")},${hex("json")}},{${hex("jumpTo")},${hex("")}}}`],
    ["with NULL", `{${hex("a")},NULL}`],
    ["empty", "{}"],
    ["escape output", `{"abc\\\\\\\\000",NULL}`],
  ])("%s", (_name, text) => {
    expect(parseByteaArray(text)).toEqual(generic(text));
  });
});
