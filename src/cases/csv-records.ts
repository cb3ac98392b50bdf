// A CSV file's records, read as a stream with papaparse: a piece of the file at a time is parsed, and
// the reading waits until that piece's records are taken (all at once, not a promise a record), so
// memory does not grow with the file. Each record comes with the line of the file it ends on (a quoted
// cell may hold line breaks, so a record's number is not its line); empty lines are skipped and counted.
// Cells are cleaned (clean-text.ts). A file that is not CSV (a quote left open, a record with more or
// fewer cells than the first) throws.
import fs from "node:fs";
import Papa from "papaparse";
import { cleanText } from "../domain/clean-text.js";

export interface CsvRecord {
  /** The line of the file the record ends on. */
  line: number;
  cells: string[];
}

/** A cell with a control character (a line break among them) or a surrogate: most have none. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const SPECIAL = /[\u0000-\u001F\u007F-\u009F\uD800-\uDFFF]/;
const LINE_BREAK = /\r\n|\r|\n/g;
/**
 * No record of an export is this long: one still open is a quote left open, which papaparse would read
 * the rest of the file into, parsing it again at every piece.
 */
const LONGEST_RECORD = 1024 * 1024;

export async function* csvRecords(file: string): AsyncGenerator<CsvRecord[]> {
  const stream = fs.createReadStream(file, { encoding: encodingOf(file) });
  const pieces: Papa.ParseResult<string[]>[] = [];
  let parser: Papa.Parser | undefined;
  let ended = false;
  let failed: Error | undefined;
  let wake: (() => void) | undefined;
  let read = 0;
  stream.on("data", (text) => {
    read += text.length;
  });
  Papa.parse<string[]>(stream, {
    delimiter: ",",
    beforeFirstChunk: (text) => text.replace(/^\uFEFF/, ""),
    chunk(piece, p) {
      // Paused until this piece's records are taken: the stream too, or papaparse queues the file.
      parser = p;
      p.pause();
      stream.pause();
      pieces.push(piece);
      wake?.();
    },
    complete() {
      ended = true;
      wake?.();
    },
    error(error) {
      failed = error;
      wake?.();
    },
  });
  let line = 0;
  let width: number | undefined;
  try {
    for (;;) {
      const piece = pieces.shift();
      if (!piece) {
        if (failed) throw failed;
        if (ended) return;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        continue;
      }
      const broken = piece.errors[0];
      const records: CsvRecord[] = [];
      for (let i = 0; i < piece.data.length; i++) {
        if (i === broken?.row) break;
        const cells = piece.data[i]!;
        line++;
        if (cells.length === 1 && cells[0] === "") continue;
        for (let c = 0; c < cells.length; c++) {
          const cell = cells[c]!;
          if (!SPECIAL.test(cell)) continue;
          line += cell.match(LINE_BREAK)?.length ?? 0;
          cells[c] = cleanText(cell);
        }
        width ??= cells.length;
        if (cells.length !== width)
          throw new Error(`Invalid Record Length: columns length is ${width}, got ${cells.length} on line ${line}`);
        records.push({ line, cells });
      }
      yield records;
      if (broken) throw new Error(`${broken.message}, in the record starting on line ${line + 1}`);
      if (read - piece.meta.cursor > LONGEST_RECORD)
        throw new Error(`the record starting on line ${line + 1} is longer than 1 MB: is a quote left open?`);
      parser?.resume();
      stream.resume();
    }
  } finally {
    if (!ended) parser?.abort();
    stream.destroy();
  }
}

/** UTF-8, or UTF-16 when the file starts with its byte-order mark (as csv-parse read it before). */
function encodingOf(file: string): BufferEncoding {
  const head = Buffer.alloc(2);
  const fd = fs.openSync(file, "r");
  try {
    fs.readSync(fd, head, 0, 2, 0);
  } finally {
    fs.closeSync(fd);
  }
  return head[0] === 0xff && head[1] === 0xfe ? "utf16le" : "utf8";
}
