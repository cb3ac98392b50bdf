// What an auditor sees before deciding: cancellation cards per rider with their
// (redacted) replies, "Show full reply" for approvers, confidence of the failed check,
// closed cases that keep their evidence, "needs a person" cases, words not internals.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findCaseEvidence } from "../../src/data/verification-repository.js";
import { ALICE, AUDIT_CHANNEL, CAROL, type Harness, startHarness } from "./harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const REPLY =
  "I moved back to 1450 N. Maple Street, Apt 4B last month and I'm on Day Shift again. My number is (916) 555-0142 or wendell.home@example.org.";
const command = (user: string, text: string) =>
  h.fake.slashCommandBody({ command: "/poolpatrol", text, user_id: user, channel_id: AUDIT_CHANNEL });
type Shown = { ts: string; text?: string; blocks?: unknown[]; thread_ts?: string };
const alertOf = (vanpoolId: string) =>
  h.fake.messages(AUDIT_CHANNEL).find((m) => String(m.text).startsWith(vanpoolId) && String(m.text).includes("CASE-"))!;
type Element = { type: string; action_id: string; value: string };
const buttonsOf = (message: { blocks?: unknown[] }) =>
  ((message.blocks ?? []) as { elements?: Element[]; accessory?: Element }[])
    .flatMap((b) => [...(b.elements ?? []), ...(b.accessory ? [b.accessory] : [])])
    .filter((e) => e.type === "button")
    .map((e) => ({ action_id: e.action_id, value: e.value }));
async function click(user: string, message: Shown, actionId: RegExp) {
  const action = buttonsOf(message).find((b) => actionId.test(b.action_id))!;
  const response = await h.post(
    h.fake.blockActionPayload({ user: { id: user }, channel: AUDIT_CHANNEL, message: message as never, action }),
  );
  await h.bot.idle();
  return response;
}
async function ask(user: string, text: string) {
  return (await (await h.post(command(user, text))).json()) as { text: string };
}

let caseId = "";
let card: Shown;

