import type { ModalView } from "@slack/types";
import { describe, expect, it } from "vitest";
import {
  alreadyDecided,
  registerApprovalActions,
  riderAlreadyDecided,
} from "../../../src/bot/listeners/actions/approvals.js";
import type { ApprovalRecord } from "../../../src/data/approval-repository.js";
import { SHOW_FULL_REPLY } from "../../../src/slack/blocks/approval-card.js";
import { INPUTS, VIEW_CALLBACKS } from "../../../src/slack/blocks/modals.js";
import { createCaseMessages } from "../../../src/slack/case-messages.js";
import { fakeBolt, fakeSlackContext, type SlackCall } from "../../support/fake-bolt.js";

function setUp(options: { approver?: boolean } = {}) {
  const calls: SlackCall[] = [];
  const bolt = fakeBolt(calls);
  // Decisions are jobs queued before the ack: recorded here, not run.
  const { ctx, queued } = fakeSlackContext({ calls });
  // Modals open at once and are filled after: this Slack says which view it opened and takes its update.
  const record = (method: string, answer: object) => async (args: unknown) => {
    calls.push({ method, args });
    return { ok: true, ...answer };
  };
  Object.assign(ctx.client.views, {
    open: record("views.open", { view: { id: "V0MODAL" } }),
    update: record("views.update", {}),
  });
  const askedAbout: string[] = [];
  registerApprovalActions(bolt.app, {
    ctx,
    messages: createCaseMessages(ctx),
    isApprover: async (userId) => {
      askedAbout.push(userId);
      return options.approver ?? true;
    },
  });
  return { bolt, calls, queued, askedAbout };
}

const APPROVAL = "APR-1A2B3C4D5E6F7A8B";

describe("the Edit reply modal, submitted", () => {
  it.each([
    ["", "empty"],
    ["   Too short.   ", "shorter than 20 characters once trimmed"],
  ])("refuses %j (%s) on the field itself and decides nothing", async (body) => {
    const { bolt, calls, queued } = setUp();
    await bolt.view({
      callbackId: VIEW_CALLBACKS.editReply,
      metadata: APPROVAL,
      values: { [INPUTS.body.block]: { [INPUTS.body.action]: body } },
    });
    expect(calls).toEqual([
      {
        method: "ack",
        args: {
          response_action: "errors",
          errors: { [INPUTS.body.block]: "Write the email as it should be sent (at least 20 characters)." },
        },
      },
    ]);
    expect(queued).toEqual([]);
  });

  it("queues the edit, then closes the modal", async () => {
    const { bolt, calls, queued } = setUp();
    await bolt.view({
      callbackId: VIEW_CALLBACKS.editReply,
      metadata: APPROVAL,
      values: { [INPUTS.body.block]: { [INPUTS.body.action]: "Hi Sam, thanks for letting us know about the move." } },
    });
    expect(calls).toEqual([{ method: "ack", args: undefined }]);
    expect(queued.map((q) => q.data)).toEqual([
      {
        kind: "modal-decision",
        userId: "U0ALICE",
        value: APPROVAL,
        decision: "edit",
        body: "Hi Sam, thanks for letting us know about the move.",
      },
    ]);
  });
});

describe("the Reject modal, submitted", () => {
  it.each(["", "  no  "])(
    "asks for a reason of at least 5 characters when given %j and decides nothing",
    async (reason) => {
      const { bolt, calls, queued } = setUp();
      await bolt.view({
        callbackId: VIEW_CALLBACKS.rejectApproval,
        metadata: APPROVAL,
        values: { [INPUTS.reason.block]: { [INPUTS.reason.action]: reason } },
      });
      expect(calls).toHaveLength(1);
      expect(calls[0]).toMatchObject({
        method: "ack",
        args: {
          response_action: "errors",
          errors: { [INPUTS.reason.block]: expect.stringMatching(/at least 5 characters/) },
        },
      });
      expect(queued).toEqual([]);
    },
  );

  it("queues the rejection, then closes the modal", async () => {
    const { bolt, calls, queued } = setUp();
    await bolt.view({
      callbackId: VIEW_CALLBACKS.rejectApproval,
      metadata: APPROVAL,
      values: { [INPUTS.reason.block]: { [INPUTS.reason.action]: "moving closer next month" } },
    });
    expect(calls).toEqual([{ method: "ack", args: undefined }]);
    expect(queued.map((q) => q.data)).toEqual([
      {
        kind: "modal-decision",
        userId: "U0ALICE",
        value: APPROVAL,
        decision: "reject",
        reason: "moving closer next month",
      },
    ]);
  });
});

describe("Show full reply", () => {
  const viewOf = (call: SlackCall | undefined) => (call!.args as { view: ModalView }).view;

  it.each([
    ["in the channel", { channel: "C0AUDIT", messageTs: "1700000000.000200", threadTs: "1700000000.000100" }],
    ["from App Home", {}],
  ])(
    "acks first, opens its modal at once, then says in it that only approvers read the full reply (%s)",
    async (_, where) => {
      const { bolt, calls, askedAbout } = setUp({ approver: false });
      await bolt.action({
        actionId: `${SHOW_FULL_REPLY}:MSG-1A2B3C4D5E6F7A8B`,
        value: "MSG-1A2B3C4D5E6F7A8B",
        userId: "U0BOB",
        ...where,
      });
      expect(askedAbout).toEqual(["U0BOB"]);
      expect(calls.map((c) => c.method)).toEqual(["ack", "views.open", "views.update"]);
      expect(viewOf(calls[1])).toMatchObject({ title: { text: "Full reply" } });
      expect(JSON.stringify(viewOf(calls[1]).blocks)).toContain("Loading…");
      expect(calls[2]!.args).toMatchObject({ view_id: "V0MODAL" });
      expect(JSON.stringify(viewOf(calls[2]).blocks)).toContain(
        "Only approvers can read a rider's full reply; the card shows it redacted.",
      );
    },
  );
});

describe("a click on a decided request", () => {
  const decided = (over: Partial<ApprovalRecord>) =>
    ({ approval_id: APPROVAL, status: "approved", decided_by: "U0ALICE", decided_at: null, ...over }) as ApprovalRecord;

  it("says who decided first and that nothing changed", () => {
    expect(alreadyDecided(decided({ status: "rejected", decided_by: "U0ALICE" }))).toBe(
      "Already rejected by <@U0ALICE>. Nothing was changed.",
    );
    expect(alreadyDecided(decided({ decided_at: new Date("2026-11-20T15:00:00Z") }))).toMatch(
      /^Already approved by <@U0ALICE> <!date\^\d+\^.*\|.*>\. Nothing was changed\.$/,
    );
  });

  it("names who decided a rider as Slack shows a person, not by an id", () => {
    expect(riderAlreadyDecided("EMP-1028", { decision: "keep", by: "U0ALICE" })).toBe(
      "EMP-1028 was already decided (kept by <@U0ALICE>). Nothing was changed.",
    );
    expect(riderAlreadyDecided("EMP-1028", { decision: "remove", by: null })).toBe(
      "EMP-1028 was already decided (to be removed). Nothing was changed.",
    );
  });

  it("says an expired request expired without a decision", () => {
    expect(alreadyDecided(decided({ status: "expired", decided_by: null }))).toBe(
      "This request expired without a decision. Nothing was changed.",
    );
  });
});
