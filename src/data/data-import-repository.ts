// Imports (table data_imports): kept with their result, read back by id; an applied one with the
// vanpools it re-checks (import_rechecks) and where its channel summary is.

import type pg from "pg";
import { type RecheckOutcome, recheckOutcome } from "../domain/import-summary.js";
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
  /** The vanpool's open case when the import was applied (a retried re-check's first attempt may have opened another). */
  open_case_id: string | null;
  /** null while its re-audit runs. */
  outcome: RecheckOutcome | null;
  case_id: string | null;
  /** A case still failing here that another import's re-check opened: that import, for the words. */
  opened_by?: { kind: string; source_file: string };
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
  const stillFailing = r.rechecks.flatMap((c) => (c.outcome === "still_open" && c.caseId ? [c.caseId] : []));
  const openers = new Map(
    (stillFailing.length
      ? await prisma.importRecheck.findMany({
          where: { caseId: { in: stillFailing }, outcome: "new_case", importId: { not: id } },
          select: { caseId: true, dataImport: { select: { kind: true, sourceFile: true } } },
        })
      : []
    ).map((o) => [o.caseId, { kind: o.dataImport.kind, source_file: o.dataImport.sourceFile }]),
  );
  return {
    ...toRecord(r),
    content_sha256: r.contentSha256,
    slack: r.slackChannel && r.slackTs ? { channel: r.slackChannel, ts: r.slackTs } : null,
    details_ts: r.detailsTs,
    rechecks: r.rechecks.map((c) => {
      const openedBy = c.outcome === "still_open" && c.caseId ? openers.get(c.caseId) : undefined;
      return {
        vanpool_id: c.vanpoolId,
        open_case_id: c.openCaseId,
        outcome: c.outcome as RecheckOutcome | null,
        case_id: c.caseId,
        ...(openedBy ? { opened_by: openedBy } : {}),
      };
    }),
  };
}

/** What a re-check's audit job found: it failed, or the case its re-audit found open (`before`) and what it left. */
export type RecheckRun =
  | { failed: true }
  | { before: string | null; after: { case_id?: string | null; status?: string | null }; retried: boolean };

/**
 * Records how a re-check came out, once (a later attempt of the job changes nothing). Null: no such re-check, or
 * it is recorded already. Otherwise its outcome, and the other imports whose summaries now read differently: those
 * with a re-check still failing on the case this one opened.
 */
export async function finishRecheck(
  prisma: PrismaClient,
  key: { importId: string; vanpoolId: string },
  run: RecheckRun,
  at: Date,
): Promise<{ outcome: RecheckOutcome; caseId: string | null; others: string[] } | null> {
  const row = await prisma.importRecheck.findUnique({ where: { importId_vanpoolId: key } });
  if (!row || row.outcome !== null) return null;
  // A retry finding a case open that was not at the import, and that no other import's re-check opened: its first
  // attempt opened it (and stopped before recording it).
  const openedByEarlierAttempt = async (before: string | null) =>
    before !== null &&
    before !== row.openCaseId &&
    (await prisma.importRecheck.count({
      where: { caseId: before, outcome: "new_case", importId: { not: key.importId } },
    })) === 0;
  const { outcome, caseId } =
    "failed" in run
      ? { outcome: "failed" as const, caseId: null }
      : recheckOutcome(run.before, run.after, run.retried && (await openedByEarlierAttempt(run.before)));
  const { count } = await prisma.importRecheck.updateMany({
    where: { ...key, outcome: null },
    data: { outcome, caseId, finishedAt: at },
  });
  if (count === 0) return null;
  const others =
    outcome === "new_case" && caseId
      ? await prisma.importRecheck.findMany({
          where: { caseId, outcome: "still_open", importId: { not: key.importId } },
          select: { importId: true },
        })
      : [];
  return { outcome, caseId, others: [...new Set(others.map((o) => o.importId))] };
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
