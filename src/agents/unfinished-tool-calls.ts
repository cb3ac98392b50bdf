// A thread's checkpoint can hold a tool call with no result: the process was killed (or a checkpoint write
// failed) after the model asked for the call and before its result was stored. A real model API refuses such a
// history on the thread's next turn ("an assistant message with tool_calls must be followed by tool messages"),
// so each model call is sent the history with a result standing in for every unanswered call. The stored
// thread keeps what really happened.
import { AIMessage, type BaseMessage, ToolMessage } from "@langchain/core/messages";
import { createMiddleware } from "langchain";

export const UNFINISHED_TOOL_CALL =
  "No result: the run stopped before this call returned, so what it did is unknown. Read the case's current state before doing it again.";

/** `messages` with a stand-in result after each tool call that has none (after the results its message did get). */
export function withUnfinishedToolCallsAnswered(messages: BaseMessage[]): BaseMessage[] {
  const answered = new Set(messages.filter(ToolMessage.isInstance).map((m) => m.tool_call_id));
  const result: BaseMessage[] = [];
  let standIns: ToolMessage[] = [];
  for (const message of messages) {
    if (!ToolMessage.isInstance(message)) {
      result.push(...standIns);
      standIns = [];
    }
    result.push(message);
    if (AIMessage.isInstance(message))
      standIns = (message.tool_calls ?? [])
        .filter((call) => call.id && !answered.has(call.id))
        .map((call) => new ToolMessage({ tool_call_id: call.id!, name: call.name, content: UNFINISHED_TOOL_CALL }));
  }
  return [...result, ...standIns];
}

/** In an agent's middleware: the model never sees a tool call without its result. */
export const answerUnfinishedToolCalls = createMiddleware({
  name: "AnswerUnfinishedToolCalls",
  wrapModelCall: (request, handler) =>
    handler({ ...request, messages: withUnfinishedToolCallsAnswered(request.messages) }),
});
