// A local OpenAI-compatible server (POST /v1/chat/completions) for the real
// ChatOpenAI client. Each request is answered by a script chosen by the agent's
// system prompt; scripts return tool calls, content, a JSON body for structured
// output, garbage, a refusal, an HTTP error, or nothing for a while (timeouts).

import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { RulesPolicy } from "../../src/agents/models/rules-model.js";

export interface ChatRequest {
  model: string;
  messages: {
    role: string;
    content: string | null | { type: string; text?: string }[];
    tool_calls?: { id: string; function: { name: string; arguments: string } }[];
    tool_call_id?: string;
  }[];
  tools?: { type: string; function: { name: string; description?: string; parameters: Record<string, unknown> } }[];
  response_format?: { type: string; json_schema?: { name: string; schema: Record<string, unknown> } };
}

export type StubAnswer =
  | { toolCalls: { name: string; args: Record<string, unknown> }[] }
  | { content: string }
  /** A refusal the way OpenAI sends one: no content, the reason in `refusal`. */
  | { refusal: string }
  | { httpStatus: number }
  | { delayMs: number; answer: StubAnswer };

export type Script = (request: ChatRequest) => StubAnswer;

export interface OpenAIStub {
  baseUrl: string;
  requests: ChatRequest[];
  /** Requests refused with 400 as OpenAI refuses them: a history with a tool call and no result for it. */
  rejected: ChatRequest[];
  /** Scripts by a phrase of the agent's system prompt, e.g. "Case Manager". */
  script(match: string, script: Script): void;
  close(): Promise<void>;
}

export async function startOpenAIStub(): Promise<OpenAIStub> {
  const requests: ChatRequest[] = [];
  const rejected: ChatRequest[] = [];
  const scripts = new Map<string, Script>();
  const sockets = new Set<import("node:net").Socket>();
  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => (raw += chunk));
    req.on("end", async () => {
      if (req.url !== "/v1/chat/completions") return send(res, 404, { error: { message: "not found" } });
      const body = JSON.parse(raw) as ChatRequest;
      requests.push(body);
      const unanswered = unansweredToolCall(body.messages);
      if (unanswered) {
        process.stderr.write(`openai-stub refused a history whose tool call ${unanswered} has no result\n`);
        rejected.push(body);
        return send(res, 400, {
          error: {
            message: `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${unanswered}`,
            type: "invalid_request_error",
          },
        });
      }
      const system = textOf(body.messages.find((m) => m.role === "system")?.content);
      const script = [...scripts.entries()].find(([phrase]) => system.includes(phrase))?.[1];
      if (!script) return send(res, 500, { error: { message: `no script for system prompt: ${system.slice(0, 60)}` } });
      let answer: StubAnswer;
      try {
        answer = script(body);
      } catch (error) {
        process.stderr.write(
          `openai-stub script failed: ${(error as Error).stack}\n${JSON.stringify(body.messages.map((m) => [m.role, textOf(m.content).slice(0, 120)]))}\n`,
        );
        return send(res, 500, { error: { message: `stub script failed: ${(error as Error).message}` } });
      }
      while ("delayMs" in answer) {
        const { delayMs, answer: later } = answer;
        await new Promise((resolve) => setTimeout(resolve, delayMs));
        if (res.destroyed) return;
        answer = later;
      }
      if ("httpStatus" in answer)
        return send(res, answer.httpStatus, { error: { message: "scripted failure", type: "server_error" } });
      const message =
        "toolCalls" in answer
          ? {
              role: "assistant",
              content: null,
              tool_calls: answer.toolCalls.map((c) => ({
                id: `call_${randomUUID().slice(0, 8)}`,
                type: "function",
                function: { name: c.name, arguments: JSON.stringify(c.args) },
              })),
            }
          : "refusal" in answer
            ? { role: "assistant", content: null, refusal: answer.refusal }
            : { role: "assistant", content: answer.content };
      send(res, 200, {
        id: `chatcmpl-${randomUUID()}`,
        object: "chat.completion",
        created: Math.floor(Date.now() / 1000),
        model: body.model,
        choices: [{ index: 0, message, finish_reason: "toolCalls" in answer ? "tool_calls" : "stop" }],
        usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
      });
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    rejected,
    script(match, script) {
      scripts.set(match, script);
    },
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The first tool call with no tool message answering it before the next non-tool message, as OpenAI checks. */
function unansweredToolCall(messages: ChatRequest["messages"]): string | undefined {
  for (const [index, message] of messages.entries()) {
    const ids = new Set((message.tool_calls ?? []).map((call) => call.id));
    for (const next of messages.slice(index + 1)) {
      if (next.role !== "tool") break;
      ids.delete(next.tool_call_id ?? "");
    }
    if (ids.size > 0) return [...ids][0];
  }
  return undefined;
}

/** Message content as text, whether a string or a list of parts. */
export function textOf(content: ChatRequest["messages"][number]["content"] | undefined): string {
  if (typeof content === "string") return content;
  return (content ?? []).map((part) => part.text ?? "").join("");
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  if (res.destroyed) return;
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

/** Answers like a model that follows the lifecycle: a rules policy, fed the OpenAI conversation. */
export const followsPolicy =
  (policy: RulesPolicy): Script =>
  (request) => {
    const decision = policy(turnOf(request));
    return "final" in decision ? { content: decision.final } : { toolCalls: decision };
  };

/**
 * Reads an OpenAI conversation the way the rules policies read LangChain messages,
 * so a script can answer like a model that follows the lifecycle.
 */
export function turnOf(request: ChatRequest) {
  const start = request.messages.map((m) => m.role).lastIndexOf("user");
  const task = JSON.parse(textOf(request.messages[start]!.content) || "{}") as Record<string, unknown>;
  const after = request.messages.slice(start + 1);
  const names = new Map(after.flatMap((m) => m.tool_calls ?? []).map((c) => [c.id, c.function.name]));
  const results = after
    .filter((m) => m.role === "tool")
    .map((m) => {
      const text = textOf(m.content);
      let content: unknown = text;
      try {
        content = JSON.parse(text);
      } catch {
        /* plain text, e.g. a rejection */
      }
      return { name: names.get(m.tool_call_id ?? "") ?? "", content, rejected: text.startsWith("Rejected by") };
    });
  return { task, results, called: after.flatMap((m) => m.tool_calls ?? []).map((c) => c.function.name) };
}

/** Structured output the way a request asks for it: json_schema content, or the response tool named `toolName`. */
export function structuredAnswer(request: ChatRequest, value: Record<string, unknown>, toolName: string): StubAnswer {
  if (request.response_format) return { content: JSON.stringify(value) };
  const responseTool = request.tools?.find((t) => t.function.name === toolName);
  return responseTool
    ? { toolCalls: [{ name: responseTool.function.name, args: value }] }
    : { content: JSON.stringify(value) };
}
