// `poolpatrol import KIND FILE...`: reads CSV (streamed, header row, with or without a BOM) or JSON
// files, maps them with the mapping file onto Pool Patrol's fields of the kind, and applies the
// difference with the stored records (or, with dryRun, only reports it). Several files are one
// import (an id in two of them is a duplicate). A file with any bad row changes nothing, unless
// rejectsFile is given: then the good rows are applied and the bad ones written there with their reasons.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { stringify } from "csv-stringify/sync";
import type pg from "pg";
import { applyImport } from "../data/change-history-repository.js";
import { recordAppliedImport } from "../data/data-import-repository.js";
import { FixtureError } from "../data/fixtures.js";
import { pgExecutor, type SqlExecutor } from "../data/job-executor.js";
import type { DataClients } from "../data/prisma.js";
import { cleanStringsIn } from "../domain/clean-text.js";
import { IMPORTABLE } from "../domain/import-kinds.js";
import {
  columnsFor,
  formatProblem,
  type ImportKindName,
  type ImportMapping,
  type ImportPlan,
  importPlanner,
  type SourceRow,
} from "../domain/record-import.js";
import type { Schedule } from "../domain/schedule.js";
import { scheduleColumns } from "../domain/schedule-columns.js";
import { importJobs, type JobSender } from "../queue/queues.js";
import { csvRecords } from "./csv-records.js";

/** Rows already read, named like a file: the riders `db seed --from` takes from its vanpools.json. */
export interface RowSource {
  name: string;
  header: string[];
  rows: SourceRow[];
}

export interface ImportOptions {
  kind: ImportKindName;
  files: (string | RowSource)[];
  mappingFile?: string;
  /** The mapping itself, instead of a mapping file. */
  mapping?: ImportMapping;
  dryRun: boolean;
  /** Apply the good rows and write the rejected ones here (CSV, with their reasons). */
  rejectsFile?: string;
  /** Who or what imports it, kept with every change. */
  actor: string;
  /** Queues the re-audit of each vanpool the import touches (none on a dry run). */
  jobs?: JobSender;
  /**
   * The id an applied import is kept under (data_imports), written in its transaction with its
   * re-checks and the job posting its channel summary (when it changed something).
   */
  importId?: string;
  /** A transaction of inImportTransaction to run in, with other imports: all commit or none. */
  tx?: pg.PoolClient;
}

export type ImportResult = ImportPlan<unknown> & { source: string; reaudits: string[] };

/** SHA-256 of the kind and the files' bytes: the same export read again has the same hash. */
export function contentHash(kind: ImportKindName, files: (string | RowSource)[]): string {
  const hash = createHash("sha256").update(kind);
  for (const file of files)
    hash.update("\0").update(typeof file === "string" ? fs.readFileSync(file) : JSON.stringify(file.rows));
  return hash.digest("hex");
}

/**
 * Opens the files and checks what can be checked without the database: the mapping, each file's
 * format and columns, and that it has rows. Throws FixtureError naming what is wrong. The rows
 * themselves are read (streamed) when the import is planned.
 */
export async function readImport(options: Pick<ImportOptions, "kind" | "files" | "mappingFile" | "mapping">) {
  const { kind } = IMPORTABLE[options.kind];
  const mapping =
    options.mapping ??
    (options.mappingFile ? readMapping(options.kind, options.mappingFile) : defaultMapping(options.kind));
  const several = options.files.length > 1;
  const read: (OpenedRows & { file: string })[] = [];
  for (const file of options.files)
    read.push(
      typeof file === "string"
        ? { file, ...(await openRows(file, mapping, several)) }
        : { file: file.name, header: file.header, hasRows: file.rows.length > 0, rows: () => rowsOf(file.rows) },
    );
  const problems: string[] = [];
  const perFile = read.map((r) => {
    const columns = columnsFor(kind, r.header, mapping);
    problems.push(...columns.problems.map((p) => formatProblem(path.basename(r.file), p)));
    // An empty export would deactivate everything: more likely a failed export than an empty program.
    if (!r.hasRows)
      problems.push(`${path.basename(r.file)}: has no rows; an import would deactivate every ${kind.noun}`);
    return columns;
  });
  if (problems.length > 0) throw new FixtureError(problems);
  // Several files: a field is carried when every file has its column.
  const columns = {
    ...perFile[0]!,
    carried: new Set([...perFile[0]!.carried].filter((f) => perFile.every((c) => c.carried.has(f)))),
  };
  const header = [...new Set(read.flatMap((r) => r.header))];
  return { kind, mapping, columns, header, read, several };
}

