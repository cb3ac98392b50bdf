// Which process is doing what. Every job engine keeps a heartbeat lease `instance:<id>`
// fresh, and marks the jobs (`job:<queue>:<id>`) and agent runs (`run:<id>`) it works on
// with a row naming it. A mark whose instance stopped beating belongs to a process that
// crashed: its work can be taken back at once instead of waiting for a job's expiry.
import pg from "pg";

const MARK_TTL = "7 days";

const orphanedWhere = `NOT EXISTS (
  SELECT 1 FROM work_leases i WHERE i.key = 'instance:' || c.holder AND i.expires_at > now())`;

export interface InstanceRegistry {
  beat(instanceId: string, ttlMs: number): Promise<void>;
  mark(key: string, instanceId: string): Promise<void>;
  unmark(key: string, instanceId: string): Promise<void>;
  /** Takes (deletes) the marks under `prefix` left by instances that stopped; returns their keys. */
  takeOrphans(prefix: string): Promise<string[]>;
  /**
   * Jobs active longer than `graceMs` that no instance marked: taken by a worker that died between
   * picking the job and marking it. Returned as `job:<queue>:<id>` keys.
   */
  unmarkedActiveJobs(schema: string, graceMs: number): Promise<string[]>;
  /** A stopped instance says so at once, so nothing it marked waits for its heartbeat to lapse. */
  leave(instanceId: string): Promise<void>;
  close(): Promise<void>;
}

/** On `target`'s pool (the job engine's), or on a pool of its own for a database URL. */
export function createInstanceRegistry(target: string | pg.Pool): InstanceRegistry {
  const owned = typeof target === "string";
  const pool = owned ? new pg.Pool({ connectionString: target, max: 2 }) : target;
  if (owned) pool.on("error", () => {});
  return {
    async beat(instanceId, ttlMs) {
      await pool.query(
        `INSERT INTO work_leases (key, holder, expires_at) VALUES ($1, $2, now() + $3 * interval '1 millisecond')
         ON CONFLICT (key) DO UPDATE SET expires_at = EXCLUDED.expires_at`,
        [`instance:${instanceId}`, instanceId, ttlMs],
      );
    },
    async mark(key, instanceId) {
      await pool.query(
        `INSERT INTO work_leases (key, holder, expires_at) VALUES ($1, $2, now() + interval '${MARK_TTL}')
         ON CONFLICT (key) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at`,
        [key, instanceId],
      );
    },
    async unmark(key, instanceId) {
      await pool.query(`DELETE FROM work_leases WHERE key = $1 AND holder = $2`, [key, instanceId]);
    },
    async takeOrphans(prefix) {
      const { rows } = await pool.query<{ key: string }>(
        `DELETE FROM work_leases c WHERE c.key LIKE $1 || '%' AND ${orphanedWhere} RETURNING c.key`,
        [prefix],
      );
      return rows.map((r) => r.key);
    },
    async unmarkedActiveJobs(schema, graceMs) {
      const { rows } = await pool.query<{ key: string }>(
        `SELECT 'job:' || j.name || ':' || j.id AS key FROM ${schema}.job j
          WHERE j.state = 'active' AND j.started_on < now() - $1 * interval '1 millisecond'
            AND NOT EXISTS (SELECT 1 FROM work_leases c WHERE c.key = 'job:' || j.name || ':' || j.id)`,
        [graceMs],
      );
      return rows.map((r) => r.key);
    },
    async leave(instanceId) {
      await pool.query(`DELETE FROM work_leases WHERE key = $1`, [`instance:${instanceId}`]);
    },
    close: async () => {
      if (owned) await pool.end();
    },
  };
}

/** Agent runs marked by an instance that stopped (see instance-repository) are failed; returned. */
export const ORPHANED_RUNS_SQL = `
  WITH orphans AS (
    DELETE FROM work_leases c WHERE c.key LIKE 'run:%' AND ${orphanedWhere} RETURNING substr(c.key, 5) AS run_id
  )
  UPDATE agent_runs r SET status = 'failed', error = $1, finished_at = $2
    FROM orphans o WHERE r.id = o.run_id AND r.status = 'running'
  RETURNING r.id, r.case_id AS "caseId", r.vanpool_id AS "vanpoolId"`;
