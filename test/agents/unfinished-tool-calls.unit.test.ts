import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { UNFINISHED_TOOL_CALL, withUnfinishedToolCallsAnswered } from "../../src/agents/unfinished-tool-calls.js";

const call = (id: string) => ({ id, name: "run_outreach", args: {} });
const shape = (messages: ReturnType<typeof withUnfinishedToolCallsAnswered>) =>
  messages.map((m) => (ToolMessage.isInstance(m) ? `tool ${m.tool_call_id}: ${m.content}` : m.getType()));

describe("a history sent to the model", () => {
  it("gets a stand-in result for each unanswered call, after the results its message did get", () => {
    const history = [
      new HumanMessage("task"),
      new AIMessage({ content: "", tool_calls: [call("a"), call("b")] }),
      new ToolMessage({ tool_call_id: "a", content: "done" }),
      new HumanMessage("next task"),
    ];
    expect(shape(withUnfinishedToolCallsAnswered(history))).toEqual([
      "human",
      "ai",
      "tool a: done",
      `tool b: ${UNFINISHED_TOOL_CALL}`,
      "human",
    ]);
  });

  it("is left as it is when every call has its result", () => {
    const history = [
      new HumanMessage("task"),
      new AIMessage({ content: "", tool_calls: [call("a")] }),
      new ToolMessage({ tool_call_id: "a", content: "done" }),
      new AIMessage("finished"),
    ];
    expect(withUnfinishedToolCallsAnswered(history)).toEqual(history);
  });
});