export async function importFiles(db: DataClients, options: ImportOptions): Promise<ImportResult> {
  const { kind, mapping, columns, header, read, several } = await readImport(options);
  const source = options.files.map((f) => (typeof f === "string" ? path.basename(f) : f.name)).join(", ");
  const jobs = options.jobs && importJobs(options.jobs);
  const { importId } = options;
  const how = {
    source,
    actor: options.actor,
    dryRun: options.dryRun,
    tx: options.tx,
    reaudit:
      jobs &&
      ((vanpoolIds: string[], db: SqlExecutor) => jobs.reaudits(vanpoolIds, source, options.actor, db, importId)),
    applied:
      importId === undefined
        ? undefined
        : async (result: ImportPlan<unknown> & { reaudits: string[] }, tx: pg.PoolClient) => {
            // A file that matches the database writes nothing, not even its record.
            const changes = result.added.length + result.changed.length + result.leaving.length;
            if (changes === 0) return;
            await recordAppliedImport(
              tx,
              {
                id: importId,
                kind: options.kind,
                source_file: source,
                actor: options.actor,
                result: describeImport(options.kind, result),
                content_sha256: contentHash(options.kind, options.files),
              },
              result.reaudits,
            );
            if (jobs) await jobs.summary(importId, pgExecutor(tx));
          },
  };
  const plan = await applyImport(
    db.pool,
    options.kind,
    how,
    async (stored, refs, added) => {
      // The rows stream through the comparison: only what changes (and what is refused) is kept.
      const planner = importPlanner(kind, mapping, columns, stored, refs, added);
      for (const r of read) for await (const piece of r.rows()) for (const row of piece) planner.add(row);
      const result = planner.finish();
      if (result.rejected.length > 0 && !options.rejectsFile)
        throw new FixtureError(result.rejected.flatMap((r) => r.problems.map((p) => formatProblem(source, p))));
      // Written before the transaction commits: a rejects file that cannot be written applies nothing.
      if (options.rejectsFile && !options.dryRun) writeRejects(options.rejectsFile, header, result, source, several);
      return result;
    },
    (record) => kind.text(record)[kind.idField] ?? "",
  );
  return { ...plan, source };
}

/** An import's result as kept (data_imports): counts, each record's id and each change field by field. */
export function describeImport(kindName: ImportKindName, result: ImportPlan<unknown> & { reaudits: string[] }) {
  const { kind } = IMPORTABLE[kindName];
  const id = (record: unknown) => kind.text(record)[kind.idField] ?? "";
  return {
    counts: {
      added: result.added.length,
      changed: result.changed.length,
      unchanged: result.unchanged,
      leaving: result.leaving.length,
      rejected: result.rejected.length,
    },
    added: result.added.map(id),
    changed: result.changed.map((c) => ({ id: id(c.record), changes: c.changes })),
    leaving: result.leaving.map((c) => ({ id: id(c.record), changes: c.changes })),
    reaudits: result.reaudits,
    problems: [],
  };
}

function writeRejects(file: string, header: string[], plan: ImportPlan<unknown>, source: string, several: boolean) {
  const rejects = stringify([
    [...(several ? ["file"] : []), "line", ...header, "reasons"],
    ...plan.rejected.map((r) => [
      ...(several ? [r.row.file ?? ""] : []),
      r.row.at,
      ...header.map((h) => r.row.values[h] ?? ""),
      r.problems.map((p) => formatProblem(source, p)).join("; "),
    ]),
  ]);
  try {
    fs.writeFileSync(file, rejects);
  } catch (error) {
    throw new FixtureError([`${file}: the rejected rows could not be written (${(error as Error).message})`]);
  }
}

export function defaultMapping(kind: ImportKindName): ImportMapping {
  const parsed = IMPORTABLE[kind].mapping.safeParse({});
  if (!parsed.success) throw new Error("the empty mapping is valid");
  return parsed.data;
}

