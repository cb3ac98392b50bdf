// Read-only views of pg-boss's tables (schema `pgboss`) for `poolpatrol jobs`.
import type pg from "pg";

/** The schema pg-boss keeps its tables in, on the app's own database. */
export const JOB_SCHEMA = "pgboss";

export interface QueueCounts {
  queue: string;
  counts: Record<string, number>;
}

export interface FailedJob {
  id: string;
  queue: string;
  data: Record<string, unknown>;
  error: string;
  retries: number;
  failedAt: Date | null;
}

export async function jobCountsByQueue(pool: pg.Pool, schema: string): Promise<QueueCounts[]> {
  const { rows } = await pool.query<{ queue: string; state: string; n: string }>(
    `SELECT q.name AS queue, j.state::text AS state, count(j.id)::text AS n
       FROM ${schema}.queue q LEFT JOIN ${schema}.job j ON j.name = q.name
      GROUP BY q.name, j.state ORDER BY q.name`,
  );
  const byQueue = new Map<string, Record<string, number>>();
  for (const row of rows) {
    const counts = byQueue.get(row.queue) ?? {};
    if (row.state) counts[row.state] = Number(row.n);
    byQueue.set(row.queue, counts);
  }
  return [...byQueue].map(([queue, counts]) => ({ queue, counts }));
}

export async function failedJobs(pool: pg.Pool, schema: string, limit = 20): Promise<FailedJob[]> {
  const { rows } = await pool.query<{
    id: string;
    name: string;
    data: Record<string, unknown> | null;
    output: { message?: string } | null;
    retry_count: number;
    completed_on: Date | null;
  }>(
    `SELECT id, name, data, output, retry_count, completed_on FROM ${schema}.job
      WHERE state = 'failed' ORDER BY completed_on DESC NULLS LAST LIMIT $1`,
    [limit],
  );
  return rows.map((r) => ({
    id: r.id,
    queue: r.name,
    data: r.data ?? {},
    error: r.output?.message ?? JSON.stringify(r.output ?? {}),
    retries: r.retry_count,
    failedAt: r.completed_on,
  }));
}

export async function queueOfJob(pool: pg.Pool, schema: string, jobId: string): Promise<string | undefined> {
  const { rows } = await pool.query<{ name: string }>(`SELECT name FROM ${schema}.job WHERE id = $1::uuid`, [jobId]);
  return rows[0]?.name;
}

/** False until the job engine has first started on this database (it creates its schema then). */
export async function jobTablesExist(pool: pg.Pool, schema: string): Promise<boolean> {
  const { rows } = await pool.query<{ found: string | null }>("SELECT to_regclass($1)::text AS found", [
    `${schema}.job`,
  ]);
  return rows[0]?.found != null;
}
