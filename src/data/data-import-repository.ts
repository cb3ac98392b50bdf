// Imports (table data_imports): kept with their result, read back by id; an applied one with the
// vanpools it re-checks (import_rechecks) and where its channel summary is.

import type pg from "pg";
import type { RecheckOutcome } from "../domain/import-summary.js";
import type { DataImport } from "../generated/prisma/client.js";
import type { Prisma, PrismaClient } from "./prisma.js";

export interface DataImportRecord {
  id: string;
  kind: string;
  source_file: string;
  actor: string;
  dry_run: boolean;
  outcome: "applied" | "dry_run" | "refused";
  result: Record<string, unknown>;
  created_at: Date;
}

export async function recordDataImport(
  prisma: PrismaClient,
  row: Omit<DataImportRecord, "created_at">,
): Promise<DataImportRecord> {
  const stored = await prisma.dataImport.create({
    data: {
      id: row.id,
      kind: row.kind,
      sourceFile: row.source_file,
      actor: row.actor,
      dryRun: row.dry_run,
      outcome: row.outcome,
      result: row.result as Prisma.InputJsonObject,
    },
  });
  return { ...row, created_at: stored.createdAt };
}

const toRecord = (r: DataImport): DataImportRecord => ({
  id: r.id,
  kind: r.kind,
  source_file: r.sourceFile,
  actor: r.actor,
  dry_run: r.dryRun,
  outcome: r.outcome as DataImportRecord["outcome"],
  result: r.result as Record<string, unknown>,
  created_at: r.createdAt,
});

export async function findDataImport(prisma: PrismaClient, id: string): Promise<DataImportRecord | null> {
  const r = await prisma.dataImport.findUnique({ where: { id } });
  return r && toRecord(r);
}

export interface ImportRecheckRecord {
  vanpool_id: string;
  /** The vanpool's open case when the import was applied. */
  open_case_id: string | null;
  /** null while its re-audit runs. */
  outcome: RecheckOutcome | null;
  case_id: string | null;
}

export interface ImportSummaryRecord extends DataImportRecord {
  content_sha256: string | null;
  slack: { channel: string; ts: string } | null;
  details_ts: string | null;
  rechecks: ImportRecheckRecord[];
}

/**
 * An applied import's record, written in its transaction with the vanpools it re-checks (each with
 * the open case it had then), so the summary can later say which cases the re-checks resolved.
 */
export async function recordAppliedImport(
  tx: pg.ClientBase,
  row: Omit<DataImportRecord, "created_at" | "outcome" | "dry_run"> & { content_sha256?: string },
  rechecks: string[],
): Promise<void> {
  await tx.query(
    `INSERT INTO data_imports (id, kind, source_file, actor, dry_run, outcome, result, content_sha256)
     VALUES ($1, $2, $3, $4, false, 'applied', $5::jsonb, $6)`,
    [row.id, row.kind, row.source_file, row.actor, JSON.stringify(row.result), row.content_sha256 ?? null],
  );
  if (rechecks.length === 0) return;
  // Each re-checked vanpool with the case it has open now (none: NULL).
  await tx.query(
    `INSERT INTO import_rechecks (import_id, vanpool_id, open_case_id)
     SELECT $1, v.vanpool_id,
            (SELECT id FROM cases c WHERE c.vanpool_id = v.vanpool_id AND c.status NOT IN ('resolved', 'cancelled')
             ORDER BY c.created_at DESC LIMIT 1)
     FROM unnest($2::text[]) AS v(vanpool_id)`,
    [row.id, rechecks],
  );
}

export async function findImportSummary(prisma: PrismaClient, id: string): Promise<ImportSummaryRecord | null> {
  const r = await prisma.dataImport.findUnique({
    where: { id },
    include: { rechecks: { orderBy: { vanpoolId: "asc" } } },
  });
  if (!r) return null;
  return {
    ...toRecord(r),
    content_sha256: r.contentSha256,
    slack: r.slackChannel && r.slackTs ? { channel: r.slackChannel, ts: r.slackTs } : null,
    details_ts: r.detailsTs,
    rechecks: r.rechecks.map((c) => ({
      vanpool_id: c.vanpoolId,
      open_case_id: c.openCaseId,
      outcome: c.outcome as RecheckOutcome | null,
      case_id: c.caseId,
    })),
  };
}

/** Records how a re-check came out; `decide` is given the case the vanpool had open at the import. False: no such re-check. */
export async function finishRecheck(
  prisma: PrismaClient,
  key: { importId: string; vanpoolId: string },
  decide: (openCaseId: string | null) => { outcome: RecheckOutcome; caseId: string | null },
  at: Date,
): Promise<boolean> {
  const row = await prisma.importRecheck.findUnique({ where: { importId_vanpoolId: key } });
  if (!row) return false;
  const { outcome, caseId } = decide(row.openCaseId);
  await prisma.importRecheck.update({
    where: { importId_vanpoolId: key },
    data: { outcome, caseId, finishedAt: at },
  });
  return true;
}

export async function setImportMessage(prisma: PrismaClient, id: string, at: { channel: string; ts: string }) {
  await prisma.dataImport.update({ where: { id }, data: { slackChannel: at.channel, slackTs: at.ts } });
}

export async function setImportDetails(prisma: PrismaClient, id: string, ts: string) {
  await prisma.dataImport.update({ where: { id }, data: { detailsTs: ts } });
}

/** Of these file hashes, the ones an applied import read before. */
export async function importedHashes(prisma: PrismaClient, hashes: string[]): Promise<Set<string>> {
  const rows = await prisma.dataImport.findMany({
    where: { contentSha256: { in: hashes }, outcome: "applied" },
    select: { contentSha256: true },
  });
  return new Set(rows.map((r) => r.contentSha256!));
}

/** What names each record of an import in Slack: an employee's first name, a rider's employee and van, a vanpool's or shift's name. */
export interface ImportedRecordName {
  first_name?: string;
  employee_id?: string;
  vanpool_id?: string;
  name?: string | null;
}

export async function importedRecordNames(
  prisma: PrismaClient,
  kind: string,
  ids: string[],
): Promise<Map<string, ImportedRecordName>> {
  if (ids.length === 0) return new Map();
  if (kind === "employees") {
    const rows = await prisma.employee.findMany({ where: { id: { in: ids } }, select: { id: true, firstName: true } });
    return new Map(rows.map((r) => [r.id, { first_name: r.firstName }]));
  }
  if (kind === "riders") {
    const rows = await prisma.rider.findMany({
      where: { participantId: { in: ids } },
      select: { participantId: true, vanpoolId: true, employeeId: true, employee: { select: { firstName: true } } },
    });
    return new Map(
      rows.map((r) => [
        r.participantId,
        { employee_id: r.employeeId, vanpool_id: r.vanpoolId, first_name: r.employee.firstName },
      ]),
    );
  }
  if (kind === "vanpools") {
    const rows = await prisma.vanpool.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } });
    return new Map(rows.map((r) => [r.id, { name: r.name }]));
  }
  const rows = await prisma.shift.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } });
  return new Map(rows.map((r) => [r.id, { name: r.name }]));
}