function readMapping(kind: ImportKindName, file: string): ImportMapping {
  const name = path.basename(file);
  let data: unknown;
  try {
    data = JSON.parse(fs.readFileSync(file, "utf8").replace(/^\uFEFF/, ""));
  } catch (error) {
    throw new FixtureError([`${name}: not a readable JSON mapping (${(error as Error).message})`]);
  }
  const parsed = IMPORTABLE[kind].mapping.safeParse(data);
  if (!parsed.success)
    throw new FixtureError(
      parsed.error.issues.map(
        (i) =>
          `${name}: field "${i.path.map(String).join(".") || "(mapping)"}": ${i.message}${i.code === "unrecognized_keys" && i.path.length > 0 ? ` (Pool Patrol's ${IMPORTABLE[kind].kind.noun} fields: ${IMPORTABLE[kind].kind.fields.join(", ")})` : ""}`,
      ),
    );
  return parsed.data;
}

interface OpenedRows {
  header: string[];
  /** Whether the file has a row after its header. */
  hasRows: boolean;
  /**
   * The file's rows as text by column, each with its line (CSV) or record number (JSON), a piece of the
   * file at a time; a CSV file is read anew each time.
   */
  rows(): AsyncIterable<SourceRow[]>;
}

/** A file's header, read now, and its rows, read as they are asked for. */
async function openRows(file: string, mapping: ImportMapping, several: boolean): Promise<OpenedRows> {
  const source = path.basename(file);
  const from = several ? { file: source } : {};
  if (!fs.existsSync(file) || !fs.statSync(file).isFile()) throw new FixtureError([`${file}: no such file`]);
  if (file.toLowerCase().endsWith(".json")) {
    let data: unknown;
    try {
      data = JSON.parse(fs.readFileSync(file, "utf8").replace(/^\uFEFF/, ""));
    } catch (error) {
      throw new FixtureError([`${source}: not valid JSON (${(error as Error).message})`]);
    }
    if (!Array.isArray(data) || !data.every((r) => r && typeof r === "object" && !Array.isArray(r)))
      throw new FixtureError([`${source}: must be a JSON array of records`]);
    const { header, rows } = jsonRows(data as Record<string, unknown>[], mapping, from);
    return { header, hasRows: rows.length > 0, rows: () => rowsOf(rows) };
  }
  const records = async function* () {
    try {
      yield* csvRecords(file);
    } catch (error) {
      throw new FixtureError([`${source}: not readable as CSV (${(error as Error).message})`]);
    }
  };
  // The header is the first record; a row is the header's names with the record's cells.
  let names: string[] | undefined;
  let hasRows = false;
  reading: for await (const piece of records())
    for (const { cells } of piece) {
      if (names) {
        hasRows = true;
        break reading;
      }
      names = cells.map((name) => name.trim());
    }
  const header = names ?? [];
  const rows = async function* (): AsyncGenerator<SourceRow[]> {
    let first = true;
    for await (const piece of records()) {
      const rows: SourceRow[] = [];
      for (const { line, cells } of piece) {
        if (first) {
          first = false;
          continue;
        }
        const values: Record<string, string> = {};
        for (let i = 0; i < cells.length; i++) values[header[i]!] = cells[i]!;
        rows.push({ at: `line ${line}`, ...from, values });
      }
      yield rows;
    }
  };
  return { header, hasRows, rows };
}

async function* rowsOf(rows: SourceRow[]): AsyncGenerator<SourceRow[]> {
  yield rows;
}

/** JSON records as rows of text by column, in the shape of mock/ (`db seed`) too (see flattenFixtureShape). */
export function jsonRows(
  records: Record<string, unknown>[],
  mapping: Pick<ImportMapping, "list_separator">,
  from: { file?: string } = {},
  at = (i: number) => `record #${i + 1}`,
): { header: string[]; rows: SourceRow[] } {
  const flat = cleanStringsIn(records).map(flattenFixtureShape);
  const text = (v: unknown) =>
    v === null || v === undefined
      ? ""
      : Array.isArray(v)
        ? v.join(mapping.list_separator)
        : typeof v === "object"
          ? JSON.stringify(v)
          : String(v);
  return {
    header: [...new Set(flat.flatMap((r) => Object.keys(r)))],
    rows: flat.map((r, i) => ({
      at: at(i),
      ...from,
      values: Object.fromEntries(Object.entries(r).map(([k, v]) => [k, text(v)])),
    })),
  };
}

/**
 * The shape of mock/ (`db seed`): coordinates as one object (`home_coords`) are read as two columns
 * (`home_lat`, `home_lng`); a schedule as a list of days with times (`schedule`, `operating_schedule`)
 * as `days`, `start_time` and `end_time` (differing times by day listed in day order, which the
 * import refuses: it keeps one start and end a schedule).
 */
function flattenFixtureShape(record: Record<string, unknown>): Record<string, unknown> {
  const flat: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    if (key.endsWith("_coords") && (value === null || (typeof value === "object" && !Array.isArray(value)))) {
      const { lat, lng } = (value ?? {}) as { lat?: unknown; lng?: unknown };
      const prefix = key.slice(0, -"_coords".length);
      flat[`${prefix}_lat`] = lat;
      flat[`${prefix}_lng`] = lng;
    } else if ((key === "schedule" || key === "operating_schedule") && (value === null || isDayList(value))) {
      Object.assign(flat, scheduleColumns(value));
    } else flat[key] = value;
  }
  return flat;
}

const isDayList = (value: unknown): value is Schedule =>
  Array.isArray(value) && value.every((d) => d && typeof d === "object" && "day" in d);
