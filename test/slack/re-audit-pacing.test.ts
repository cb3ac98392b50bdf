// Re-audit pacing (issue 28, point 4): the emails tell a rider that changes can take a business day to show up,
// so replies that come faster than that do not use up the three re-audits. A reply's re-audit counts only on
// changed data or at least one business day after the previous counted one; the case alert says when.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ALICE, AUDIT_CHANNEL, type Harness, startHarness } from "../support/bot-harness.js";

// Tuesday 2026-12-01, 9:00 in Los Angeles (the program's time zone).
const TUESDAY_9AM = Date.parse("2026-12-01T17:00:00Z");
const MINUTE = 60_000;
const WENDELL = "wendell.ashby@northwind.example";
const UPDATE = "I updated my home address in the HR portal this morning, please check again.";

let h: Harness;
let now = TUESDAY_9AM;
beforeEach(async () => {
  now = TUESDAY_9AM;
  h = await startHarness({ now: () => new Date(now) });
});
afterEach(async () => {
  await h.close();
});

/** VP-111 audited on Tuesday morning: Wendell (EMP-1028) and Diego were emailed about their home location. */
async function givenWaitingCase(): Promise<{ caseId: string; threadId: string }> {
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
  const thread = await h.db.prisma.emailThread.findUniqueOrThrow({ where: { caseId: record.id } });
  return { caseId: record.id, threadId: thread.id };
}

async function wendellReplies(threadId: string, at: number) {
  now = at;
  const result = await h.bot.ctx.workflow.receiveReply({ threadId, from: WENDELL, body: UPDATE });
  expect(result).toMatchObject({ handled: true });
}

const caseRow = (caseId: string) => h.db.prisma.case.findUniqueOrThrow({ where: { id: caseId } });
const cancellations = (caseId: string) =>
  h.db.prisma.approvalRequest.count({ where: { caseId, kind: "cancellation" } });
const alertText = () => JSON.stringify(h.alertOf("VP-111").blocks);

describe("three replies within ten minutes", () => {
  it("are each re-checked and answered, count as one re-audit and propose no cancellation", async () => {
    const { caseId, threadId } = await givenWaitingCase();
    await wendellReplies(threadId, TUESDAY_9AM + 2 * MINUTE);
    await wendellReplies(threadId, TUESDAY_9AM + 5 * MINUTE);
    await wendellReplies(threadId, TUESDAY_9AM + 9 * MINUTE);

    const record = await caseRow(caseId);
    expect(record.status).toBe("pending_reply");
    expect(record.reAuditCount).toBe(1);
    expect(await cancellations(caseId)).toBe(0);
    // Each reply was re-checked and got its answer (still failing, changes can take a business day).
    expect(await h.db.prisma.verificationRun.count({ where: { caseId, trigger: "re_audit" } })).toBe(3);
    const followUps = await h.db.prisma.message.findMany({
      where: { threadId, direction: "outbound", toAddresses: { has: WENDELL }, status: "sent" },
      orderBy: { sentAt: "asc" },
    });
    expect(followUps).toHaveLength(4); // the review, then one answer per reply
    // The deadline runs from the last email sent (the last answer), as the lifecycle says.
    expect(record.lastOutboundAt).toEqual(followUps.at(-1)!.sentAt);

    // The alert says how many counted and from when the next one counts: Wednesday 9:02 in Los Angeles.
    await h.bot.messages.syncCase(caseId);
    const nextCounts = Math.floor((TUESDAY_9AM + 2 * MINUTE + 86_400_000) / 1000);
    expect(alertText()).toContain(`Re-audits counted: 1 of 3; the next counts from <!date^${nextCounts}^`);
    // The Case Manager says the same in the case's thread.
    const alertTs = h.alertOf("VP-111").ts;
    await h.post(
      h.fake.userMessage({ user: ALICE, channel: AUDIT_CHANNEL, text: "what happens next?", thread_ts: alertTs }).body,
    );
    await h.bot.idle();
    expect(String(h.fake.thread(AUDIT_CHANNEL, alertTs).at(-1)!.text)).toContain(
      "A reply's re-audit counts toward the 3 again from **Dec 2, 9:02 AM**",
    );
  }, 120_000);

  it("a reply a business day later counts, and a reply on changed data counts at once", async () => {
    const { caseId, threadId } = await givenWaitingCase();
    await wendellReplies(threadId, TUESDAY_9AM + 2 * MINUTE);
    await wendellReplies(threadId, TUESDAY_9AM + 86_400_000);
    expect((await caseRow(caseId)).reAuditCount).toBe(1);
    await wendellReplies(threadId, TUESDAY_9AM + 2 * MINUTE + 86_400_000);
    expect((await caseRow(caseId)).reAuditCount).toBe(2);

    // Ten minutes later his record changed (still too far): that re-audit counts, the third, and a person
    // is asked to approve a cancellation.
    await h.db.prisma.employee.update({
      where: { id: "EMP-1028" },
      data: { homeCity: "Redding", homeZip: "96001", homeLat: null, homeLng: null },
    });
    await wendellReplies(threadId, TUESDAY_9AM + 12 * MINUTE + 86_400_000);
    const record = await caseRow(caseId);
    expect(record.reAuditCount).toBe(3);
    expect(record.status).toBe("pre_cancel");
    expect(await cancellations(caseId)).toBe(1);
  }, 120_000);
});
