// `poolpatrol import KIND FILE... [--mapping M.json] [--dry-run] [--skip-invalid REJECTS.csv]` and
// `poolpatrol history ENTITY ID`: load a source's export and read what imports changed.
import os from "node:os";
import { loadSettings, withContext, withDatabase } from "../app/context.js";
import { importFiles } from "../cases/import-records.js";
import { ADDED_FIELD, changeHistory, ENTITY_OF } from "../data/change-history-repository.js";
import { newId } from "../domain/ids.js";
import { IMPORTABLE } from "../domain/import-kinds.js";
import { IMPORT_WORDS } from "../domain/import-summary.js";
import { type FieldChange, formatProblem, IMPORT_KINDS, type ImportKindName } from "../domain/record-import.js";
import { out, UsageError } from "./command-kit.js";

const isKind = (kind: string): kind is ImportKindName => (IMPORT_KINDS as readonly string[]).includes(kind);

export async function importCommand(
  kindName: string,
  files: string[],
  options: { mapping?: string; dryRun?: boolean; skipInvalid?: string; as?: string },
): Promise<void> {
  if (!isKind(kindName)) throw new UsageError(`Unknown kind "${kindName}": import ${IMPORT_KINDS.join(", ")}.`);
  const { kind } = IMPORTABLE[kindName];
  const actor = `cli:${options.as?.trim() || os.userInfo().username}`;
  const dryRun = options.dryRun === true;
  const settings = loadSettings();
  const importId = newId("import");
  const request = {
    kind: kindName,
    files,
    mappingFile: options.mapping,
    dryRun,
    rejectsFile: options.skipInvalid,
    actor,
  };
  // Applying it may queue re-audits, committed with the import: that needs the job engine.
  const result = dryRun
    ? await withDatabase(settings, (db) => importFiles(db, request))
    : await withContext(settings, (ctx) => importFiles(ctx.db, { ...request, jobs: ctx.jobs, importId }), {
        jobs: "worker",
      });
  const counts = {
    added: result.added.length,
    changed: result.changed.length,
    unchanged: result.unchanged,
    leaving: result.leaving.length,
    rejected: result.rejected.length,
  };
  const who = (record: unknown) => {
    const text = kind.text(record);
    const id = text[kind.idField];
    if (kindName === "employees") return `${id} ${text.first_name} ${text.last_name}`;
    if (kindName === "riders") return `${id} (${text.employee_id} on ${text.vanpool_id})`;
    return `${id}${text.name ? ` ${text.name}` : ""}`;
  };
  const changeLines = (c: { record: unknown; changes: FieldChange[] }) => [
    `  ${who(c.record)}`,
    ...c.changes.map((f) => `    ${f.field}: ${shown(f.old)} -> ${shown(f.new)}`),
  ];
  const leavingMeans = {
    employees: "deactivated, status set to terminated",
    shifts: "kept",
    vanpools: "deactivated, status set to inactive",
    riders: "off the van, status set to removed",
  }[kindName];
  const changes = counts.added + counts.changed + counts.leaving;
  const lines = [
    changes === 0
      ? `${result.source}: nothing ${dryRun ? "would change" : "changed"}; ${counts.unchanged} ${kindName} are as stored.`
      : dryRun
        ? `Dry run of ${result.source}: this is what an import would change; nothing was changed.`
        : `Imported ${result.source} as ${actor}: these changes were applied and kept in the history.`,
    `  added      ${counts.added}`,
    `  changed    ${counts.changed}`,
    `  unchanged  ${counts.unchanged}`,
    `  leaving    ${counts.leaving} (absent from the file: ${leavingMeans}, never deleted)`,
    `  rejected   ${counts.rejected}${options.skipInvalid && !dryRun ? ` (written to ${options.skipInvalid})` : ""}`,
  ];
  if (counts.added > 0) lines.push("", "Added:", ...result.added.map((r) => `  ${who(r)}`));
  if (counts.changed > 0) lines.push("", "Changed:", ...result.changed.flatMap(changeLines));
  if (counts.leaving > 0) lines.push("", "Leaving:", ...result.leaving.flatMap(changeLines));
  if (result.reaudits.length > 0)
    lines.push(
      "",
      `${dryRun ? "Would re-check" : "Re-checks queued for"} (${IMPORT_WORDS[kindName].rechecked}): ${result.reaudits.join(", ")}`,
    );
  if (!dryRun && changes > 0) lines.push("", `Kept as ${importId}; the bot posts its summary in the audit channel.`);
  if (counts.rejected > 0)
    lines.push(
      "",
      "Rejected:",
      ...result.rejected.flatMap((r) => r.problems.map((p) => `  ${formatProblem(result.source, p)}`)),
    );
  out(`${lines.join("\n")}\n`);
}

const shown = (value: string | null) => (value === null ? "(empty)" : JSON.stringify(value));

const ID_SHAPE: Record<string, { pattern: RegExp; example: string }> = {
  employee: { pattern: /^EMP-\d+$/, example: "EMP-1028" },
  shift: { pattern: /^SHIFT_[A-Z0-9_]+$/, example: "SHIFT_DAY" },
  vanpool: { pattern: /^VP-\d+$/, example: "VP-111" },
  rider: { pattern: /^\S+$/, example: "P-1083" },
};

export async function historyCommand(entity: string, id: string): Promise<void> {
  const entities = Object.values(ENTITY_OF);
  if (!entities.includes(entity))
    throw new UsageError(`Unknown entity "${entity}": history is kept for ${entities.join(", ")}.`);
  const shape = ID_SHAPE[entity]!;
  const entityId = entity === "rider" ? id.trim() : id.trim().toUpperCase();
  if (!shape.pattern.test(entityId)) throw new UsageError(`"${id}" is not a ${entity} id, like ${shape.example}.`);
  await withDatabase(loadSettings(), async (db) => {
    const rows = await changeHistory(db.prisma, entity, entityId);
    if (rows.length === 0) {
      out(`No imported changes are recorded for ${entityId}.\n`);
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
