// `poolpatrol import employees FILE [--mapping M.json] [--dry-run] [--skip-invalid REJECTS.csv]` and
// `poolpatrol history employee EMP-…`: load a source's export and read what imports changed.
import os from "node:os";
import { loadSettings, withContext, withDatabase } from "../app/context.js";
import { importEmployeesFile } from "../cases/import-employees.js";
import { ADDED_FIELD, changeHistory } from "../data/change-history-repository.js";
import { type FieldChange, formatProblem } from "../domain/employee-import.js";
import type { EmployeeFixture } from "../domain/fixture-schema.js";
import { out, UsageError } from "./command-kit.js";

export async function importCommand(
  kind: string,
  file: string,
  options: { mapping?: string; dryRun?: boolean; skipInvalid?: string; as?: string },
): Promise<void> {
  if (kind !== "employees") throw new UsageError(`Unknown kind "${kind}": only employees can be imported for now.`);
  const actor = `cli:${options.as?.trim() || os.userInfo().username}`;
  const dryRun = options.dryRun === true;
  const settings = loadSettings();
  const request = { file, mappingFile: options.mapping, dryRun, rejectsFile: options.skipInvalid, actor };
  // Applying it may queue re-audits, committed with the import: that needs the job engine.
  const result = dryRun
    ? await withDatabase(settings, (db) => importEmployeesFile(db.prisma, request))
    : await withContext(settings, (ctx) => importEmployeesFile(ctx.db.prisma, { ...request, jobs: ctx.jobs }), {
        jobs: "worker",
      });
  const counts = {
    added: result.added.length,
    changed: result.changed.length,
    unchanged: result.unchanged,
    leaving: result.leaving.length,
    rejected: result.rejected.length,
  };
  const changes = counts.added + counts.changed + counts.leaving;
  const lines = [
    changes === 0
      ? `${result.source}: nothing ${dryRun ? "would change" : "changed"}; ${counts.unchanged} employees are as stored.`
      : dryRun
        ? `Dry run of ${result.source}: this is what an import would change; nothing was changed.`
        : `Imported ${result.source} as ${actor}: these changes were applied and kept in the history.`,
    `  added      ${counts.added}`,
    `  changed    ${counts.changed}`,
    `  unchanged  ${counts.unchanged}`,
    `  leaving    ${counts.leaving} (absent from the file: deactivated, status set to terminated, never deleted)`,
    `  rejected   ${counts.rejected}${options.skipInvalid && !dryRun ? ` (written to ${options.skipInvalid})` : ""}`,
  ];
  if (counts.added > 0) lines.push("", "Added:", ...result.added.map((e) => `  ${who(e)}`));
  if (counts.changed > 0) lines.push("", "Changed:", ...result.changed.flatMap(changeLines));
  if (counts.leaving > 0) lines.push("", "Leaving:", ...result.leaving.flatMap(changeLines));
  if (result.reaudits.length > 0)
    lines.push(
      "",
      `${dryRun ? "Would re-audit" : "Re-audit queued for"} (an open case with a rider this file changes): ${result.reaudits.join(", ")}`,
    );
  if (counts.rejected > 0)
    lines.push(
      "",
      "Rejected:",
      ...result.rejected.flatMap((r) => r.problems.map((p) => `  ${formatProblem(result.source, p)}`)),
    );
  out(`${lines.join("\n")}\n`);
}

const who = (e: EmployeeFixture) => `${e.employee_id} ${e.first_name} ${e.last_name}`;
const shown = (value: string | null) => (value === null ? "(empty)" : JSON.stringify(value));
const changeLines = (c: { employee: EmployeeFixture; changes: FieldChange[] }) => [
  `  ${who(c.employee)}`,
  ...c.changes.map((f) => `    ${f.field}: ${shown(f.old)} -> ${shown(f.new)}`),
];

export async function historyCommand(entity: string, id: string): Promise<void> {
  if (entity !== "employee") throw new UsageError(`Unknown entity "${entity}": history is kept for employee.`);
  const employeeId = id.trim().toUpperCase();
  if (!/^EMP-\d+$/.test(employeeId)) throw new UsageError(`"${id}" is not an employee id, like EMP-1028.`);
  await withDatabase(loadSettings(), async (db) => {
    const rows = await changeHistory(db.prisma, entity, employeeId);
    if (rows.length === 0) {
      out(`No imported changes are recorded for ${employeeId}.\n`);
      return;
    }
    out(
      `${rows
        .map(
          (r) =>
            `${r.at.toISOString().replace("T", " ").slice(0, 19)} UTC  ${r.field === ADDED_FIELD ? "added" : `${r.field}: ${shown(r.old_value)} -> ${shown(r.new_value)}`}  (${r.source_file}, by ${r.actor})`,
        )
        .join("\n")}\n`,
    );
  });
}
