// `poolpatrol import employees FILE`: reads a CSV (streamed, header row, with or without a BOM) or
// JSON file, maps it with the mapping file onto Pool Patrol's employee fields, and applies the
// difference with the stored employees (or, with dryRun, only reports it). A file with any bad row
// changes nothing, unless rejectsFile is given: then the good rows are applied and the bad ones
// written there with their reasons.
import fs from "node:fs";
import path from "node:path";
import { parse } from "csv-parse";
import { stringify } from "csv-stringify/sync";
import { importEmployees } from "../data/change-history-repository.js";
import { FixtureError } from "../data/fixtures.js";
import type { SqlExecutor } from "../data/job-executor.js";
import type { PrismaClient } from "../data/prisma.js";
import { cleanStringsIn } from "../domain/clean-text.js";
import {
  columnsOf,
  DEFAULT_MAPPING,
  EMPLOYEE_FIELDS,
  type EmployeeImportPlan,
  formatProblem,
  type ImportMapping,
  importMappingSchema,
  planEmployeeImport,
  type SourceRow,
} from "../domain/employee-import.js";
import { importJobs, type JobSender } from "../queue/queues.js";

export interface EmployeeImportOptions {
  file: string;
  mappingFile?: string;
  dryRun: boolean;
  /** Apply the good rows and write the rejected ones here (CSV, with their reasons). */
  rejectsFile?: string;
  /** Who or what imports it, kept with every change. */
  actor: string;
  /** Queues the re-audit of each vanpool whose open case has a rider the import changed (none on a dry run). */
  jobs?: JobSender;
}

export async function importEmployeesFile(
  prisma: PrismaClient,
  options: EmployeeImportOptions,
): Promise<EmployeeImportPlan & { source: string; reaudits: string[] }> {
  const source = path.basename(options.file);
  const mapping = options.mappingFile ? readMapping(options.mappingFile) : DEFAULT_MAPPING;
  const { header, rows } = await readRows(options.file, source, mapping);
  const columns = columnsOf(header, mapping);
  if (columns.problems.length > 0) throw new FixtureError(columns.problems.map((p) => formatProblem(source, p)));
  // An empty export would deactivate everyone: more likely a failed export than a company with no staff.
  if (rows.length === 0) throw new FixtureError([`${source}: has no rows; an import would deactivate every employee`]);
  const jobs = options.jobs && importJobs(options.jobs);
  const how = {
    source,
    actor: options.actor,
    dryRun: options.dryRun,
    reaudit: jobs && ((vanpoolId: string, db: SqlExecutor) => jobs.reaudit(vanpoolId, source, options.actor, db)),
  };
  const plan = await importEmployees(prisma, how, (stored, shiftIds) => {
    const result = planEmployeeImport(rows, mapping, columns, stored, shiftIds);
    if (result.rejected.length > 0 && !options.rejectsFile)
      throw new FixtureError(result.rejected.flatMap((r) => r.problems.map((p) => formatProblem(source, p))));
    // Written before the transaction commits: a rejects file that cannot be written applies nothing.
    if (options.rejectsFile && !options.dryRun) {
      const rejects = stringify([
        ["line", ...header, "reasons"],
        ...result.rejected.map((r) => [
          r.row.at,
          ...header.map((h) => r.row.values[h] ?? ""),
          r.problems.map((p) => formatProblem(source, p)).join("; "),
        ]),
      ]);
      try {
        fs.writeFileSync(options.rejectsFile, rejects);
      } catch (error) {
        throw new FixtureError([
          `${options.rejectsFile}: the rejected rows could not be written (${(error as Error).message})`,
        ]);
      }
    }
    return result;
  });
  return { ...plan, source };
}

function readMapping(file: string): ImportMapping {
  const name = path.basename(file);
  let data: unknown;
  try {
    data = JSON.parse(fs.readFileSync(file, "utf8").replace(/^\uFEFF/, ""));
  } catch (error) {
    throw new FixtureError([`${name}: not a readable JSON mapping (${(error as Error).message})`]);
  }
  const parsed = importMappingSchema.safeParse(data);
  if (!parsed.success)
    throw new FixtureError(
      parsed.error.issues.map(
        (i) =>
          `${name}: field "${i.path.join(".") || "(mapping)"}": ${i.message}${i.code === "unrecognized_keys" && i.path.length > 0 ? ` (Pool Patrol's employee fields: ${EMPLOYEE_FIELDS.join(", ")})` : ""}`,
      ),
    );
  return parsed.data;
}

/** The file's rows as text by column, each with its line (CSV) or record number (JSON). */
async function readRows(
  file: string,
  source: string,
  mapping: ImportMapping,
): Promise<{ header: string[]; rows: SourceRow[] }> {
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
    // The shape of mock/employees.json (`db seed`) holds coordinates as one object: read as its two columns.
    const records = cleanStringsIn(data as Record<string, unknown>[]).map(({ home_coords, ...r }) =>
      home_coords && typeof home_coords === "object"
        ? { ...r, home_lat: (home_coords as { lat?: unknown }).lat, home_lng: (home_coords as { lng?: unknown }).lng }
        : r,
    );
    const text = (v: unknown) =>
      v === null || v === undefined ? "" : Array.isArray(v) ? v.join(mapping.list_separator) : String(v);
    return {
      header: [...new Set(records.flatMap((r) => Object.keys(r)))],
      rows: records.map((r, i) => ({
        at: `record #${i + 1}`,
        values: Object.fromEntries(Object.entries(r).map(([k, v]) => [k, text(v)])),
      })),
    };
  }
  let header: string[] = [];
  const rows: SourceRow[] = [];
  const parser = fs.createReadStream(file).pipe(
    parse({
      bom: true,
      columns: (names: string[]) => {
        header = names.map((n) => n.trim());
        return header;
      },
      info: true,
      skip_empty_lines: true,
    }),
  );
  try {
    for await (const { record, info } of parser as AsyncIterable<{
      record: Record<string, string>;
      info: { lines: number };
    }>)
      rows.push({ at: `line ${info.lines}`, values: cleanStringsIn(record) });
  } catch (error) {
    throw new FixtureError([`${source}: not readable as CSV (${(error as Error).message})`]);
  }
  return { header, rows };
}
