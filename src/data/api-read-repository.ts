// The REST API's lists: one page at a time in keyset order (a cursor is the last row's key), each a
// fixed handful of queries over pg, never one per row.

import type pg from "pg";
import { type CaseStatus, CLOSED_STATUSES } from "../domain/case-lifecycle.js";
import type { CheckKind } from "../domain/specialist-result.js";
import type { AuditEventRecord } from "./audit-log.js";
import { type CaseRecord, toCaseRecord } from "./case-repository.js";
import type { PrismaClient } from "./prisma.js";
import type { StoredResult } from "./verification-repository.js";

export interface VanpoolSummary {
  vanpool_id: string;
  name: string | null;
  status: "active" | "inactive";
  work_site: string;
  capacity: number;
  rider_count: number;
  open_case: { case_id: string; status: CaseStatus } | null;
}

/** Vanpools by id after `afterId`; `flagged`: those with an open case. */
export async function listVanpoolSummaries(
  pool: pg.Pool,
  query: { status?: "active" | "inactive" | "flagged"; workSite?: string; afterId?: string; limit: number },
): Promise<VanpoolSummary[]> {
  const riderCount = `(SELECT count(*)::int FROM riders r WHERE r.vanpool_id = v.id AND r.status = 'active') AS rider_count`;
  // Flagged: read through the index of open cases (cases_one_open_per_vanpool: at most one a vanpool) in
  // vanpool order, stopping at the page's end. The predicate is the index's own, spelled as constants (a
  // parameter would hide it from the planner); named, so each connection plans it once.
  const [sql, params]: [string | pg.QueryConfig, unknown[]] =
    query.status === "flagged"
      ? [
          {
            name: "api-vanpools-flagged",
            text: `SELECT v.id, v.name, v.status::text AS status, v.work_site, v.capacity, ${riderCount},
                          c.id AS case_id, c.status::text AS case_status
                     FROM cases c JOIN vanpools v ON v.id = c.vanpool_id
                    WHERE c.status NOT IN (${CLOSED_STATUSES.map((s) => `'${s}'`).join(", ")})
                      AND ($1::text IS NULL OR c.vanpool_id > $1)
                      AND ($2::text IS NULL OR v.work_site = $2)
                    ORDER BY c.vanpool_id
                    LIMIT $3`,
          },
          [query.afterId ?? null, query.workSite ?? null, query.limit],
        ]
      : [
          `SELECT v.id, v.name, v.status::text AS status, v.work_site, v.capacity, ${riderCount},
                  c.id AS case_id, c.status::text AS case_status
             FROM vanpools v
             LEFT JOIN LATERAL (SELECT id, status FROM cases WHERE vanpool_id = v.id AND status::text <> ALL($5::text[])
                                ORDER BY created_at DESC LIMIT 1) c ON true
            WHERE ($1::text IS NULL OR v.id > $1)
              AND ($2::text IS NULL OR v.status::text = $2)
              AND ($3::text IS NULL OR v.work_site = $3)
            ORDER BY v.id
            LIMIT $4`,
          [query.afterId ?? null, query.status ?? null, query.workSite ?? null, query.limit, [...CLOSED_STATUSES]],
        ];
  const { rows } = await pool.query<{
    id: string;
    name: string | null;
    status: "active" | "inactive";
    work_site: string;
    capacity: number;
    rider_count: number;
    case_id: string | null;
    case_status: CaseStatus | null;
  }>(sql, params);
  return rows.map((r) => ({
    vanpool_id: r.id,
    name: r.name,
    status: r.status,
    work_site: r.work_site,
    capacity: r.capacity,
    rider_count: r.rider_count,
    open_case: r.case_id ? { case_id: r.case_id, status: r.case_status! } : null,
  }));
}

export interface EmployeeRecord {
  employee_id: string;
  first_name: string;
  last_name: string;
  email: string;
  work_site: string;
  status: string;
  time_type: string;
  home_address: string;
  home_city: string;
  home_state: string;
  home_zip: string;
  home_lat: number | null;
  home_lng: number | null;
  shift_id: string | null;
  vanpool_ids: string[];
}

const EMPLOYEE_COLUMNS = `e.id AS employee_id, e.first_name, e.last_name, e.email, e.work_site, e.status, e.time_type,
  e.home_address, e.home_city, e.home_state, e.home_zip, e.home_lat, e.home_lng, e.shift_id,
  COALESCE((SELECT array_agg(r.vanpool_id ORDER BY r.vanpool_id) FROM riders r
             WHERE r.employee_id = e.id AND r.status = 'active'), '{}') AS vanpool_ids`;

