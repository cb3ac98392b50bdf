// What an auditor sees before deciding: cancellation cards per rider with their
// (redacted) replies, "Show full reply" for approvers, confidence of the failed check,
// closed cases that keep their evidence, "needs a person" cases, words not internals.
// Each test starts from the mock data on a fresh database, app and fake Slack, and brings its case
// to the state it needs itself.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { findCaseEvidence } from "../../src/data/verification-repository.js";
import { ALICE, AUDIT_CHANNEL, BOB, CAROL, type Harness, startHarness } from "../support/bot-harness.js";
import { exactDistancesIn } from "../support/privacy.js";
import type { SlackMessage } from "../support/slack/fake-slack.js";
import { buttonOf, buttonsOf } from "../support/slack/messages.js";
import { waitFor } from "../support/wait.js";

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

const REPLY =
  "I moved back to 1450 N. Maple Street, Apt 4B last month and I'm on Day Shift again. My number is (916) 555-0142 or wendell.home@example.org.";
const command = (user: string, text: string) =>
  h.fake.slashCommandBody({ command: "/poolpatrol", text, user_id: user, channel_id: AUDIT_CHANNEL });
const ask = (user: string, text: string) => h.command(user, text);
/** The modal the last click opened for `user`: it opened at once as "Loading…", then was filled once. */
function openedAtOnce(user: string, opened: number, title: string) {
  const views = h.fake.views(user);
  expect(views).toHaveLength(opened + 1);
  const history = h.fake.viewHistory(views.at(-1)!.id);
  expect(
    history.map((v) => [(v.title as { text: string }).text, JSON.stringify(v.blocks).includes("Loading…")]),
  ).toEqual([
    [title, true],
    [expect.any(String), false],
  ]);
  return { modal: history.at(-1)!, text: JSON.stringify(history.at(-1)!.blocks) };
}
const statusOf = async (caseId: string) => (await h.db.prisma.case.findUniqueOrThrow({ where: { id: caseId } })).status;

/**
 * VP-111 audited, Wendell (EMP-1028) replied with his street address and phone, nobody else did, and
 * the reply deadline passed: the case waits on its cancellation card for Wendell and EMP-1083.
 */
async function givenCancellationCard(): Promise<{ caseId: string; card: SlackMessage }> {
  await h.post(command(ALICE, "audit VP-111"));
  await h.bot.idle();
  const { id: caseId } = await h.db.prisma.case.findFirstOrThrow({
    where: { vanpoolId: "VP-111", status: "pending_reply" },
  });
  const thread = await h.db.prisma.emailThread.findUniqueOrThrow({ where: { caseId } });
  await h.bot.ctx.workflow.receiveReply({ threadId: thread.id, from: "wendell.ashby@northwind.example", body: REPLY });
  await h.bot.ctx.workflow.tick(new Date(Date.now() + 9 * 86_400_000));
  await h.bot.messages.syncCase(caseId);
  return { caseId, card: h.cancellationCardOf("VP-111") };
}

/** The cancellation card decided: ALICE kept Wendell, BOB removed EMP-1083, and the case is cancelled. */
async function givenCancelled(): Promise<{ caseId: string; alertBeforeDecisions: SlackMessage }> {
  const { caseId, card } = await givenCancellationCard();
  const alertBeforeDecisions = h.alertOf("VP-111");
  await h.keep(ALICE, card, "EMP-1028");
  await h.click(BOB, h.cancellationCardOf("VP-111"), "remove_rider:EMP-1083");
  await waitFor(`${caseId} to be cancelled`, async () => (await statusOf(caseId)) === "cancelled");
  return { caseId, alertBeforeDecisions };
}

