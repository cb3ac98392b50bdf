// Agent runs and their log lines (seed 002's AgentRun / AgentRunLog).
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