/** Employees by id after `afterId`, filtered by work site, shift or the vanpool they ride. */
export async function listEmployees(
  pool: pg.Pool,
  query: { workSite?: string; shiftId?: string; vanpoolId?: string; afterId?: string; limit: number },
): Promise<EmployeeRecord[]> {
  const { rows } = await pool.query<EmployeeRecord>(
    `SELECT ${EMPLOYEE_COLUMNS} FROM employees e
      WHERE ($1::text IS NULL OR e.id > $1)
        AND ($2::text IS NULL OR e.work_site = $2)
        AND ($3::text IS NULL OR e.shift_id = $3)
        AND ($4::text IS NULL OR EXISTS (SELECT 1 FROM riders r WHERE r.employee_id = e.id AND r.vanpool_id = $4 AND r.status = 'active'))
      ORDER BY e.id LIMIT $5`,
    [query.afterId ?? null, query.workSite ?? null, query.shiftId ?? null, query.vanpoolId ?? null, query.limit],
  );
  return rows;
}

export async function findEmployees(pool: pg.Pool, ids: string[]): Promise<EmployeeRecord[]> {
  if (ids.length === 0) return [];
  const { rows } = await pool.query<EmployeeRecord>(
    `SELECT ${EMPLOYEE_COLUMNS} FROM employees e WHERE e.id = ANY($1::text[]) ORDER BY e.id`,
    [ids],
  );
  return rows;
}

/** Employee ids by email address (lower case), for naming who wrote or was written to. */
export async function employeeIdsByEmail(pool: pg.Pool, emails: string[]): Promise<Map<string, string>> {
  if (emails.length === 0) return new Map();
  const { rows } = await pool.query<{ id: string; email: string }>(
    "SELECT id, lower(email) AS email FROM employees WHERE lower(email) = ANY($1::text[])",
    [emails.map((e) => e.toLowerCase())],
  );
  return new Map(rows.map((r) => [r.email, r.id]));
}

