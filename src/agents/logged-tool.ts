// Every tool call an agent makes becomes a line in its run log: name, arguments,
// duration, and a short result (seed 002's AgentRunLog).
import type { RunnableConfig } from "@langchain/core/runnables";
import { logAgentRun } from "../data/agent-run-repository.js";
import type { PrismaClient } from "../data/prisma.js";

export function agentRunIdOf(config: RunnableConfig | undefined): string {
  const id = config?.configurable?.agent_run_id;
  if (typeof id !== "string") throw new Error("Tool called outside an agent run (no agent_run_id in config).");
  return id;
}

export function logged<I, O>(prisma: PrismaClient, name: string, fn: (input: I, config: RunnableConfig) => Promise<O>) {
  return async (input: I, config: RunnableConfig): Promise<string> => {
    const runId = agentRunIdOf(config);
    const started = performance.now();
    try {
      const output = await fn(input, config);
      const text = typeof output === "string" ? output : JSON.stringify(output);
      await logAgentRun(prisma, runId, {
        kind: "tool_call",
        message: name,
        data: { tool: name, args: input as Record<string, unknown>, result: text.slice(0, 500) },
        durationMs: Math.round(performance.now() - started),
      });
      return text;
    } catch (error) {
      await logAgentRun(prisma, runId, {
        kind: "tool_call",
        level: "error",
        message: name,
        data: { tool: name, args: input as Record<string, unknown>, error: (error as Error).message },
        durationMs: Math.round(performance.now() - started),
      });
      // The model sees the refusal and can choose another step; nothing half-done is hidden.
      return JSON.stringify({ error: (error as Error).message });
    }
  };
}
