// Stores audits as verification runs with one specialist result per check: the
// evidence that "why did this case fail?" reads later.
import { randomUUID } from "node:crypto";
import type pg from "pg";
import {
  CHECK_KINDS,
  type CheckKind,
  type SpecialistResult,
  type VanpoolAudit,
  type Verdict,
} from "../domain/specialist-result.js";
import type { Prisma, PrismaClient } from "./prisma.js";

export interface StoredRun {
  run_id: string;
  vanpool_id: string;
  case_id: string | null;
  trigger: string;
  verdict: Verdict;
  as_of: string;
  finished_at: Date;
  results: (SpecialistResult & { model: string })[];
}

/**
 * Writes runs and results in two statements whatever the batch size. The rows travel
 * as one JSON parameter expanded by PostgreSQL, through pg directly: Prisma's
 * createMany spent 34 s of an audit of 10,000 vanpools serialising evidence, against
 * about 3 s this way (and half the memory).
 */
export async function saveAudits(
  pool: pg.Pool,
  audits: VanpoolAudit[],
  options: { trigger: string; caseId?: string | null },
): Promise<string[]> {
  return saveRuns(
    pool,
    audits.map((audit) => ({
      vanpool_id: audit.vanpool_id,
      case_id: options.caseId ?? null,
      trigger: options.trigger,
      verdict: audit.verdict,
      as_of: audit.as_of,
      started_at: audit.started_at,
      finished_at: audit.finished_at,
      results: CHECK_KINDS.map((check) => ({ ...audit[check], model: "rules" })),
    })),
  );
}

/** A run of one or both checks (a selective re-audit runs one). */
export interface RunToSave {
  vanpool_id: string;
  case_id: string | null;
  trigger: string;
  verdict: Verdict;
  as_of: string;
  started_at: Date;
  finished_at: Date;
  results: (SpecialistResult & { model: string })[];
}

export async function saveRuns(pool: pg.Pool, toSave: RunToSave[]): Promise<string[]> {
  const runs = toSave.map((run) => ({
    id: randomUUID(),
    vanpool_id: run.vanpool_id,
    case_id: run.case_id,
    trigger: run.trigger,
    verdict: run.verdict,
    policy: Object.assign({}, ...run.results.map((r) => r.policy)),
    as_of: run.as_of,
    started_at: run.started_at.toISOString(),
    finished_at: run.finished_at.toISOString(),
  }));
  const results = toSave.flatMap((run, i) =>
    run.results.map((result) => ({
      id: randomUUID(),
      run_id: runs[i]!.id,
      check: result.check,
      verdict: result.verdict,
      confidence: result.confidence,
      reasoning: result.reasoning,
      evidence: result.evidence,
      flagged: result.flagged,
      model: result.model,
    })),
  );
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    await client.query(
      `INSERT INTO verification_runs (id, vanpool_id, case_id, trigger, verdict, policy, as_of, started_at, finished_at)
       SELECT r.id, r.vanpool_id, r.case_id, r.trigger, r.verdict::"Verdict", r.policy, r.as_of,
              r.started_at AT TIME ZONE 'UTC', r.finished_at AT TIME ZONE 'UTC'
       FROM jsonb_to_recordset($1::jsonb) AS r(id text, vanpool_id text, case_id text, trigger text, verdict text, policy jsonb, as_of text, started_at timestamptz, finished_at timestamptz)`,
      [JSON.stringify(runs)],
    );
    await client.query(
      `INSERT INTO specialist_results (id, run_id, "check", verdict, confidence, reasoning, evidence, flagged, model)
       SELECT r.id, r.run_id, r."check"::"CheckKind", r.verdict::"Verdict", r.confidence, r.reasoning, r.evidence,
              ARRAY(SELECT jsonb_array_elements_text(r.flagged)), r.model
       FROM jsonb_to_recordset($1::jsonb) AS r(id text, run_id text, "check" text, verdict text, confidence int, reasoning text, evidence jsonb, flagged jsonb, model text)`,
      [JSON.stringify(results)],
    );
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK");
    throw error;
  } finally {
    client.release();
  }
  return runs.map((r) => r.id);
}

export async function findLatestRun(prisma: PrismaClient, vanpoolId: string): Promise<StoredRun | undefined> {
  const run = await prisma.verificationRun.findFirst({
    where: { vanpoolId },
    orderBy: [{ finishedAt: "desc" }, { seq: "desc" }],
    include: { results: true },
  });
  if (!run) return undefined;
  return {
    run_id: run.id,
    vanpool_id: run.vanpoolId,
    case_id: run.caseId,
    trigger: run.trigger,
    verdict: run.verdict,
    as_of: run.asOf,
    finished_at: run.finishedAt,
    results: run.results.map((r) => ({
      check: r.check,
      verdict: r.verdict,
      confidence: r.confidence,
      reasoning: r.reasoning,
      evidence: r.evidence as SpecialistResult["evidence"],
      flagged: r.flagged,
      policy: run.policy as Record<string, number>,
      model: r.model,
    })),
  };
}

export type StoredResult = StoredRun["results"][number] & { run_id: string; finished_at: Date; as_of: string };
export type LatestResults = Partial<Record<CheckKind, StoredResult>>;

/**
 * The newest stored result of each check for a vanpool (a selective re-audit updates one),
 * or the newest finished by a moment (what a case closed at that moment was decided on).
 */
