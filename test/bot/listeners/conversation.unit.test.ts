import { describe, expect, it } from "vitest";
import { registerConversation } from "../../../src/bot/listeners/events/conversation.js";
import { parseSettings } from "../../../src/config/settings.js";
import { createCaseMessages } from "../../../src/slack/case-messages.js";
import { fakeBolt, fakeSlackContext, type SlackCall } from "../../support/fake-bolt.js";

const BOT = "U0POOLBOT";

function setUp() {
  const calls: SlackCall[] = [];
  const bolt = fakeBolt(calls);
  // The rules model (no OpenAI key); no database: the messages below are turned away before any lookup.
  const settings = parseSettings({});
  const { ctx, queued } = fakeSlackContext({
    calls,
    deps: { settings, now: () => new Date("2026-11-24T09:00:00Z") },
  });
  registerConversation(bolt.app, { ctx, messages: createCaseMessages(ctx), isApprover: async () => true });
  const message = (event: Record<string, unknown>) =>
    bolt.event(
      "message",
      { channel: "C0AUDIT", ts: "1700000000.000500", ...event },
      {
        event_id: "Ev0001",
        authorizations: [{ user_id: BOT }],
      },
    );
  return { message, calls, queued };
}

describe("messages the Case Manager does not answer", () => {
  it.each([
    [
      "its own (or another bot's) message",
      { bot_id: "B0BOT", text: "🔁 Re-checked VP-101", thread_ts: "1700000000.000100" },
    ],
    [
      "an edit or other message subtype",
      { subtype: "message_changed", user: "U0ALICE", thread_ts: "1700000000.000100" },
    ],
    ["a message without a person", { text: "joined", thread_ts: "1700000000.000100" }],
    [
      "a message that @mentions it (the mention handler answers that)",
      { user: "U0ALICE", text: `<@${BOT}> why?`, thread_ts: "1700000000.000100" },
    ],
    ["a channel message outside any thread", { user: "U0ALICE", text: "why is VP-101 flagged?" }],
    ["the message that starts a thread", { user: "U0ALICE", text: "hello", thread_ts: "1700000000.000500" }],
  ])("ignores %s: no answer is started and nothing is posted", async (_what, event) => {
    const { message, calls, queued } = setUp();
    await message(event);
    expect(queued).toEqual([]);
    expect(calls).toEqual([]);
  });
});