/** VP-109 audited and its rider answered in a way no rule decides: the case needs a person. */
async function givenNeedsAPerson(): Promise<string> {
  await h.post(command(ALICE, "audit VP-109"));
  await h.bot.idle();
  const record = await h.db.prisma.case.findFirstOrThrow({ where: { vanpoolId: "VP-109", status: "pending_reply" } });
  const thread = await h.db.prisma.emailThread.findUniqueOrThrow({ where: { caseId: record.id } });
  await h.bot.ctx.workflow.receiveReply({
    threadId: thread.id,
    from: "kyle.jorgensen@northwind.example",
    body: "Ok, got it. Thanks for letting me know.",
  });
  await h.bot.messages.syncCase(record.id);
  expect(await statusOf(record.id)).toBe("hitl_review");
  return record.id;
}

describe("cards", () => {
  describe("a cancellation card with two riders, one of whom replied", () => {
    it("shows each rider's facts, the reply redacted, whether it was answered, and the true reason", async () => {
      const { caseId, card } = await givenCancellationCard();
      expect(await statusOf(caseId)).toBe("pre_cancel");
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

    it("refuses the full reply to a non-approver in the modal it opened, showing none of it", async () => {
      const { card } = await givenCancellationCard();
      const opened = h.fake.views(CAROL).length;
      await h.click(CAROL, card, /^show_full_reply/);
      const { text } = openedAtOnce(CAROL, opened, "Full reply");
      expect(text).toMatch(/Only approvers can read a rider's full reply/);
      expect(text).not.toMatch(/Maple|EMP-1028 \(Wendell\) wrote/);
      expect(await h.db.prisma.auditEvent.count({ where: { action: "reply.read_in_full" } })).toBe(0);
    });

    it("opens the full reply at once for an approver, fills it and records who read it", async () => {
      const { card } = await givenCancellationCard();
      const opened = h.fake.views(ALICE).length;
      await h.click(ALICE, card, /^show_full_reply/);
      const { text } = openedAtOnce(ALICE, opened, "Full reply");
      expect(text).toContain("1450 N. Maple Street, Apt 4B");
      expect(text).toContain("EMP-1028 (Wendell) wrote");
      expect(
        await h.db.prisma.auditEvent.count({ where: { action: "reply.read_in_full", actor: `slack:${ALICE}` } }),
      ).toBe(1);
    });

    it("shows the confidence of the failed check only", async () => {
      const { caseId } = await givenCancellationCard();
      const evidence = await findCaseEvidence(h.db.prisma, caseId);
      const alert = JSON.stringify(h.alertOf("VP-111").blocks);
      expect(alert).toContain(`Confidence of the failed check*\\n${evidence.location!.confidence}/5`);
    });
  });

  describe("deciding a cancellation per rider", () => {
    it("offers Remove and Keep for each rider, and Keep everyone with a reason", async () => {
      const { card } = await givenCancellationCard();
      expect(buttonsOf(card).map((b) => b.action_id)).toEqual(
        expect.arrayContaining([
          "remove_rider:EMP-1028",
          "keep_rider:EMP-1028",
          "remove_rider:EMP-1083",
          "keep_rider:EMP-1083",
          "reject_cancellation",
        ]),
      );
      expect(JSON.stringify(card.blocks)).toContain("Decide for each rider");
    });

    it("Keep everyone opens its modal at once and fills it with the reason to give; a non-approver sees why not", async () => {
      const { caseId, card } = await givenCancellationCard();
      const opened = h.fake.views(ALICE).length;
      await h.click(ALICE, card, /^reject_cancellation$/);
      const { modal, text } = openedAtOnce(ALICE, opened, "Keep everyone");
      expect(modal).toMatchObject({ title: { text: "Keep everyone" }, submit: { text: "Keep everyone" } });
      expect(text).toContain("every rider keeps their seat");
      expect(text).toContain('"label":{"type":"plain_text","text":"Reason"');

      const refusedBefore = await h.db.prisma.auditEvent.count({ where: { action: "approval.refused_not_approver" } });
      const carolOpened = h.fake.views(CAROL).length;
      await h.click(CAROL, card, /^reject_cancellation$/);
      const refused = openedAtOnce(CAROL, carolOpened, "Keep everyone");
      expect(refused.text).toContain("Only approvers can decide this. Nothing was changed.");
      expect(refused.modal.submit).toBeUndefined();
      expect(await h.db.prisma.auditEvent.count({ where: { action: "approval.refused_not_approver" } })).toBe(
        refusedBefore + 1,
      );
      expect(await statusOf(caseId)).toBe("pre_cancel");
    });

    it("Keep … asks why in the same form as every keep path, refuses a short reason in it, and records the choice", async () => {
      const { caseId, card } = await givenCancellationCard();
      const opened = h.fake.views(ALICE).length;
      await h.click(ALICE, card, "keep_rider:EMP-1028");
      const { modal, text } = openedAtOnce(ALICE, opened, "Keep a rider");
      expect(modal).toMatchObject({ submit: { text: "Keep" } });
      expect(text).toContain("EMP-1028 (Wendell) keeps their seat");
      // The rule is shown before submit, and the reasons carry their descriptions.
      expect(text).toContain("At least 5 characters");
      for (const reason of [
        "Moving soon",
        "Medical or accommodation",
        "Data error upstream",
        "Program manager decision",
        "Other",
      ])
        expect(text).toContain(`"text":"${reason}"`);
      expect(text).toContain("The records are wrong and are being corrected where they come from.");
      expect(text).toMatch(/At most 180; 180 when left empty/);
      // The same inputs as Keep everyone's form: one definition.
      const keepAll = h.fake.views(ALICE).length;
      await h.click(ALICE, card, /^reject_cancellation$/);
      const everyone = openedAtOnce(ALICE, keepAll, "Keep everyone").modal;
      const inputs = (view: { blocks?: unknown }) =>
        (view.blocks as { type: string; block_id?: string }[]).filter((b) => b.type === "input").map((b) => b.block_id);
      expect(inputs(everyone)).toEqual(inputs(modal));

      const view = h.fake.viewHistory(h.fake.views(ALICE)[opened]!.id).at(-1)!;
      const short = await h.post(
        h.fake.viewSubmissionPayload({
          user: { id: ALICE },
          view,
          values: { reason: "ok", exception_reason: "moving_soon" },
        }),
      );
      expect(await short.json()).toMatchObject({
        response_action: "errors",
        errors: { reject_reason: expect.any(String) },
      });
      expect(await h.db.prisma.riderDecision.count()).toBe(0);

      await h.post(
        h.fake.viewSubmissionPayload({
          user: { id: ALICE },
          view,
          values: { reason: "He moves to Sacramento in March.", exception_reason: "moving_soon", exception_days: "60" },
        }),
      );
      await h.bot.idle();
      const decision = await h.db.prisma.riderDecision.findFirstOrThrow({ where: { employeeId: "EMP-1028" } });
      expect([decision.decision, decision.decidedBy]).toEqual(["keep", ALICE]);
      const exception = await h.db.prisma.riderException.findFirstOrThrow({ where: { employeeId: "EMP-1028" } });
      expect([exception.reason, exception.note, exception.grantedBy]).toEqual([
        "moving_soon",
        "He moves to Sacramento in March.",
        ALICE,
      ]);
      expect(Math.round((exception.expiresAt.getTime() - exception.grantedAt.getTime()) / 86_400_000)).toBe(60);
      expect(await statusOf(caseId)).toBe("pre_cancel");
      expect(JSON.stringify(h.cancellationCardOf("VP-111").blocks)).toMatch(/Kept\* by <@U0ALICE>/);
      expect(h.fake.thread(AUDIT_CHANNEL, h.alertOf("VP-111").ts).map((m) => String(m.text))).toContainEqual(
        expect.stringMatching(
          /decided to keep EMP-1028 \(moving soon\)\. The cancellation is carried out once every rider is decided\./,
        ),
      );

      // A non-approver's Keep opens no form: the refusal is shown in the modal.
      const carolOpened = h.fake.views(CAROL).length;
      await h.click(CAROL, h.cancellationCardOf("VP-111"), "keep_rider:EMP-1083");
      const refused = openedAtOnce(CAROL, carolOpened, "Keep a rider");
      expect(refused.text).toContain("Only approvers can decide this. Nothing was changed.");
      expect(refused.modal.submit).toBeUndefined();
      expect(await h.db.prisma.riderDecision.count()).toBe(1);
    });

    it("refuses a click on a card shown before the case changed, and refreshes the card", async () => {
      const { caseId, card: stale } = await givenCancellationCard();
      const thread = await h.db.prisma.emailThread.findUniqueOrThrow({ where: { caseId } });
      await h.bot.ctx.workflow.receiveReply({
        threadId: thread.id,
        from: "wendell.ashby@northwind.example",
        body: "One more thing: my new shift starts Monday, I attached the letter from HR.",
      });
      await h.click(ALICE, stale, "remove_rider:EMP-1028");
      const told = h.fake.ephemerals(ALICE).at(-1)!.message;
      expect(told.text).toMatch(/^This case changed since this card was shown .*here is the current card/);
      expect(told.thread_ts).toBe(h.alertOf("VP-111").ts);
      expect(await h.db.prisma.riderDecision.count()).toBe(0);
      const refreshed = h.cancellationCardOf("VP-111");
      expect(refreshed.ts).toBe(stale.ts);
      expect(JSON.stringify(refreshed.blocks)).toContain("my new shift starts Monday");
      expect(buttonOf(refreshed, "keep_rider:EMP-1028").value).not.toBe(buttonOf(stale, "keep_rider:EMP-1028").value);
    });

    it("keeps one rider and removes the other, each recorded and carried out once", async () => {
      const { caseId, card: shown } = await givenCancellationCard();
      await h.keep(ALICE, shown, "EMP-1028");
      expect(await statusOf(caseId)).toBe("pre_cancel");
      const card = h.cancellationCardOf("VP-111");
      expect(JSON.stringify(card.blocks)).toMatch(/Kept\* by <@U0ALICE>/);
      expect(buttonsOf(card).map((b) => b.action_id)).not.toContain("keep_rider:EMP-1028");
      await h.click(BOB, card, "remove_rider:EMP-1083");
      // A second click on the same rider, from a screen that still shows the buttons, changes nothing.
      await h.click(ALICE, card, "remove_rider:EMP-1083");
      await waitFor(`${caseId} to be cancelled`, async () => (await statusOf(caseId)) === "cancelled");
      expect(
        await h.db.prisma.rider.findMany({
          where: { vanpoolId: "VP-111", employeeId: { in: ["EMP-1028", "EMP-1083"] } },
          select: { employeeId: true, status: true },
          orderBy: { employeeId: "asc" },
        }),
      ).toEqual([
        { employeeId: "EMP-1028", status: "active" },
        { employeeId: "EMP-1083", status: "removed" },
      ]);
      expect(await h.db.prisma.auditEvent.count({ where: { action: "rider.removed", subjectId: caseId } })).toBe(1);
      expect(
        await h.db.prisma.message.count({ where: { idempotencyKey: { startsWith: `${caseId}:removal_notice:` } } }),
      ).toBe(1);
      expect(h.fake.ephemerals(ALICE).at(-1)!.message.text).toMatch(/^Already approved by <@U0BOB>|already decided/);
    });
  });

  describe("a closed case", () => {
    it("View evidence opens a modal at once and fills it with the case's evidence", async () => {
      const { caseId } = await givenCancelled();
      const alert = h.alertOf("VP-111");
      const opened = h.fake.views(ALICE).length;
      await h.click(ALICE, alert, "view_evidence");
      const modal = h.fake.views(ALICE).at(-1)!;
      expect(h.fake.views(ALICE)).toHaveLength(opened + 1);
      expect(h.fake.viewHistory(modal.id).map((v) => JSON.stringify(v.blocks).includes("Loading…"))).toEqual([
        true,
        false,
      ]);
      expect(modal.title).toMatchObject({ text: "Case evidence" });
      expect(JSON.stringify(modal.blocks)).toContain(caseId);
      expect(JSON.stringify(modal.blocks)).toMatch(/Location|Shift/);
      // The rule each check applied, in words: not its setting names.
      expect(JSON.stringify(modal.blocks)).toMatch(
        /Policy: (homes within 50 miles of the pickup|a shift starting and ending within an hour of the van's on at least 80% of its days)/,
      );
      expect(JSON.stringify(modal.blocks)).not.toMatch(
        /max distance miles|tolerance minutes|day ratio|centroid|haversine|plurality|home coords|vanpool schedule/,
      );
      // The one place an approver reads exact distances; a member reads the channel's bands.
      expect(exactDistancesIn(JSON.stringify(modal.blocks))).not.toEqual([]);
      await h.click(CAROL, alert, "view_evidence");
      const memberModal = h.fake.views(CAROL).at(-1)!;
      const memberView = JSON.stringify(h.fake.viewHistory(memberModal.id).at(-1)!.blocks);
      expect(memberView).toMatch(/50-75 mi/);
      expect(exactDistancesIn(memberView)).toEqual([]);
    });

    it("has no Re-audit button; a re-audit from a stale alert leaves it and its evidence as decided", async () => {
      const { caseId, alertBeforeDecisions: staleAlert } = await givenCancelled();
      const closed = await h.db.prisma.case.findUniqueOrThrow({ where: { id: caseId } });
      expect(closed.status).toBe("cancelled");
      const evidenceBefore = await findCaseEvidence(h.db.prisma, caseId);
      const alert = h.alertOf("VP-111");
      expect(buttonsOf(alert).map((b) => b.action_id)).toEqual(["view_evidence"]);
      const alertBlocks = JSON.stringify(alert.blocks);

      await h.click(ALICE, staleAlert, "reaudit");
      expect(await h.db.prisma.case.findUniqueOrThrow({ where: { id: caseId } })).toMatchObject({
        status: "cancelled",
        updatedAt: closed.updatedAt,
      });
      expect(await findCaseEvidence(h.db.prisma, caseId)).toEqual(evidenceBefore);
      expect(JSON.stringify(h.fake.find((m) => m.ts === alert.ts)!.blocks)).toBe(alertBlocks);
      expect(h.fake.ephemerals(ALICE).at(-1)!.message.text).toMatch(
        /is closed and stays as decided|passes every check; no new case is needed|no case opened and no email sent\. Failing but kept: EMP-1028/,
      );
    });
  });

  describe("undoing a cancellation", () => {
    const currentCard = () => h.cancellationCardOf("VP-111");
    const undoButtons = () => buttonsOf(currentCard()).filter((b) => b.action_id === "undo_cancellation");

    it("offers Undo on the carried-out card; after the window a stale click is refused in words and the button goes", async () => {
      const { caseId } = await givenCancelled();
      await h.bot.messages.syncCase(caseId);
      const withUndo = currentCard();
      expect(undoButtons()).toHaveLength(1);
      expect(JSON.stringify(withUndo.blocks)).toMatch(/Undo is possible until <!date\^\d+\^\{time\}/);
      const realNow = h.deps.now;
      h.deps.now = () => new Date(realNow().getTime() + 11 * 60_000);
      try {
        await h.click(ALICE, withUndo, "undo_cancellation");
        expect(h.fake.ephemerals(ALICE).at(-1)!.message.text).toBe(
          "The 10 minutes to undo this cancellation are over; it stays as decided. Nothing was changed.",
        );
        expect(undoButtons()).toHaveLength(0);
        expect(await h.db.prisma.rider.count({ where: { employeeId: "EMP-1083", status: "removed" } })).toBe(1);
      } finally {
        h.deps.now = realNow;
      }
    });

    it("within the window reinstates the removed rider, retracts the notice and records it, once", async () => {
      const { caseId } = await givenCancelled();
      await h.bot.messages.syncCase(caseId);
      const card = currentCard();
      await h.click(CAROL, card, "undo_cancellation");
      expect(h.fake.ephemerals(CAROL).at(-1)!.message.text).toBe(
        "Only approvers can decide this. Nothing was changed.",
      );
      await h.click(ALICE, card, "undo_cancellation");
      await h.click(BOB, card, "undo_cancellation");
      expect(h.fake.ephemerals(BOB).at(-1)!.message.text).toBe(
        "This cancellation was already undone. Nothing was changed.",
      );
      expect(await h.db.prisma.rider.count({ where: { employeeId: "EMP-1083", status: "active" } })).toBe(1);
      // Undo means "decide again": the case waits for a person with the reinstated rider flagged.
      expect(await h.db.prisma.case.findUniqueOrThrow({ where: { id: caseId } })).toMatchObject({
        status: "hitl_review",
        outcome: null,
        meta: expect.objectContaining({ flagged: ["EMP-1083"] }),
      });
      const retraction = await h.db.prisma.message.findUniqueOrThrow({
        where: { idempotencyKey: `${caseId}:retraction:EMP-1083` },
      });
      expect(retraction.subject).toBe("Your vanpool membership in VP-111 continues");
      expect(
        await h.db.prisma.auditEvent.count({
          where: { action: "rider.reinstated", subjectId: caseId, actor: `person:${ALICE}` },
        }),
      ).toBe(1);
      const text = JSON.stringify(currentCard().blocks);
      expect(text).toMatch(/Reinstated\*: the removal was undone by <@U0ALICE>/);
      expect(text).toMatch(/Cancellation undone\* by <@U0ALICE> <!date.*>: EMP-1083 reinstated/);
      expect(undoButtons()).toHaveLength(0);
      expect(h.fake.thread(AUDIT_CHANNEL, h.alertOf("VP-111").ts).map((m) => String(m.text))).toContainEqual(
        expect.stringMatching(/^↩️ <@U0ALICE> undid the cancellation: EMP-1083 reinstated; .*retraction email/),
      );
    });
  });

  describe("a case that needs a person", () => {
    it("says on its alert what to decide, and is in the digest and App Home with its age", async () => {
      const caseId = await givenNeedsAPerson();
      const alert = JSON.stringify(h.alertOf("VP-109").blocks);
      expect(alert).toContain("What to decide");
      expect(alert).toMatch(/still fails|data is missing|drafted email/);

      await h.post(command(ALICE, "digest"));
      await h.bot.idle();
      const digest = h.fake
        .messages(AUDIT_CHANNEL)
        .filter((m) => /Pool Patrol digest/.test(String(m.text)))
        .at(-1)!;
      expect(JSON.stringify(digest.blocks)).toMatch(
        new RegExp(`Needs a person \\(\\d+\\)\\*\\\\n[^"]*• ${caseId} VP-109 · waiting`),
      );

      await h.post(
        h.fake.eventCallbackBody({
          event: { type: "app_home_opened", user: CAROL, channel: "D0CAROL", tab: "home", event_ts: "1.0" },
        }),
      );
      await h.bot.idle();
      expect(JSON.stringify(h.fake.home(CAROL)!.blocks)).toMatch(new RegExp(`\\*${caseId}\\* VP-109 · waiting`));
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
      expect((await ask(CAROL, "cases Resolved")).text).toMatch(/^Cases: Resolved \(\d+\)/);
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
      await givenNeedsAPerson();
      h.fake.failNext("chat.getPermalink", "message_not_found");
      const answer = await ask(CAROL, "status VP-109");
      expect(answer.text).toMatch(/\(VP-109\) is \*Needs a person\*/);
      expect(answer.text).not.toContain("case alert");
    });
  });

  describe("the actions of a case that needs a person", () => {
    const submit = async (user: string, values: Record<string, string>) => {
      const modal = h.fake.views(user).at(-1)!;
      const response = await h.post(h.fake.viewSubmissionPayload({ user: { id: user }, view: modal, values }));
      await h.bot.idle();
      return response;
    };

    it("offers re-audit, email a rider and close with a reason, to approvers only", async () => {
      await givenNeedsAPerson();
      const alert = h.alertOf("VP-109");
      expect(buttonsOf(alert).map((b) => b.action_id)).toEqual([
        "view_evidence",
        "reaudit",
        "email_rider",
        "close_resolved",
      ]);
      expect(JSON.stringify(alert.blocks)).toMatch(/Re-audit \(data fixed\)/);
      const views = h.fake.views(CAROL).length;
      await h.click(CAROL, alert, "close_resolved");
      const refused = openedAtOnce(CAROL, views, "Close as resolved");
      expect(refused.text).toContain("Only approvers can decide this. Nothing was changed.");
      expect(refused.modal.submit).toBeUndefined();
    });

    it("drafts an email to the rider that waits on an approval card, and sends it once approved", async () => {
      await givenNeedsAPerson();
      const sentBefore = await h.db.prisma.message.count({ where: { direction: "outbound", status: "sent" } });
      const opened = h.fake.views(ALICE).length;
      await h.click(ALICE, h.alertOf("VP-109"), "email_rider");
      const modal = openedAtOnce(ALICE, opened, "Email a rider").text;
      expect(modal).toMatch(/EMP-\d+ \([A-Z][a-z]+\)/);
      expect(modal).not.toMatch(/@northwind/);
      await submit(ALICE, { body: "Hello Kyle, could you confirm which shift you work from next week? Thank you." });
      expect(await h.db.prisma.message.count({ where: { direction: "outbound", status: "sent" } })).toBe(sentBefore);
      const thread = h.fake.thread(AUDIT_CHANNEL, h.alertOf("VP-109").ts);
      expect(
        thread.some((m) => /drafted an email to EMP-\d+; it is sent once an approver approves/.test(String(m.text))),
      );
      const draftCard = thread.find((m) => /^Email to EMP-\d+ \(\w+\) on CASE-\w+ needs review/.test(String(m.text)))!;
      expect(JSON.stringify(draftCard.blocks)).toContain("could you confirm which shift");
      expect(JSON.stringify(draftCard.blocks)).not.toMatch(/@northwind|not kept/);

      await h.click(BOB, draftCard, "approve_escalation_reply");
      await waitFor(
        "the approved email to be sent",
        async () =>
          (await h.db.prisma.message.count({ where: { direction: "outbound", status: "sent" } })) === sentBefore + 1,
      );
      const sent = await h.db.prisma.message.findFirstOrThrow({
        where: { direction: "outbound", body: { contains: "could you confirm which shift" } },
      });
      expect(sent.toAddresses).toEqual(["kyle.jorgensen@northwind.example"]);
    });

    it("closes the case as resolved with the reason in the trail and in the thread", async () => {
      const caseId = await givenNeedsAPerson();
      const opened = h.fake.views(ALICE).length;
      await h.click(ALICE, h.alertOf("VP-109"), "close_resolved");
      expect(openedAtOnce(ALICE, opened, "Close as resolved").text).toContain("Why is this resolved?");
      const blank = await submit(ALICE, { reason: "ok", exception_reason: "data_error" });
      expect(await blank.json()).toMatchObject({ response_action: "errors" });
      await submit(ALICE, {
        reason: "Kyle confirmed by phone he moved to the day shift; HR updated his record.",
        exception_reason: "data_error",
      });
      expect(await h.db.prisma.case.findUniqueOrThrow({ where: { id: caseId } })).toMatchObject({
        status: "resolved",
        outcome: "resolved",
      });
      const trail = await h.db.prisma.auditEvent.findFirstOrThrow({
        where: { subjectId: caseId, action: "case.status_changed", actor: `person:${ALICE}` },
      });
      expect(trail.details).toMatchObject({ to: "resolved", why: expect.stringContaining("confirmed by phone") });
      const alert = h.alertOf("VP-109");
      expect(buttonsOf(alert).map((b) => b.action_id)).toEqual(["view_evidence"]);
      expect(h.fake.thread(AUDIT_CHANNEL, alert.ts).at(-1)!.text).toMatch(
        /^✅ <@U0ALICE> closed CASE-\w+ as resolved: Kyle confirmed by phone/,
      );
    });
  });
});
