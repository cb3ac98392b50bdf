// A conversation keeps only its last few questions (each with its tool calls and answer) in
// the checkpointed state. Follow-ups need the recent turns, not the whole Slack thread, and a
// bounded state keeps every answer's checkpoint read and write small however long the thread runs.
import { type BaseMessage, RemoveMessage } from "@langchain/core/messages";
import { createMiddleware } from "langchain";

/** Questions kept, the one being answered included. */
export const KEPT_QUESTIONS = 4;

export const keepRecentQuestions = createMiddleware({
  name: "KeepRecentQuestions",
  beforeAgent: (state) => {
    const messages = state.messages as BaseMessage[];
    const questions = messages.flatMap((m, at) => (m.getType() === "human" ? [at] : []));
    if (questions.length <= KEPT_QUESTIONS) return undefined;
    const firstKept = questions[questions.length - KEPT_QUESTIONS]!;
    return { messages: messages.slice(0, firstKept).map((m) => new RemoveMessage({ id: m.id! })) };
  },
});
