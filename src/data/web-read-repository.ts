// What the web pages read that the API's repositories do not: the dashboard's filtered, searched page
// of vanpools with their latest verdicts, and the choices its filters offer. A fixed number of
// queries per page over pg, never one per row.
import type pg from "pg";
import { type CaseStatus, CLOSED_STATUSES } from "../domain/case-lifecycle.js";
import type { AuditEventRecord } from "./audit-log.js";

export interface DashboardFilter {
  /** A work site, exactly. */
  site?: string;
  /** `flagged`: an open case. */
  status?: "active" | "inactive" | "flagged";
  /** The latest result of this check fails. */
  failing?: "location" | "shift";
  caseStatus?: CaseStatus;
  /** Part of the vanpool's id or name, any case. */
  search?: string;
}

export interface DashboardRow {
  vanpool_id: string;
  name: string | null;
  status: "active" | "inactive";
  work_site: string;
  rider_count: number;
  capacity: number;
  /** The newest case: open when the vanpool is flagged. */
  newest_case: { case_id: string; status: CaseStatus } | null;
  location: string | null;
  shift: string | null;
}

const LATEST_VERDICT = (check: "location" | "shift") =>
  `(SELECT sr.verdict::text FROM verification_runs r JOIN specialist_results sr ON sr.run_id = r.id AND sr."check" = '${check}'
     WHERE r.vanpool_id = v.id ORDER BY r.finished_at DESC, r.seq DESC LIMIT 1)`;

// The closed statuses as SQL (constants of the lifecycle, not input).
const CLOSED = `(${CLOSED_STATUSES.map((s) => `'${s}'`).join(", ")})`;

function whereOf(filter: DashboardFilter): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const conditions: string[] = [];
  const add = (sql: (n: string) => string, value: unknown) => {
    params.push(value);
    conditions.push(sql(`$${params.length}`));
  };
  if (filter.site) add((n) => `v.work_site = ${n}`, filter.site);
  if (filter.status === "flagged") conditions.push(`c.status::text NOT IN ${CLOSED}`);
  else if (filter.status) add((n) => `v.status::text = ${n}`, filter.status);
  if (filter.caseStatus) add((n) => `c.status::text = ${n}`, filter.caseStatus);
  if (filter.failing) conditions.push(`${LATEST_VERDICT(filter.failing)} = 'fail'`);
  if (filter.search)
    add(
      (n) => `(v.id ILIKE ${n} OR coalesce(v.name, '') ILIKE ${n})`,
      `%${filter.search.replace(/[\\%_]/g, (m) => `\\${m}`)}%`,
    );
  return { sql: conditions.length ? `WHERE ${conditions.join(" AND ")}` : "", params };
}

// The newest case of each vanpool: open when the vanpool has an open case (one at a time), else its last
// closed one. One pass over the cases joined by hash, not one lookup per vanpool.
const CASE_JOIN = `LEFT JOIN (SELECT DISTINCT ON (vanpool_id) vanpool_id, id, status FROM cases
                              ORDER BY vanpool_id, created_at DESC) c ON c.vanpool_id = v.id`;

/** One page of the dashboard (flagged first, then by id) and how many vanpools match in all. */
export async function listDashboardVanpools(
  pool: pg.Pool,
  filter: DashboardFilter,
  page: { offset: number; limit: number },
): Promise<{ rows: DashboardRow[]; total: number }> {
  const { sql: where, params } = whereOf(filter);
  const [counted, listed] = await Promise.all([
    // Counting needs the cases only when a filter reads them.
    pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM vanpools v ${filter.status === "flagged" || filter.caseStatus ? CASE_JOIN : ""} ${where}`,
      params,
    ),
    pool.query<{
      id: string;
      name: string | null;
      status: "active" | "inactive";
      work_site: string;
      capacity: number;
      rider_count: number;
      case_id: string | null;
      case_status: CaseStatus | null;
      location: string | null;
      shift: string | null;
    }>(
      `SELECT v.id, v.name, v.status::text AS status, v.work_site, v.capacity,
              (SELECT count(*)::int FROM riders r WHERE r.vanpool_id = v.id AND r.status = 'active') AS rider_count,
              c.id AS case_id, c.status::text AS case_status,
              ${LATEST_VERDICT("location")} AS location, ${LATEST_VERDICT("shift")} AS shift
         FROM vanpools v ${CASE_JOIN} ${where}
        ORDER BY (c.status IS NULL OR c.status::text IN ${CLOSED}), v.id
        LIMIT ${Math.trunc(page.limit)} OFFSET ${Math.trunc(page.offset)}`,
      params,
    ),
  ]);
  return {
    total: counted.rows[0]?.n ?? 0,
    rows: listed.rows.map((r) => ({
      vanpool_id: r.id,
      name: r.name,
      status: r.status,
      work_site: r.work_site,
      capacity: r.capacity,
      rider_count: r.rider_count,
      newest_case: r.case_id ? { case_id: r.case_id, status: r.case_status! } : null,
      location: r.location,
      shift: r.shift,
    })),
  };
}

/** The work sites, for the dashboard's site filter. */
export async function listWorkSites(pool: pg.Pool): Promise<string[]> {
  const { rows } = await pool.query<{ work_site: string }>(
    "SELECT DISTINCT work_site FROM vanpools ORDER BY work_site",
  );
  return rows.map((r) => r.work_site);
}

/**
 * What was recorded about a rider, oldest first: the events of their cases that name them (re-checked,
 * removed, reinstated, kept by an exception). Read through the cases' index, at most 200.
 */
export async function listRiderEvents(
  pool: pg.Pool,
  employeeId: string,
  caseIds: string[],
): Promise<AuditEventRecord[]> {
  if (caseIds.length === 0) return [];
  const { rows } = await pool.query<AuditEventRecord>(
    `SELECT actor, action, subject_type, subject_id, details, created_at AT TIME ZONE 'UTC' AS at
       FROM audit_events
      WHERE subject_type = 'case' AND subject_id = ANY($2::text[]) AND details->>'employee_id' = $1
      ORDER BY id LIMIT 200`,
    [employeeId, caseIds],
  );
  return rows;
}