/** Cases newest first (by creation, then id), after the cursor's case. */
export async function listCasesPage(
  prisma: PrismaClient,
  query: { status?: CaseStatus; vanpoolId?: string; after?: { at: Date; id: string }; limit: number },
): Promise<CaseRecord[]> {
  const rows = await prisma.case.findMany({
    where: {
      ...(query.status ? { status: query.status } : {}),
      ...(query.vanpoolId ? { vanpoolId: query.vanpoolId } : {}),
      ...(query.after
        ? {
            OR: [{ createdAt: { lt: query.after.at } }, { createdAt: query.after.at, id: { lt: query.after.id } }],
          }
        : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: query.limit,
  });
  return rows.map(toCaseRecord);
}

export interface ThreadSummary {
  thread_id: string;
  case_id: string;
  vanpool_id: string;
  subject: string;
  status: string;
  message_count: number;
  created_at: Date;
}

/** Email threads by id after `afterId`, of one case or vanpool when asked. */
export async function listThreads(
  prisma: PrismaClient,
  query: { caseId?: string; vanpoolId?: string; afterId?: string; limit: number },
): Promise<ThreadSummary[]> {
  const rows = await prisma.emailThread.findMany({
    where: {
      ...(query.caseId ? { caseId: query.caseId } : {}),
      ...(query.vanpoolId ? { vanpoolId: query.vanpoolId } : {}),
      ...(query.afterId ? { id: { gt: query.afterId } } : {}),
    },
    orderBy: { id: "asc" },
    take: query.limit,
    include: { _count: { select: { messages: true } } },
  });
  return rows.map((t) => ({
    thread_id: t.id,
    case_id: t.caseId,
    vanpool_id: t.vanpoolId,
    subject: t.subject,
    status: t.status,
    message_count: t._count.messages,
    created_at: t.createdAt,
  }));
}

/** The audit log, oldest first after event `afterId`, of one subject or actor when asked. */
export async function listAuditEvents(
  prisma: PrismaClient,
  query: { subjectId?: string; actor?: string; afterId?: bigint; limit: number },
): Promise<(AuditEventRecord & { id: string })[]> {
  const rows = await prisma.auditEvent.findMany({
    where: {
      ...(query.subjectId ? { subjectId: query.subjectId } : {}),
      ...(query.actor ? { actor: query.actor } : {}),
      ...(query.afterId !== undefined ? { id: { gt: query.afterId } } : {}),
    },
    orderBy: { id: "asc" },
    take: query.limit,
  });
  return rows.map((r) => ({
    id: r.id.toString(),
    actor: r.actor,
    action: r.action,
    subject_type: r.subjectType,
    subject_id: r.subjectId,
    details: r.details as Record<string, unknown>,
    at: r.createdAt,
  }));
}

/** Outbound emails that failed for good (their send job gave up), and the last finished sweep. */
export async function emailAndSweepFigures(pool: pg.Pool): Promise<{
  failedEmails: number;
  lastSweep: { startedAt: Date; finishedAt: Date } | null;
}> {
  const [emails, sweep] = await Promise.all([
    pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM messages WHERE direction = 'outbound' AND status = 'failed'",
    ),
    pool.query<{ started_at: Date; finished_at: Date }>(
      "SELECT started_at, finished_at FROM sweeps WHERE finished_at IS NOT NULL ORDER BY finished_at DESC LIMIT 1",
    ),
  ]);
  const last = sweep.rows[0];
  return {
    failedEmails: emails.rows[0]?.n ?? 0,
    lastSweep: last ? { startedAt: last.started_at, finishedAt: last.finished_at } : null,
  };
}

export type CheckResultRecord = Pick<
  StoredResult,
  "check" | "verdict" | "confidence" | "reasoning" | "evidence" | "flagged" | "model" | "finished_at"
>;

export interface CaseDetail {
  record: CaseRecord;
  /** The latest result of each check the case stands on, as `caseEvidenceOf` reads it. */
  evidence: Partial<Record<CheckKind, CheckResultRecord>>;
  events: AuditEventRecord[];
  /** The van's work site and pickup addresses: places, shown as they are. */
  places: (string | null)[];
}

// Timestamps are stored as UTC in columns without a time zone: read and compared as UTC whatever the process's zone.
const utc = (column: string, as: string) => `${column} AT TIME ZONE 'UTC' AS "${as}"`;

// A timestamp as epoch milliseconds inside JSON (stored as UTC in columns without a time zone).
const epochMs = (column: string) => `floor(extract(epoch FROM ${column}) * 1000)::float8`;

/** A case with its evidence, timeline and van's places, over pg in one query (the API's most read resource). */
export async function findCaseDetail(pool: pg.Pool, caseId: string): Promise<CaseDetail | undefined> {
  // One round trip: the evidence (the latest result of each check, as `caseEvidenceOf` reads it) and the
  // timeline ride along as JSON. Named: each connection prepares it once (the same text parsed and planned
  // on every request was half the database's time).
  const { rows } = await pool.query<
    Parameters<typeof toCaseRecord>[0] & {
      workSiteAddress: string;
      pickupAddress: string | null;
      evidence: (Omit<CheckResultRecord, "finished_at"> & { finished_at: number })[];
      events: (Omit<AuditEventRecord, "at"> & { at: number })[];
    }
  >({
    name: "api-case",
    text: `SELECT c.id, c.vanpool_id AS "vanpoolId", c.status::text AS status, c.reason::text AS reason,
            c.failed_checks AS "failedChecks", c.meta, c.outcome::text AS outcome, c.re_audit_count AS "reAuditCount",
            ${utc("c.last_outbound_at", "lastOutboundAt")}, ${utc("c.reply_extended_until", "replyExtendedUntil")},
            ${utc("c.created_at", "createdAt")}, ${utc("c.updated_at", "updatedAt")}, ${utc("c.resolved_at", "resolvedAt")},
            v.work_site_address AS "workSiteAddress", v.pickup_address AS "pickupAddress",
            (SELECT COALESCE(json_agg(latest), '[]') FROM (
               SELECT DISTINCT ON (sr."check") sr."check"::text AS "check", sr.verdict::text AS verdict, sr.confidence,
                      sr.reasoning, sr.evidence, sr.flagged, sr.model, ${epochMs("r.finished_at")} AS finished_at
                 FROM specialist_results sr JOIN verification_runs r ON r.id = sr.run_id
                WHERE r.vanpool_id = c.vanpool_id
                  AND (r.case_id = c.id OR (r.case_id IS NULL AND (c.resolved_at IS NULL OR r.finished_at <= c.resolved_at)))
                ORDER BY sr."check", r.finished_at DESC, r.seq DESC) latest) AS evidence,
            (SELECT COALESCE(json_agg(json_build_object('actor', a.actor, 'action', a.action, 'subject_type', a.subject_type,
                      'subject_id', a.subject_id, 'details', a.details, 'at', ${epochMs("a.created_at")}) ORDER BY a.id), '[]')
               FROM audit_events a WHERE a.subject_id = c.id) AS events
       FROM cases c JOIN vanpools v ON v.id = c.vanpool_id WHERE c.id = $1`,
    values: [caseId],
  });
  const row = rows[0];
  if (!row) return undefined;
  return {
    record: toCaseRecord(row),
    evidence: Object.fromEntries(row.evidence.map((r) => [r.check, { ...r, finished_at: new Date(r.finished_at) }])),
    events: row.events.map((e) => ({ ...e, at: new Date(e.at) })),
    places: [row.workSiteAddress, row.pickupAddress],
  };
}
