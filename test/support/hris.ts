// The HRIS worker export of docs/examples/ (the mock employees), edited by a test and written
// with a BOM, as an HR system's CSV download would be.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import { PROJECT_ROOT } from "../../src/config/settings.js";

export const HRIS_EXAMPLE = path.join(PROJECT_ROOT, "docs/examples/hris-workers.csv");
export const HRIS_MAPPING = path.join(PROJECT_ROOT, "docs/examples/hris-mapping.json");
/** Column indexes of the example export. */
export const HRIS = { HOME_ADDRESS: 5, HOME_CITY: 6, HOME_ZIP: 8, SHIFT: 9, WORKER_STATUS: 12, PTO: 13 } as const;

/** The example export edited by `edit` (its rows after the header), written with a BOM as workers.csv. */
export function hrisFile(edit: (rows: string[][]) => void = () => {}): string {
  const [header, ...rows] = parse(fs.readFileSync(HRIS_EXAMPLE, "utf8")) as string[][];
  edit(rows);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "poolpatrol-import-"));
  const file = path.join(dir, "workers.csv");
  fs.writeFileSync(file, `\uFEFF${stringify([header!, ...rows])}`);
  return file;
}

export const hrisRow = (rows: string[][], id: string) => rows.find((r) => r[0] === id)!;

/** Diego Fuentes (EMP-1083, a rider of VP-111) moved to Fremont. */
export const diegoMoved = (rows: string[][]) => {
  const diego = hrisRow(rows, "EMP-1083");
  diego[HRIS.HOME_ADDRESS] = "41 Mowry Ave";
  diego[HRIS.HOME_CITY] = "Fremont";
  diego[HRIS.HOME_ZIP] = "94538";
};
