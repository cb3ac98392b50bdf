// Agent runs and their log lines (seed 002's AgentRun / AgentRunLog).
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
  input: { agent: string; model: string; caseId?: string | null; vanpoolId?: string | null; input: unknown; now: Date },
): Promise<string> {
  const row = await prisma.agentRun.create({
    data: {
      agent: input.agent,
      model: input.model,
      caseId: input.caseId ?? null,
      vanpoolId: input.vanpoolId ?? null,
      input: input.input as Prisma.InputJsonValue,
      startedAt: input.now,
    },
  });
  return row.id;
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
  await prisma.agentRun.update({
    where: { id: runId },
    data: {
      status: result.status,
      output: result.output as Prisma.InputJsonValue | undefined,
      error: result.error ?? null,
      tokensIn: result.tokensIn ?? null,
      tokensOut: result.tokensOut ?? null,
      finishedAt: result.now,
    },
  });
}

export async function toolCallsOfRun(prisma: PrismaClient, runIds: string[]): Promise<string[]> {
  const rows = await prisma.agentRunLog.findMany({
    where: { runId: { in: runIds }, kind: "tool_call" },
    orderBy: { id: "asc" },
  });
  return rows.map((r) => r.message);
}

/** Runs still `running` that started before `cutoff` belong to a process that died: marked failed, returned. */
export async function failAbandonedRuns(
  prisma: PrismaClient,
  input: { cutoff: Date; now: Date },
): Promise<{ id: string; caseId: string | null; vanpoolId: string | null }[]> {
  const abandoned = await prisma.agentRun.findMany({
    where: { status: "running", startedAt: { lt: input.cutoff } },
    select: { id: true, caseId: true, vanpoolId: true },
  });
  await prisma.agentRun.updateMany({
    where: { id: { in: abandoned.map((r) => r.id) }, status: "running" },
    data: {
      status: "failed",
      error: "The process running this agent stopped before it finished.",
      finishedAt: input.now,
    },
  });
  return abandoned;
}
