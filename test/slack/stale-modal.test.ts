// A decision modal is bound to the card it was opened from: if the case changes while the modal is
// open (here a second email from the rider), submitting it decides nothing and says why.
import { afterAll, beforeAll, expect, it } from "vitest";
import { ALICE, AUDIT_CHANNEL, type Harness, startHarness } from "../support/bot-harness.js";
import { actionButtonsOf, buttonOf } from "../support/slack/messages.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

it("refuses an Edit submitted after the rider wrote again, sends nothing, and refreshes the card", async () => {
  await h.audit("VP-111");
  const record = await h.db.prisma.case.findFirstOrThrow({ where: { vanpoolId: "VP-111", status: "pending_reply" } });
  const thread = await h.db.prisma.emailThread.findUniqueOrThrow({ where: { caseId: record.id } });
  const from = "wendell.ashby@northwind.example";
  await h.bot.ctx.workflow.receiveReply({ threadId: thread.id, from, body: "This is ridiculous, I want a manager." });
  await h.bot.idle();
  const alertTs = h.alertOf("VP-111").ts;
  const card = h.cardWith("VP-111", "edit_escalation_reply");
  const edit = buttonOf(card, "edit_escalation_reply");
  await h.click(ALICE, card, "edit_escalation_reply");
  const modal = h.fake.views(ALICE).at(-1)!;

  await h.bot.ctx.workflow.receiveReply({
    threadId: thread.id,
    from,
    body: "Sorry, I was upset. My address is right, I'd just like a call back.",
  });
  await h.bot.idle();
  const edited = "Hi Wendell, a coordinator will call you tomorrow; nothing changes meanwhile. Thank you.";
  expect(
    (await h.post(h.fake.viewSubmissionPayload({ user: { id: ALICE }, view: modal, values: { body: edited } }))).status,
  ).toBe(200);
  await h.bot.idle();

  const told = h.fake.ephemerals(ALICE).at(-1)!.message;
  expect(told.text).toMatch(/^This case changed since this card was shown/);
  expect(told.thread_ts).toBe(alertTs);
  expect(await h.db.prisma.message.count({ where: { body: edited } })).toBe(0);
  const refreshed = h.fake.thread(AUDIT_CHANNEL, alertTs).find((m) => m.ts === card.ts)!;
  // Refreshed in place: its buttons now carry the case as it is, so a click on it goes through.
  expect(actionButtonsOf(refreshed).find((b) => b.action_id === "edit_escalation_reply")!.value).not.toBe(edit.value);
});
