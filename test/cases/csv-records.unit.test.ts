// The import's CSV reader: every record with the line of the file it ends on, across the pieces the
// file is read in, checked against csv-parse (the reader it replaced) as the reference; and a file
// that is not CSV refused with the line to look at.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, describe, expect, it } from "vitest";
import { csvRecords } from "../../src/cases/csv-records.js";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "poolpatrol-csv-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let files = 0;
function write(content: string | Buffer): string {
  const file = path.join(dir, `${++files}.csv`);
  fs.writeFileSync(file, content);
  return file;
}

async function readAll(file: string) {
  const records: { line: number; cells: string[] }[] = [];
  for await (const piece of csvRecords(file)) records.push(...piece);
  return records;
}

/** csv-parse's records and the lines they end on, empty lines skipped. */
function reference(content: string) {
  // csv-parse's types leave out the shape `info: true` gives each record.
  const parsed = parse(content, { info: true, skip_empty_lines: true, bom: true }) as unknown as {
    record: string[];
    info: { lines: number };
  }[];
  return parsed.map(({ record, info }) => ({ line: info.lines, cells: record }));
}

describe("the import's CSV reader", () => {
  it("gives each record the line it ends on, past quoted line breaks and empty lines, without the BOM", async () => {
    const content = '\uFEFFid,name,note\nE1,Ana,plain\n\nE2,"Diego ""D"" Fuentes","two\nlines"\r\nE3,Bo,last';
    expect(await readAll(write(content))).toEqual([
      { line: 1, cells: ["id", "name", "note"] },
      { line: 2, cells: ["E1", "Ana", "plain"] },
      { line: 5, cells: ["E2", 'Diego "D" Fuentes', "two\nlines"] },
      { line: 6, cells: ["E3", "Bo", "last"] },
    ]);
  });

  it("reads a file of many pieces as csv-parse does, record for record and line for line", async () => {
    const rows = ["id,name,street,zip"];
    for (let i = 0; i < 6000; i++) {
      const street =
        i % 97 === 0 ? `"${i} Main St\nApt ${i % 7}"` : i % 13 === 0 ? `"${i} Elm, Unit ""B"""` : `${i} Oak Ave`;
      rows.push(`EMP-${i},Rider ${i},${street},9${String(i).padStart(4, "0")}`);
      if (i % 500 === 0) rows.push("");
    }
    const content = `${rows.join("\n")}\n`;
    expect(content.length).toBeGreaterThan(3 * 64 * 1024);
    const read = await readAll(write(content));
    expect(read).toEqual(reference(content));
  });

  it("reads a UTF-16 file that starts with its byte-order mark", async () => {
    const file = write(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("id,name\nE1,Zoë\n", "utf16le")]));
    expect(await readAll(file)).toEqual([
      { line: 1, cells: ["id", "name"] },
      { line: 2, cells: ["E1", "Zoë"] },
    ]);
  });

  it("refuses a record with more cells than the header, naming its line", async () => {
    await expect(readAll(write("id,name\nE1,Ana\nE2,Bo,extra\n"))).rejects.toThrow(
      "Invalid Record Length: columns length is 2, got 3 on line 3",
    );
  });

  it("refuses a quote left open in a large file without reading it all, naming the line where the record starts", async () => {
    const rows = ["id,name", "E1,Ana", 'E2,"Bo', ...Array.from({ length: 200_000 }, (_, i) => `E${i + 3},Rider ${i}`)];
    await expect(readAll(write(rows.join("\n")))).rejects.toThrow(
      "the record starting on line 3 is longer than 1 MB: is a quote left open?",
    );
  });

  it("refuses a quote left open at the end of a small file, naming the line where the record starts", async () => {
    await expect(readAll(write('id,name\nE1,Ana\nE2,"Bo\nE3,Cy\n'))).rejects.toThrow(/line 3/);
  });
});
