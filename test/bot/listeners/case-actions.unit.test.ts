import { describe, expect, it } from "vitest";
import { registerCaseActions } from "../../../src/bot/listeners/actions/case-actions.js";
import { CASE_ACTIONS } from "../../../src/slack/blocks/case-alert.js";
import { createCaseMessages } from "../../../src/slack/case-messages.js";
import { fakeBolt, fakeSlackContext, type SlackCall } from "../../support/fake-bolt.js";

function setUp(options: { approver: boolean }) {
  const calls: SlackCall[] = [];
  const bolt = fakeBolt(calls);
  const { ctx, queued } = fakeSlackContext({ calls, restrictAudits: true });
  registerCaseActions(bolt.app, {
    ctx,
    messages: createCaseMessages(ctx),
    isApprover: async () => options.approver,
  });
  return { bolt, calls, queued };
}

describe("Re-audit on a case alert, with audits restricted to approvers", () => {
  it("acks first and tells someone who is not an approver, privately in the alert's thread, that nothing changed", async () => {
    const { bolt, calls, queued } = setUp({ approver: false });
    await bolt.action({
      actionId: CASE_ACTIONS.reaudit,
      value: "CASE-1A2B3C4D5E6F7A8B",
      userId: "U0BOB",
      channel: "C0AUDIT",
      messageTs: "1700000000.000100",
    });
    expect(calls).toEqual([
      { method: "ack", args: undefined },
      {
        method: "chat.postEphemeral",
        args: {
          channel: "C0AUDIT",
          user: "U0BOB",
          thread_ts: "1700000000.000100",
          text: "Only approvers can re-audit. Nothing was changed.",
        },
      },
    ]);
    expect(queued).toEqual([]);
  });

  it("refuses the same way, by direct message, from App Home", async () => {
    const { bolt, calls, queued } = setUp({ approver: false });
    await bolt.action({ actionId: CASE_ACTIONS.reaudit, value: "CASE-1A2B3C4D5E6F7A8B", userId: "U0BOB" });
    expect(calls.map((c) => c.method)).toEqual(["ack", "chat.postMessage"]);
    expect(calls[1]!.args).toEqual({ channel: "U0BOB", text: "Only approvers can re-audit. Nothing was changed." });
    expect(queued).toEqual([]);
  });
});
