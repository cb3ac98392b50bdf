// Runs one agent turn (a new task, or the resumption of an interrupt) as a recorded
// AgentRun, detached from any agent that called it: an interrupt inside belongs to
// this agent's own thread, never to its caller's.
import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import { AsyncLocalStorageProviderSingleton } from "@langchain/core/singletons";
import { Command } from "@langchain/langgraph";
import type { createAgent } from "langchain";
import { finishAgentRun, logAgentRun, startAgentRun, toolCallsOfRun } from "../data/agent-run-repository.js";
import type { AgentDeps } from "./deps.js";
import type { AgentModel } from "./models/index.js";
import { withTimeout } from "./timeout.js";

type Agent = ReturnType<typeof createAgent>;

export interface AgentTurn {
  agentRunId: string;
  interrupt: { id: string; actionRequests: { name: string; args: Record<string, unknown> }[] } | undefined;
  finalText: string;
  toolCalls: string[];
}

/** An agent graph with what identifies it in runs and traces. */
export interface BuiltAgent {
  agentName: string;
  /** Recorded with the run and in traces, so a result can be tied to the prompt that made it. */
  promptVersion: string;
  agent: Agent;
  model: AgentModel;
}

export interface AgentTurnInput extends BuiltAgent {
  threadId: string;
  caseId?: string | null;
  vanpoolId?: string | null;
  /** A new task (JSON) or the decisions that resume an interrupt. */
  task?: Record<string, unknown>;
  resume?: { decisions: Record<string, unknown>[] };
  /** What a re-audit in this turn is for (a reply, a timeout): it counts once per key, across runs. */
  reAuditKey?: string;
}

export async function runAgentTurn(
  deps: Pick<AgentDeps, "jobs" | "now" | "prisma" | "settings">,
  input: AgentTurnInput,
): Promise<AgentTurn> {
  const agentRunId = await startAgentRun(deps.prisma, {
    agent: input.agentName,
    model: input.model.name,
    caseId: input.caseId,
    vanpoolId: input.vanpoolId,
    now: deps.now(),
    instanceId: deps.jobs?.instanceId,
    input: { prompt_version: input.promptVersion, ...(input.task ?? { resume: input.resume }) },
  });
  const controller = new AbortController();
  const usage = modelUsageRecorder(deps, agentRunId);
  const config = {
    signal: controller.signal,
    callbacks: [usage.handler],
    configurable: { thread_id: input.threadId, agent_run_id: agentRunId, re_audit_key: input.reAuditKey },
    metadata: {
      agent: input.agentName,
      model: input.model.name,
      prompt_version: input.promptVersion,
      case_id: input.caseId ?? null,
      vanpool_id: input.vanpoolId ?? null,
    },
    recursionLimit: 40,
    // Each step's checkpoint is stored before the next step acts: an approval resumes from it, and a
    // failed write then stops the run at that step instead of surfacing later as an unhandled rejection.
    durability: "sync" as const,
  };
  const payload = input.resume
    ? new Command({ resume: input.resume })
    : { messages: [{ role: "user", content: JSON.stringify(input.task) }] };
  try {
    const invocation = AsyncLocalStorageProviderSingleton.getInstance().run(undefined, () =>
      input.agent.invoke(payload as never, config),
    );
    const result = (await (input.model.isRules
      ? invocation
      : withTimeout(
          invocation,
          deps.settings.modelTimeoutMs,
          `${input.agentName} (${input.model.name})`,
          controller,
        ))) as {
      messages: { getType(): string; content: unknown; tool_calls?: { name: string }[] }[];
      __interrupt__?: { id: string; value: { actionRequests: { name: string; args: Record<string, unknown> }[] } }[];
    };
    const interrupt = result.__interrupt__?.[0];
    const last = result.messages.at(-1);
    const turn: AgentTurn = {
      agentRunId,
      interrupt: interrupt ? { id: interrupt.id, actionRequests: interrupt.value.actionRequests } : undefined,
      finalText: !interrupt && last?.getType() === "ai" && typeof last.content === "string" ? last.content : "",
      toolCalls: await toolCallsOfRun(deps.prisma, [agentRunId]),
    };
    await usage.flushed();
    await finishAgentRun(deps.prisma, agentRunId, {
      status: interrupt ? "interrupted" : "succeeded",
      output: { final: turn.finalText, interrupt: turn.interrupt ?? null },
      now: deps.now(),
      ...usage.totals(),
    });
    return turn;
  } catch (error) {
    await logAgentRun(deps.prisma, agentRunId, { kind: "error", level: "error", message: (error as Error).message });
    await usage.flushed();
    await finishAgentRun(deps.prisma, agentRunId, {
      status: "failed",
      error: (error as Error).message,
      now: deps.now(),
      ...usage.totals(),
    });
    throw error;
  }
}

/** The interrupt ids a thread is waiting on right now. */
export async function pendingInterrupts(agent: Agent, threadId: string): Promise<string[]> {
  const state = await agent.graph.getState({ configurable: { thread_id: threadId } });
  return state.tasks.flatMap((t) => t.interrupts.map((i) => i.id ?? ""));
}

/** Logs each model call of a run (duration, tokens when the provider reports them) and adds up the tokens. */
function modelUsageRecorder(deps: Pick<AgentDeps, "prisma">, agentRunId: string) {
  const started = new Map<string, number>();
  const writes: Promise<void>[] = [];
  let tokensIn = 0;
  let tokensOut = 0;
  let reported = false;
  const handler = BaseCallbackHandler.fromMethods({
    handleChatModelStart(_llm, _messages, runId) {
      started.set(runId, performance.now());
    },
    handleLLMEnd(output, runId) {
      const message = (
        output.generations[0]?.[0] as
          | { message?: { usage_metadata?: { input_tokens?: number; output_tokens?: number } } }
          | undefined
      )?.message;
      const used = message?.usage_metadata;
      if (used) {
        reported = true;
        tokensIn += used.input_tokens ?? 0;
        tokensOut += used.output_tokens ?? 0;
      }
      const began = started.get(runId);
      writes.push(
        logAgentRun(deps.prisma, agentRunId, {
          kind: "model_call",
          message: "model call",
          data: used ? { input_tokens: used.input_tokens, output_tokens: used.output_tokens } : undefined,
          durationMs: began === undefined ? undefined : Math.round(performance.now() - began),
        }),
      );
    },
  });
  return {
    handler,
    flushed: () => Promise.all(writes).then(() => undefined),
    totals: () => (reported ? { tokensIn, tokensOut } : {}),
  };
}