export async function findLatestResults(
  prisma: PrismaClient,
  vanpoolId: string,
  options: { finishedBy?: Date } = {},
): Promise<LatestResults> {
  return latestPerCheck(prisma, {
    vanpoolId,
    ...(options.finishedBy ? { finishedAt: { lte: options.finishedBy } } : {}),
  });
}

async function latestPerCheck(
  prisma: PrismaClient,
  runWhere: Prisma.VerificationRunWhereInput,
): Promise<LatestResults> {
  const latest: LatestResults = {};
  for (const check of CHECK_KINDS) {
    const row = await prisma.specialistResult.findFirst({
      where: { check, run: runWhere },
      orderBy: [{ run: { finishedAt: "desc" } }, { run: { seq: "desc" } }],
      include: { run: true },
    });
    if (row) latest[check] = storedResult(row);
  }
  return latest;
}

type ResultRow = Prisma.SpecialistResultGetPayload<{ include: { run: true } }>;

function storedResult(row: ResultRow): StoredResult {
  return {
    check: row.check as StoredResult["check"],
    verdict: row.verdict,
    confidence: row.confidence,
    reasoning: row.reasoning,
    evidence: row.evidence as SpecialistResult["evidence"],
    flagged: row.flagged,
    policy: row.run.policy as Record<string, number>,
    model: row.model,
    run_id: row.runId,
    finished_at: row.run.finishedAt,
    as_of: row.run.asOf,
  };
}

/** The results of these runs (a re-audit's), per check. */
export async function findResultsOfRuns(prisma: PrismaClient, runIds: readonly string[]): Promise<LatestResults> {
  if (runIds.length === 0) return {};
  const rows = await prisma.specialistResult.findMany({
    where: { runId: { in: [...runIds] } },
    include: { run: true },
  });
  return Object.fromEntries(rows.map((row) => [row.check, storedResult(row)]));
}

export type CaseEvidence = LatestResults;

/**
 * The evidence a case stands on: the latest result of each check among the runs linked
 * to the case, and the vanpool's unlinked runs (audits asked for by hand) up to the
 * moment the case closed. A closed case keeps what it was decided on: later audits, or
 * runs of another case, never change it.
 */
export async function findCaseEvidence(prisma: PrismaClient, caseId: string): Promise<CaseEvidence> {
  const found = await prisma.case.findUnique({ where: { id: caseId }, select: { vanpoolId: true, resolvedAt: true } });
  if (!found) return {};
  return caseEvidenceOf(prisma, { caseId, vanpoolId: found.vanpoolId, resolvedAt: found.resolvedAt });
}

/** `findCaseEvidence` for a case already read. */
export function caseEvidenceOf(
  prisma: PrismaClient,
  found: { caseId: string; vanpoolId: string; resolvedAt: Date | null },
): Promise<CaseEvidence> {
  return latestPerCheck(prisma, {
    vanpoolId: found.vanpoolId,
    OR: [
      { caseId: found.caseId },
      { caseId: null, ...(found.resolvedAt ? { finishedAt: { lte: found.resolvedAt } } : {}) },
    ],
  });
}

export async function lastAuditAt(prisma: PrismaClient): Promise<Date | null> {
  const run = await prisma.verificationRun.findFirst({ orderBy: { finishedAt: "desc" }, select: { finishedAt: true } });
  return run?.finishedAt ?? null;
}

/** Vanpool checks (verification runs) finished at or after `since` (and before `until`). */
export async function countRunsFinishedSince(prisma: PrismaClient, since: Date, until?: Date): Promise<number> {
  return prisma.verificationRun.count({ where: { finishedAt: { gte: since, ...(until ? { lt: until } : {}) } } });
}

/**
 * `findLatestResults` for many vanpools in one query over pg (a sweep page's first emails, a
 * retried page's stored verdicts): the newest result of each check per vanpool.
 */
export async function findLatestResultsOf(pool: pg.Pool, vanpoolIds: string[]): Promise<Map<string, LatestResults>> {
  const latest = new Map<string, LatestResults>();
  if (vanpoolIds.length === 0) return latest;
  const { rows } = await pool.query<{
    vanpool_id: string;
    check: CheckKind;
    verdict: Verdict;
    confidence: number;
    reasoning: string;
    evidence: SpecialistResult["evidence"];
    flagged: string[];
    model: string;
    run_id: string;
    policy: Record<string, number>;
    finished_at: string;
    as_of: string;
  }>(
    `SELECT DISTINCT ON (r.vanpool_id, s."check") r.vanpool_id, s."check", s.verdict, s.confidence, s.reasoning,
            s.evidence, s.flagged, s.model, s.run_id, r.policy, to_char(r.finished_at, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
            AS finished_at, r.as_of
       FROM verification_runs r JOIN specialist_results s ON s.run_id = r.id
      WHERE r.vanpool_id = ANY($1::text[])
      ORDER BY r.vanpool_id, s."check", r.finished_at DESC, r.seq DESC`,
    [vanpoolIds],
  );
  for (const { vanpool_id, finished_at, ...result } of rows) {
    const results = latest.get(vanpool_id) ?? {};
    results[result.check] = { ...result, finished_at: new Date(finished_at) };
    latest.set(vanpool_id, results);
  }
  return latest;
}
