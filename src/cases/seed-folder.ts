// `poolpatrol db seed [--from DIR]`: a fixture folder (mock/'s shape) goes through the import. Its
// shifts.json, employees.json and vanpools.json (with each vanpool's riders) are imported as
// `poolpatrol import` would read them (the same rules and messages, the history kept as "seed"),
// then its cases and email threads are written, all in one transaction: any problem stores nothing.
import fs from "node:fs";
import path from "node:path";
import { inImportTransaction } from "../data/change-history-repository.js";
import { type FileName, FixtureError, fixtureFilesIn, readFixtureDir } from "../data/fixtures.js";
import type { DataClients } from "../data/prisma.js";
import { type CaseSeedCounts, storedDateOffset, writeCaseFixtures } from "../data/seed.js";
import { offsetTo, shiftDates } from "../domain/fixture-dates.js";
import type { CaseFixture, EmailThreadFixture } from "../domain/fixture-schema.js";
import type { ImportKindName } from "../domain/record-import.js";
import { defaultMapping, type ImportOptions, type ImportResult, importFiles, jsonRows } from "./import-records.js";

/** Who the history names for a seed's changes. */
export const SEED_ACTOR = "seed";

export interface SeedResult {
  dir: string;
  /** Each kind the folder holds, in the order applied. */
  imports: { kind: ImportKindName; result: ImportResult }[];
  caseCounts: CaseSeedCounts;
  cases: CaseFixture[];
  emailThreads: EmailThreadFixture[];
}

/**
 * `inbound: false` leaves the riders' replies out (see writeCaseFixtures). `asOf` moves every date of the
 * cases and emails by one offset so that the story's latest moment is `asOf` (fixture-dates.ts); a folder
 * seeded before keeps the offset its cases were first stored with, so seeding it again changes nothing.
 */
export async function seedFolder(
  db: DataClients,
  dir: string,
  options: { inbound?: boolean; asOf?: Date } = {},
): Promise<SeedResult> {
  const present = fixtureFilesIn(dir);
  const written = readFixtureDir(dir, ["cases.json", "email_threads.json"]);
  const requests = importRequests(dir, present);
  return inImportTransaction(db.pool, async (tx) => {
    const imports: SeedResult["imports"] = [];
    for (const request of requests)
      imports.push({ kind: request.kind, result: await importFiles(db, { ...request, tx }) });
    const offset = options.asOf ? ((await storedDateOffset(tx, written.cases)) ?? offsetTo(written, options.asOf)) : 0;
    const { cases, emailThreads } = shiftDates(written, offset);
    const caseCounts = await writeCaseFixtures(tx, { cases, emailThreads }, options);
    return { dir, imports, caseCounts, cases, emailThreads };
  });
}

/** The folder's files as imports of their kinds: shifts name their id `id`, and riders sit inside vanpools.json. */
function importRequests(dir: string, present: FileName[]): ImportOptions[] {
  const base = { dryRun: false, actor: SEED_ACTOR };
  const file = (name: FileName) => path.join(dir, name);
  const requests: ImportOptions[] = [];
  if (present.includes("shifts.json")) {
    const mapping = defaultMapping("shifts");
    requests.push({
      ...base,
      kind: "shifts",
      files: [file("shifts.json")],
      mapping: { ...mapping, columns: { shift_id: "id" } },
    });
  }
  if (present.includes("employees.json"))
    requests.push({ ...base, kind: "employees", files: [file("employees.json")] });
  if (present.includes("vanpools.json")) {
    requests.push({ ...base, kind: "vanpools", files: [file("vanpools.json")] });
    const riders = ridersOf(file("vanpools.json"));
    // A vanpools.json that cannot be read is refused by its own import, before the riders'.
    if (riders) requests.push({ ...base, kind: "riders", files: [riders] });
  }
  return requests;
}

/** Each vanpool's riders as roster rows, named by the vanpool's record: `record #3, riders[1]`. */
function ridersOf(file: string) {
  let vanpools: unknown;
  try {
    vanpools = JSON.parse(fs.readFileSync(file, "utf8").replace(/^\uFEFF/, ""));
  } catch {
    return null;
  }
  if (!Array.isArray(vanpools)) return null;
  const records: Record<string, unknown>[] = [];
  const where: string[] = [];
  vanpools.forEach((v: Record<string, unknown> | null, i) => {
    const riders = v && typeof v === "object" ? v.riders : undefined;
    if (!Array.isArray(riders)) {
      if (riders !== undefined)
        throw new FixtureError([`vanpools.json: record #${i + 1}: field "riders": must be a list`]);
      return;
    }
    riders.forEach((r: unknown, j) => {
      records.push({ ...(r && typeof r === "object" ? r : {}), vanpool_id: v?.vanpool_id });
      where.push(`record #${i + 1}, riders[${j}]`);
    });
  });
  const { header, rows } = jsonRows(records, defaultMapping("riders"), {}, (i) => where[i]!);
  return { name: "vanpools.json", header, rows };
}
