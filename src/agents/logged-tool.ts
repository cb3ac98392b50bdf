// Every tool call an agent makes becomes a line in its run log: name, arguments,
// duration, and a short result (seed 002's AgentRunLog).
import type { RunnableConfig } from "@langchain/core/runnables";
import { toolErrorMiddleware } from "langchain";
import { logAgentRun } from "../data/agent-run-repository.js";
import type { PrismaClient } from "../data/prisma.js";
import { LifecycleError } from "../domain/case-lifecycle.js";
import { AppError } from "../errors.js";

export function agentRunIdOf(config: RunnableConfig | undefined): string {
  const id = config?.configurable?.agent_run_id;
  if (typeof id !== "string") throw new Error("Tool called outside an agent run (no agent_run_id in config).");
  return id;
}

/**
 * A tool that changes state failed for a reason other than a refusal (the database dropped out, a bug): what it did
 * is unknown, so its agent's run ends here instead of going on as if it had worked (an angry reply whose
 * classification was never stored must not be re-audited as an acknowledgment). The task is read again later.
 */
export class ToolFailedError extends Error {
  constructor(tool: string, cause: unknown) {
    super(`${tool} failed: ${(cause as Error).message}`, { cause });
    this.name = "ToolFailedError";
  }
}

/** Whether an error, or an error it wraps, is a failed state-changing tool. */
export function isToolFailure(error: unknown): boolean {
  for (let e = error; e instanceof Error; e = e.cause) if (e instanceof ToolFailedError) return true;
  return false;
}

/** A step the tool refused (bad arguments, a transition the lifecycle forbids): nothing changed, the model may retry. */
const isRefusal = (error: unknown) => error instanceof AppError || error instanceof LifecycleError;

/** In an agent's middleware: a failed state-changing tool ends the run; any other tool error goes to the model. */
export const endRunOnToolFailure = toolErrorMiddleware({
  onError: (error) => (isToolFailure(error) ? undefined : `${error}\n Please fix your mistakes.`),
});

export function logged<I, O>(
  prisma: PrismaClient,
  name: string,
  fn: (input: I, config: RunnableConfig) => Promise<O>,
  options: { changesState?: boolean } = {},
) {
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
      }).catch(() => undefined);
      if (options.changesState && !isRefusal(error)) throw new ToolFailedError(name, error);
      // The model sees the refusal and can choose another step; nothing half-done is hidden.
      return JSON.stringify({ error: (error as Error).message });
    }
  };
}
