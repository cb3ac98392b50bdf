// LangGraph checkpoint threads (schema `langgraph`) read for retention: PostgresSaver
// has no TTL of its own.
import type pg from "pg";

/**
 * Checkpoint threads done with before `before`: the case and outreach threads (and their rules
 * fallbacks) of cases closed by then, and audit threads last written by then. A thread whose latest
 * checkpoint holds a pending interrupt, or that an approval still waits on, is never among them.
 */
export async function expiredCaseThreads(pool: pg.Pool, before: Date, limit = 500): Promise<string[]> {
  const { rows } = await pool.query<{ thread_id: string }>(
    `WITH threads AS (
       SELECT thread_id, max(checkpoint_id) AS last_id, max((checkpoint->>'ts')::timestamptz) AS last_at
         FROM langgraph.checkpoints WHERE checkpoint_ns = '' GROUP BY thread_id
     )
     SELECT t.thread_id FROM threads t
      WHERE (
          EXISTS (
            SELECT 1 FROM public.cases k
             WHERE k.status IN ('resolved', 'cancelled') AND k.resolved_at < $1
               AND (t.thread_id LIKE 'case:' || k.id || '%' OR t.thread_id LIKE 'outreach:' || k.id || '%'))
          OR (t.thread_id LIKE 'audit:%' AND t.last_at < $1))
        AND NOT EXISTS (
          SELECT 1 FROM langgraph.checkpoint_writes w
           WHERE w.thread_id = t.thread_id AND w.checkpoint_ns = '' AND w.checkpoint_id = t.last_id
             AND w.channel = '__interrupt__')
        AND NOT EXISTS (
          SELECT 1 FROM public.approval_requests a WHERE a.graph_thread_id = t.thread_id AND a.status = 'pending')
      LIMIT $2`,
    [before, limit],
  );
  return rows.map((r) => r.thread_id);
}
