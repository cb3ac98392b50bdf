// One card, one request (issue 28, point 5): a card's subject never changes, and a decided card stays exactly as it
// was decided. A scripted lifecycle over signed requests and the Slack stub: the review emails, an angry reply whose
// drafted answer is approved, a later question, a follow-up an approver asks for, an escalation while that
// follow-up waits, and both approved. Each request has a card of its own; after every event, every card's subject
// (its header) is what it was when posted, and every decided card's blocks are what they were once decided.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ALICE, AUDIT_CHANNEL, BOB, type Harness, startHarness } from "../support/bot-harness.js";
import type { SlackMessage } from "../support/slack/fake-slack.js";
import { buttonOf } from "../support/slack/messages.js";
import { waitFor } from "../support/wait.js";

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

const WENDELL = "wendell.ashby@northwind.example";
const DIEGO = "diego.fuentes@northwind.example";

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

describe("one card per request over a case's life", () => {
  it("gives each request its own card, never changes a card's subject, and leaves a decided card as decided", async () => {
    await h.audit("VP-111");
    const record = await h.db.prisma.case.findFirstOrThrow({ where: { vanpoolId: "VP-111", status: "pending_reply" } });
    const threadId = (await h.db.prisma.emailThread.findUniqueOrThrow({ where: { caseId: record.id } })).id;
    const alertTs = h.alertOf("VP-111").ts;

    /** Each card's subject when first seen, and its blocks once decided, by its ts. */
    const subjects = new Map<string, string>();
    const decided = new Map<string, string>();
    const cards = (): SlackMessage[] =>
      h.fake.thread(AUDIT_CHANNEL, alertTs).filter((m) => /^(Reply from|Follow-up to|Email to) /.test(String(m.text)));
    // Slack gives a block without an id a fresh one on each update: what a person reads is the rest.
    const shown = (blocks: unknown) => JSON.stringify(blocks, (key, value) => (key === "block_id" ? undefined : value));
    const subjectOf = (m: SlackMessage) => shown((m.blocks ?? [])[0]);
    /** After every event: no card changed its subject, no decided card changed at all; new cards are noted. */
    async function everyCardAsItWas(event: string) {
      await h.bot.idle();
      await h.bot.messages.syncCase(record.id);
      for (const card of cards()) {
        const now = h.fake.messageHistory(card.ts).at(-1)!;
        if (!subjects.has(card.ts)) subjects.set(card.ts, subjectOf(now));
        expect(subjectOf(now), `the subject of ${card.text} after ${event}`).toBe(subjects.get(card.ts));
        if (decided.has(card.ts)) expect(shown(now.blocks), `${card.text} after ${event}`).toBe(decided.get(card.ts));
        else if (/ (approved|edited|rejected) /.test(String(now.text))) decided.set(card.ts, shown(now.blocks));
      }
    }
    const reply = async (from: string, body: string, event: string) => {
      await h.bot.ctx.workflow.receiveReply({ threadId, from, body });
      await everyCardAsItWas(event);
    };
    const approve = async (card: SlackMessage, event: string) => {
      const approvalId = buttonOf(card, "approve_escalation_reply").value!.split(" ")[0]!;
      await h.click(BOB, card, "approve_escalation_reply");
      await waitFor(`${event} to be sent`, async () =>
        Boolean((await h.db.prisma.approvalRequest.findUniqueOrThrow({ where: { id: approvalId } })).appliedAt),
      );
      await everyCardAsItWas(event);
    };
    const pendingCard = () => cards().find((m) => / needs review /.test(String(m.text)))!;

    // A reply whose answer a person approves.
    await reply(WENDELL, "This is ridiculous, I want to speak to a manager about my seat.", "the angry reply");
    expect(cards()).toHaveLength(1);
    const first = pendingCard();
    expect(String(first.text)).toMatch(/^Reply from EMP-1028 \(Wendell\) on CASE-\w+ needs review/);
    await approve(first, "the approved answer");

    // A later question, answered by itself: no card, and the decided one unchanged.
    await reply(WENDELL, "Quick question: when will I hear back from you about this?", "a later question");

    // A follow-up an approver asks for: a card of its own.
    await h.post(
      h.fake.userMessage({
        user: ALICE,
        channel: AUDIT_CHANNEL,
        text: "draft a follow-up to Diego",
        thread_ts: alertTs,
      }).body,
    );
    await everyCardAsItWas("the follow-up drafted");
    const followUp = pendingCard();
    expect(String(followUp.text)).toMatch(/^Follow-up to EMP-1083 \(Diego\)/);
    expect(followUp.ts).not.toBe(first.ts);

    // An escalation while the follow-up waits: its own card again, the follow-up's unchanged.
    await reply(DIEGO, "I want to talk to HR about this, this is harassment.", "an escalation while a card waits");
    const requests = await h.db.prisma.approvalRequest.findMany({
      where: { caseId: record.id },
      orderBy: { createdAt: "asc" },
    });
    expect(cards()).toHaveLength(requests.length);
    expect(new Set(cards().map((c) => c.ts)).size).toBe(requests.length);

    // Each waiting card decided on the card as it is now (deciding one changes the case, so the other refreshes).
    for (let next = pendingCard(); next; next = pendingCard()) await approve(next, `approving ${next.text}`);
    await reply(WENDELL, "Thanks, understood.", "a last acknowledgment");
    expect(decided.size).toBeGreaterThanOrEqual(2);
    expect(subjects.size).toBe(requests.length);
  }, 240_000);
});
