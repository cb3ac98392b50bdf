// Agent runs and their log lines (seed 002's AgentRun / AgentRunLog).
import type pg from "pg";
import { ORPHANED_RUNS_SQL } from "./instance-repository.js";
import type { Prisma, PrismaClient } from "./prisma.js";

export interface AgentRunLogLine {
  kind: "tool_call" | "model_call" | "note" | "error" | "fallback";
  message: string;
  level?: "info" | "warn" | "error";
  data?: Record<string, unknown>;
  durationMs?: number;
}

export async function startAgentRun(
  prisma: PrismaClient,
  input: {
    agent: string;
    model: string;
    caseId?: string | null;
    vanpoolId?: string | null;
    input: unknown;
    now: Date;
    /** The job engine instance running it: if that process dies, the run is failed at once. */
    instanceId?: string;
  },
): Promise<string> {
  return prisma.$transaction(async (tx) => {
    const row = await tx.agentRun.create({
      data: {
        agent: input.agent,
        model: input.model,
        caseId: input.caseId ?? null,
        vanpoolId: input.vanpoolId ?? null,
        input: input.input as Prisma.InputJsonValue,
        startedAt: input.now,
      },
    });
    if (input.instanceId)
      await tx.workLease.create({
        data: { key: `run:${row.id}`, holder: input.instanceId, expiresAt: new Date(Date.now() + 7 * 86_400_000) },
      });
    return row.id;
  });
}

export async function logAgentRun(prisma: PrismaClient, runId: string, line: AgentRunLogLine): Promise<void> {
  await prisma.agentRunLog.create({
    data: {
      runId,
      kind: line.kind,
      message: line.message,
      level: line.level ?? "info",
      data: line.data as Prisma.InputJsonValue | undefined,
      durationMs: line.durationMs ?? null,
    },
  });
}

export async function finishAgentRun(
  prisma: PrismaClient,
  runId: string,
  result: {
    status: "succeeded" | "failed" | "interrupted";
    output?: unknown;
    error?: string;
    tokensIn?: number;
    tokensOut?: number;
    now: Date;
  },
): Promise<void> {
  await prisma.$transaction([
    prisma.agentRun.update({
      where: { id: runId },
      data: {
        status: result.status,
        output: result.output as Prisma.InputJsonValue | undefined,
        error: result.error ?? null,
        tokensIn: result.tokensIn ?? null,
        tokensOut: result.tokensOut ?? null,
        finishedAt: result.now,
      },
    }),
    prisma.workLease.deleteMany({ where: { key: `run:${runId}` } }),
  ]);
}

export async function toolCallsOfRun(prisma: PrismaClient, runIds: string[]): Promise<string[]> {
  const rows = await prisma.agentRunLog.findMany({
    where: { runId: { in: runIds }, kind: "tool_call" },
    orderBy: { id: "asc" },
  });
  return rows.map((r) => r.message);
}

/** A run to start in bulk: its id is chosen by the caller, so the rows written with it can name it. */
export interface NewAgentRun {
  id: string;
  agent: string;
  model: string;
  caseId: string;
  vanpoolId: string;
  input: unknown;
}

/**
 * `startAgentRun` for many runs in two statements (a sweep page's first emails), marked with the
 * job engine instance running them; `client` is a connection inside a transaction.
 */
export async function startAgentRunsIn(
  client: pg.PoolClient,
  runs: NewAgentRun[],
  input: { instanceId?: string; now: Date },
): Promise<void> {
  if (runs.length === 0) return;
  await client.query(
    `INSERT INTO agent_runs (id, agent, model, case_id, vanpool_id, input, started_at)
     SELECT r.id, r.agent, r.model, r."caseId", r."vanpoolId", r.input, $2::timestamptz AT TIME ZONE 'UTC'
       FROM jsonb_to_recordset($1::jsonb) AS r(id text, agent text, model text, "caseId" text, "vanpoolId" text, input jsonb)`,
    [JSON.stringify(runs), input.now.toISOString()],
  );
  if (input.instanceId)
    await client.query(
      `INSERT INTO work_leases (key, holder, expires_at)
       SELECT 'run:' || id, $2, now() + interval '7 days' FROM unnest($1::text[]) AS id`,
      [runs.map((r) => r.id), input.instanceId],
    );
}

export interface FinishedAgentRun {
  id: string;
  status: "succeeded" | "failed";
  output: unknown;
  error: string | null;
  logs: AgentRunLogLine[];
}

/** `finishAgentRun` (with the runs' log lines) for many runs in three statements, inside a transaction. */
export async function finishAgentRunsIn(client: pg.PoolClient, runs: FinishedAgentRun[], now: Date): Promise<void> {
  if (runs.length === 0) return;
  await client.query(
    `UPDATE agent_runs a SET status = r.status::"AgentRunStatus", output = r.output, error = r.error,
            finished_at = $2::timestamptz AT TIME ZONE 'UTC'
       FROM jsonb_to_recordset($1::jsonb) AS r(id text, status text, output jsonb, error text)
      WHERE a.id = r.id`,
    [JSON.stringify(runs.map(({ logs: _, ...run }) => run)), now.toISOString()],
  );
  const logs = runs.flatMap((run) =>
    run.logs.map((line) => ({
      run_id: run.id,
      kind: line.kind,
      message: line.message,
      level: line.level ?? "info",
      data: line.data ?? null,
      duration_ms: line.durationMs ?? null,
    })),
  );
  if (logs.length > 0)
    await client.query(
      `INSERT INTO agent_run_logs (run_id, level, kind, message, data, duration_ms)
       SELECT l.run_id, l.level, l.kind, l.message, l.data, l.duration_ms
         FROM jsonb_to_recordset($1::jsonb) AS l(run_id text, level text, kind text, message text, data jsonb, duration_ms int)`,
      [JSON.stringify(logs)],
    );
  await client.query(`DELETE FROM work_leases WHERE key = ANY($1::text[])`, [runs.map((r) => `run:${r.id}`)]);
}

const ABANDONED = "The process running this agent stopped before it finished.";

/**
 * Runs a crashed process left `running`: those marked by a job engine instance that stopped
 * beating, and unmarked ones that started before `cutoff`. Marked failed, returned.
 */
export async function failAbandonedRuns(
  prisma: PrismaClient,
  input: { cutoff: Date; now: Date },
): Promise<{ id: string; caseId: string | null; vanpoolId: string | null }[]> {
  const orphaned = await prisma.$queryRawUnsafe<{ id: string; caseId: string | null; vanpoolId: string | null }[]>(
    ORPHANED_RUNS_SQL,
    ABANDONED,
    input.now,
  );
  const stale = await prisma.agentRun.findMany({
    where: { status: "running", startedAt: { lt: input.cutoff } },
    select: { id: true, caseId: true, vanpoolId: true },
  });
  await prisma.agentRun.updateMany({
    where: { id: { in: stale.map((r) => r.id) }, status: "running" },
    data: { status: "failed", error: ABANDONED, finishedAt: input.now },
  });
  return [...orphaned, ...stale];
}
