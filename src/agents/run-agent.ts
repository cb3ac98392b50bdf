// Runs one agent turn (a new task, or the resumption of an interrupt) as a recorded
// AgentRun, detached from any agent that called it: an interrupt inside belongs to
// this agent's own thread, never to its caller's.
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
}

export async function runAgentTurn(deps: AgentDeps, input: AgentTurnInput): Promise<AgentTurn> {
  const agentRunId = await startAgentRun(deps.prisma, {
    agent: input.agentName, model: input.model.name, caseId: input.caseId, vanpoolId: input.vanpoolId, now: deps.now(),
    input: { prompt_version: input.promptVersion, ...(input.task ?? { resume: input.resume }) },
  });
  const controller = new AbortController();
  const config = { signal: controller.signal, configurable: { thread_id: input.threadId, agent_run_id: agentRunId }, metadata: { agent: input.agentName, model: input.model.name, prompt_version: input.promptVersion, case_id: input.caseId ?? null, vanpool_id: input.vanpoolId ?? null }, recursionLimit: 40 };
  const payload = input.resume ? new Command({ resume: input.resume }) : { messages: [{ role: "user", content: JSON.stringify(input.task) }] };
  try {
    const invocation = AsyncLocalStorageProviderSingleton.getInstance().run(undefined, () => input.agent.invoke(payload as never, config));
    const result = (await (input.model.isRules ? invocation : withTimeout(invocation, deps.settings.modelTimeoutMs, `${input.agentName} (${input.model.name})`, controller))) as {
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
    await finishAgentRun(deps.prisma, agentRunId, { status: interrupt ? "interrupted" : "succeeded", output: { final: turn.finalText, interrupt: turn.interrupt ?? null }, now: deps.now() });
    return turn;
  } catch (error) {
    await logAgentRun(deps.prisma, agentRunId, { kind: "error", level: "error", message: (error as Error).message });
    await finishAgentRun(deps.prisma, agentRunId, { status: "failed", error: (error as Error).message, now: deps.now() });
    throw error;
  }
}

/** The interrupt ids a thread is waiting on right now. */
export async function pendingInterrupts(agent: Agent, threadId: string): Promise<string[]> {
  const state = await agent.graph.getState({ configurable: { thread_id: threadId } });
  return state.tasks.flatMap((t) => t.interrupts.map((i) => i.id ?? ""));
}