// Steps on one workspace: the first builds a cancellation card that the next ones read and the closed
// case's test approves; the later ones find that case closed. Its order is part of the test.
describe("cards, one story", { shuffle: false }, () => {
  describe("a cancellation card with two riders, one of whom replied", () => {
    it("shows each rider's facts, the reply redacted, whether it was answered, and the true reason", async () => {
      await h.post(command(ALICE, "audit VP-111"));
      await h.bot.idle();
      const record = await h.db.prisma.case.findFirstOrThrow({
        where: { vanpoolId: "VP-111", status: "pending_reply" },
      });
      caseId = record.id;
      const thread = await h.db.prisma.emailThread.findUniqueOrThrow({ where: { caseId } });
      await h.bot.ctx.workflow.receiveReply({
        threadId: thread.id,
        from: "wendell.ashby@northwind.example",
        body: REPLY,
      });
      await h.bot.ctx.workflow.tick(new Date(Date.now() + 9 * 86_400_000));
      await h.bot.messages.syncCase(caseId);
      expect((await h.db.prisma.case.findUniqueOrThrow({ where: { id: caseId } })).status).toBe("pre_cancel");

      const alert = alertOf("VP-111");
      card = h.fake.thread(AUDIT_CHANNEL, alert.ts).find((m) => /Cancellation of/.test(String(m.text)))!;
      const text = JSON.stringify(card.blocks);
      expect(text).toContain("EMP-1028 (Wendell)");
      expect(text).toMatch(/EMP-1083 \([A-Z][a-z]+\)/);
      expect(text).toContain("I moved back to [street address] last month");
      expect(text).toContain("My number is [phone number] or [email address]");
      expect(text).not.toMatch(/Maple|555-0142|@example\.org|@northwind/);
      expect(text).toMatch(/Replied <!date\^\d+\^/);
      expect(text).toMatch(/answered <!date|not answered yet/);
      expect(text).toMatch(/No reply by the deadline/);
      expect(text).toMatch(
        /Why now:\* the reply deadline \(<!date\^\d+\^[^)]*\) passed and a re-audit still fails location/,
      );
      expect(text).not.toContain("(timeout)");
      expect(text).toMatch(/60-75 mi|50-75 mi|from the pickup/);
      // "Show full reply" only for the rider who wrote.
      expect(buttonsOf(card).filter((b) => b.action_id.startsWith("show_full_reply"))).toHaveLength(1);
    });

    it("refuses the full reply to a non-approver, in the card's thread", async () => {
      await click(CAROL, card, /^show_full_reply/);
      const refusal = h.fake.ephemerals(CAROL).at(-1)!;
      expect(refusal.message.text).toMatch(/Only approvers can read a rider's full reply/);
      expect(refusal.message.thread_ts).toBe(alertOf("VP-111").ts);
      expect(h.fake.views(CAROL)).toHaveLength(0);
    });

    it("opens the full reply for an approver and records who read it", async () => {
      await click(ALICE, card, /^show_full_reply/);
      const modal = h.fake.views(ALICE).at(-1)!;
      expect(JSON.stringify(modal.blocks)).toContain("1450 N. Maple Street, Apt 4B");
      expect(JSON.stringify(modal.blocks)).toContain("EMP-1028 (Wendell) wrote");
      expect(
        await h.db.prisma.auditEvent.count({ where: { action: "reply.read_in_full", actor: `slack:${ALICE}` } }),
      ).toBe(1);
    });

    it("shows the confidence of the failed check only", async () => {
      const evidence = await findCaseEvidence(h.db.prisma, caseId);
      const alert = JSON.stringify(alertOf("VP-111").blocks);
      expect(alert).toContain(`Confidence of the failed check*\\n${evidence.location!.confidence}/5`);
    });
  });

  describe("a closed case", () => {
    it("has no Re-audit button; a re-audit from a stale alert leaves it and its evidence as decided", async () => {
      const staleAlert = alertOf("VP-111");
      await click(ALICE, card, /^approve_cancellation$/);
      const closed = await h.db.prisma.case.findUniqueOrThrow({ where: { id: caseId } });
      expect(closed.status).toBe("cancelled");
      const evidenceBefore = await findCaseEvidence(h.db.prisma, caseId);
      const alert = alertOf("VP-111");
      expect(buttonsOf(alert).map((b) => b.action_id)).toEqual(["view_evidence"]);
      const alertBlocks = JSON.stringify(alert.blocks);

      await click(ALICE, staleAlert, /^reaudit$/);
      expect(await h.db.prisma.case.findUniqueOrThrow({ where: { id: caseId } })).toMatchObject({
        status: "cancelled",
        updatedAt: closed.updatedAt,
      });
      expect(await findCaseEvidence(h.db.prisma, caseId)).toEqual(evidenceBefore);
      expect(JSON.stringify(h.fake.find((m) => m.ts === alert.ts)!.blocks)).toBe(alertBlocks);
      expect(h.fake.ephemerals(ALICE).at(-1)!.message.text).toMatch(
        /is closed and stays as decided|passes both checks; no new case is needed/,
      );
    });
  });

  describe("a case that needs a person", () => {
    it("says on its alert what to decide, and is in the digest and App Home with its age", async () => {
      await h.post(command(ALICE, "audit VP-109"));
      await h.bot.idle();
      const record = await h.db.prisma.case.findFirstOrThrow({
        where: { vanpoolId: "VP-109", status: "pending_reply" },
      });
      const thread = await h.db.prisma.emailThread.findUniqueOrThrow({ where: { caseId: record.id } });
      await h.bot.ctx.workflow.receiveReply({
        threadId: thread.id,
        from: "kyle.jorgensen@northwind.example",
        body: "Ok, got it. Thanks for letting me know.",
      });
      await h.bot.messages.syncCase(record.id);
      expect((await h.db.prisma.case.findUniqueOrThrow({ where: { id: record.id } })).status).toBe("hitl_review");
      const alert = JSON.stringify(alertOf("VP-109").blocks);
      expect(alert).toContain("What to decide");
      expect(alert).toMatch(/still fails|data is missing|drafted email/);

      await h.post(command(ALICE, "digest"));
      await h.bot.idle();
      const digest = h.fake
        .messages(AUDIT_CHANNEL)
        .filter((m) => /Pool Patrol digest/.test(String(m.text)))
        .at(-1)!;
      expect(JSON.stringify(digest.blocks)).toMatch(
        new RegExp(`Needs a person \\(\\d+\\)\\*\\\\n[^"]*• ${record.id} VP-109 · waiting`),
      );

      await h.post(
        h.fake.eventCallbackBody({
          event: { type: "app_home_opened", user: CAROL, channel: "D0CAROL", tab: "home", event_ts: "1.0" },
        }),
      );
      await h.bot.idle();
      expect(JSON.stringify(h.fake.home(CAROL)!.blocks)).toMatch(new RegExp(`\\*${record.id}\\* VP-109 · waiting`));
      // A case waiting since the seeds (early November) shows its age in days, not the time of its last Slack update.
      expect(JSON.stringify(h.fake.home(CAROL)!.blocks)).toMatch(/\*CASE-178B31FB\* VP-103 · waiting \d+ days/);
    });
  });

  describe("/poolpatrol in words", () => {
    it("takes the status words help shows", async () => {
      const help = await ask(CAROL, "help");
      expect(help.text).toContain("`needs a person`");
      const listed = await ask(CAROL, "cases needs a person");
      expect(listed.text).toMatch(/^Cases: Needs a person \(\d+\):\n• \*CASE-/);
      expect(listed.text).not.toMatch(/hitl_review|_mismatch/);
      expect((await ask(CAROL, "cases Cancelled")).text).toMatch(/^Cases: Cancelled \(\d+\)/);
    });

    it("never echoes more than 100 characters of what was typed", async () => {
      const typed = "x".repeat(300);
      for (const text of [typed, `cases ${typed}`]) {
        const answer = (await ask(CAROL, text)).text;
        expect(answer).toMatch(/I don't know/);
        expect(answer).not.toContain("x".repeat(101));
      }
    });

    it("answers status properly when Slack no longer has the alert", async () => {
      h.fake.failNext("chat.getPermalink", "message_not_found");
      const response = await h.post(command(CAROL, "status VP-109"));
      expect(response.status).toBe(200);
      expect(((await response.json()) as { text: string }).text).toMatch(/\(VP-109\) is \*Needs a person\*/);
    });
  });
});
