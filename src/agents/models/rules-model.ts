// A deterministic chat model: a policy function reads the conversation (the task
// JSON and the tool results so far) and answers with the next tool calls or a final
// message. It drives the same agent graphs, tools and interrupts as an LLM would,
// offline and reproducibly.

import { randomUUID } from "node:crypto";
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage, type ToolMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";

export interface ToolCallPlan {
  name: string;
  args: Record<string, unknown>;
}

export type RulesPolicy = (turn: Turn) => ToolCallPlan[] | { final: string };

/** The current turn: the last human message (a JSON task) and the tool results after it. */
export interface Turn {
  task: Record<string, unknown>;
  results: { name: string; content: unknown; rejected: boolean }[];
  /** Tool calls made so far in this turn, by name. */
  called: string[];
  /** Earlier turns of the same thread, oldest first: each task, the tool calls made for it and its answer. */
  history?: { task: Record<string, unknown>; calls: ToolCallPlan[]; answer?: string }[];
}

export class RulesChatModel extends BaseChatModel {
  constructor(
    private readonly policy: RulesPolicy,
    private readonly label: string,
  ) {
    super({});
  }

  _llmType(): string {
    return `rules:${this.label}`;
  }

  // Tools are known to the policy already; binding changes nothing.
  override bindTools(): this {
    return this;
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const decision = this.policy(readTurn(messages));
    const message =
      "final" in decision
        ? new AIMessage({ content: decision.final })
        : new AIMessage({
            content: "",
            tool_calls: decision.map((call) => ({
              id: `call_${randomUUID().slice(0, 8)}`,
              name: call.name,
              args: call.args,
              type: "tool_call" as const,
            })),
          });
    return { generations: [{ message, text: typeof message.content === "string" ? message.content : "" }] };
  }
}

export function readTurn(messages: BaseMessage[]): Turn {
  const start = messages.map((m) => m.getType()).lastIndexOf("human");
  const human = messages[start];
  const task = human ? parseJson(human.content) : {};
  const after = messages.slice(start + 1);
  const called = after.flatMap((m) =>
    m.getType() === "ai" ? ((m as AIMessage).tool_calls ?? []).map((c) => c.name) : [],
  );
  const results = after
    .filter((m) => m.getType() === "tool")
    .map((m) => {
      const tool = m as ToolMessage;
      return { name: tool.name ?? "", content: parseJson(tool.content), rejected: tool.status === "error" };
    });
  return { task: asTask(task), results, called, history: earlierTurns(messages.slice(0, Math.max(start, 0))) };
}

function earlierTurns(messages: BaseMessage[]): NonNullable<Turn["history"]> {
  const turns: NonNullable<Turn["history"]> = [];
  for (const m of messages) {
    if (m.getType() === "human") turns.push({ task: asTask(parseJson(m.content)), calls: [] });
    else if (m.getType() === "ai" && turns.length > 0) {
      const calls = (m as AIMessage).tool_calls ?? [];
      for (const c of calls) turns.at(-1)!.calls.push({ name: c.name, args: c.args });
      if (calls.length === 0 && typeof m.content === "string") turns.at(-1)!.answer = m.content;
    }
  }
  return turns;
}

const asTask = (value: unknown) => (value && typeof value === "object" ? value : {}) as Record<string, unknown>;

function parseJson(content: unknown): unknown {
  const text =
    typeof content === "string"
      ? content
      : Array.isArray(content)
        ? content.map((c) => (typeof c === "string" ? c : ((c as { text?: string }).text ?? ""))).join("")
        : "";
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The latest result of a tool in this turn, parsed. */
export function latest<T = Record<string, unknown>>(turn: Turn, name: string): T | undefined {
  const found = [...turn.results].reverse().find((r) => r.name === name);
  return found?.content as T | undefined;
}
