// LangGraph checkpoint threads (schema `langgraph`) read for retention: PostgresSaver
// has no TTL of its own.
import type pg from "pg";

/**
 * Checkpoint threads of cases closed before `closedBefore` (the case and outreach threads, and their
 * rules fallbacks), leaving any thread an approval is still waiting on.
 */
export async function expiredCaseThreads(pool: pg.Pool, closedBefore: Date, limit = 500): Promise<string[]> {
  const { rows } = await pool.query<{ thread_id: string }>(
    `SELECT DISTINCT t.thread_id
       FROM langgraph.checkpoints t
       JOIN public.cases k ON t.thread_id LIKE 'case:' || k.id || '%' OR t.thread_id LIKE 'outreach:' || k.id || '%'
      WHERE k.status IN ('resolved', 'cancelled') AND k.resolved_at < $1
        AND NOT EXISTS (
          SELECT 1 FROM public.approval_requests a WHERE a.graph_thread_id = t.thread_id AND a.status = 'pending'
        )
      LIMIT $2`,
    [closedBefore, limit],
  );
  return rows.map((r) => r.thread_id);
}
