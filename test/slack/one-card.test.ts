// One card, one request (issue 28, point 5): a card's subject never changes. An approved follow-up stays the
// follow-up it was, however the rider writes afterwards.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ALICE, AUDIT_CHANNEL, BOB, type Harness, startHarness } from "../support/bot-harness.js";
import { waitFor } from "../support/wait.js";

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

const WENDELL = "wendell.ashby@northwind.example";

describe("an approved follow-up card", () => {
  it("keeps its subject and its decision when the rider asks a question afterwards", async () => {
    await h.post(
      h.fake.slashCommandBody({
        command: "/poolpatrol",
        text: "audit VP-111",
        user_id: ALICE,
        channel_id: AUDIT_CHANNEL,
      }),
    );
    await h.bot.idle();
    const record = await h.db.prisma.case.findFirstOrThrow({ where: { vanpoolId: "VP-111", status: "pending_reply" } });
    const alertTs = h.alertOf("VP-111").ts;
    await h.post(
      h.fake.userMessage({
        user: ALICE,
        channel: AUDIT_CHANNEL,
        text: "draft a follow-up to Wendell",
        thread_ts: alertTs,
      }).body,
    );
    await h.bot.idle();
    const card = h.cardWith("VP-111", "approve_escalation_reply");
    expect(String(card.text)).toMatch(/^Follow-up to EMP-1028 \(Wendell\)/);
    await h.click(BOB, card, "approve_escalation_reply");
    await waitFor("the follow-up to be sent", async () =>
      Boolean((await h.db.prisma.approvalRequest.findFirstOrThrow({ where: { caseId: record.id } })).appliedAt),
    );
    await h.bot.messages.syncCase(record.id);
    const approved = h.fake.messageHistory(card.ts).at(-1)!;
    expect(String(approved.text)).toMatch(/^Follow-up to EMP-1028 \(Wendell\) on CASE-\w+ approved/);

    // Minutes later Wendell asks a question: it is answered by itself, and the decided card does not change.
    const thread = await h.db.prisma.emailThread.findUniqueOrThrow({ where: { caseId: record.id } });
    await h.bot.ctx.workflow.receiveReply({
      threadId: thread.id,
      from: WENDELL,
      body: "Quick question: how far from the pickup point can I live and still ride?",
    });
    await h.bot.idle();
    await h.bot.messages.syncCase(record.id);
    const after = h.fake.messageHistory(card.ts).at(-1)!;
    expect(String(after.text)).toBe(String(approved.text));
    expect(JSON.stringify(after.blocks)).not.toContain("Quick question");
    expect(JSON.stringify(after.blocks)).toContain("Follow-up to review");
    expect(JSON.stringify(after.blocks)).toContain("*Approved*");
  }, 120_000);
});
