// Decisions that stick (docs/exceptions.md), played through signed requests to the real app: Alex keeps
// Wendell and undoes Diego's removal on VP-111, then closes the case keeping Diego too. A sweep finds both
// still failing on the same facts: no case, no email, and the summary names who kept them. Wendell's ZIP
// changes: he alone is audited again, and his new case shows the earlier exception. Once Diego's shorter
// exception has expired (an injected clock), he is audited again too.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALICE, AUDIT_CHANNEL, type Harness, startHarness } from "../support/bot-harness.js";
import type { SlackMessage } from "../support/slack/fake-slack.js";
import { waitFor } from "../support/wait.js";

const WENDELL = "EMP-1028";
const DIEGO = "EMP-1083";
const DAY = 86_400_000;

let h: Harness;
let offsetMs = 0;
/** The first case on VP-111, where Wendell was kept and Diego's removal undone. */
let firstCase = "";
beforeAll(async () => {
  h = await startHarness({ sweeps: true, now: () => new Date(Date.now() + offsetMs) });
});
afterAll(async () => {
  await h.close();
});

const emailsTo = (employeeId: string) =>
  h.db.prisma.message.count({
    where: { direction: "outbound", status: { in: ["sent", "queued"] }, toAddresses: { has: emailOf(employeeId) } },
  });
const emailOf = (employeeId: string) =>
  ({ [WENDELL]: "wendell.ashby@northwind.example", [DIEGO]: "diego.fuentes@northwind.example" })[employeeId]!;
const openCaseOf = (vanpoolId: string) =>
  h.db.prisma.case.findFirst({ where: { vanpoolId, status: { notIn: ["resolved", "cancelled"] } } });
const flaggedOf = (meta: unknown) => (meta as { flagged: string[] }).flagged;
const text = (message: SlackMessage) => JSON.stringify(message.blocks);

/** ALICE asks "has wendell been flagged before?" in a case alert's thread; the Case Manager's answer. */
async function historyAnswerIn(caseId: string): Promise<string> {
  const { slackTs } = await h.db.prisma.case.findUniqueOrThrow({ where: { id: caseId } });
  const asked = h.fake.userMessage({
    user: ALICE,
    channel: AUDIT_CHANNEL,
    text: "has wendell been flagged before?",
    thread_ts: slackTs!,
  });
  await h.post(asked.body);
  let answer: SlackMessage | undefined;
  await waitFor("the Case Manager's answer", () => {
    answer = h.fake
      .thread(AUDIT_CHANNEL, slackTs!)
      .find((m) => m.bot_id && Number(m.ts) > Number(asked.message.ts) && /flagged/.test(String(m.text)));
    return Boolean(answer);
  });
  return String(answer?.text);
}

/** Alex submits the modal the last click opened, with these inputs. */
async function submitModal(values: Record<string, string>) {
  const modal = h.fake.views(ALICE).at(-1)!;
  expect((await h.post(h.fake.viewSubmissionPayload({ user: { id: ALICE }, view: modal, values }))).status).toBe(200);
  await h.bot.idle();
}

/** `/poolpatrol audit all`, then the finished sweep's summary in the channel. */
async function sweep(): Promise<SlackMessage> {
  const before = await h.db.prisma.sweep.count();
  expect((await h.command(ALICE, "audit all")).text).toMatch(/Auditing every vanpool/);
  await waitFor("the sweep to finish", async () => {
    const done = await h.db.prisma.sweep.findMany({ where: { finishedAt: { not: null } } });
    return done.length === before + 1;
  });
  let summary: SlackMessage | undefined;
  await waitFor("the finished sweep's summary", () => {
    summary = h.fake
      .messages(AUDIT_CHANNEL)
      .filter((m) => /^Audit of every vanpool: /.test(String(m.text)))
      .at(before);
    return Boolean(summary);
  });
  await h.bot.idle();
  return summary!;
}

describe("an exception survives later sweeps", { shuffle: false }, () => {
  it("keeps Wendell and, after the undo, Diego: the sweep opens no case and sends no email", async () => {
    await h.audit("VP-111");
    const approval = await h.cancellationProposedFor("VP-111");
    firstCase = approval.caseId;
    expect((approval.payload as { employee_ids: string[] }).employee_ids.sort()).toEqual([WENDELL, DIEGO]);

    await h.keep(ALICE, h.cancellationCardOf("VP-111"), WENDELL);
    await h.click(ALICE, h.cancellationCardOf("VP-111"), `remove_rider:${DIEGO}`);
    await waitFor("the cancellation to be carried out", async () =>
      Boolean(await h.db.prisma.riderDecision.findFirst({ where: { employeeId: DIEGO, outcome: "removed" } })),
    );
    await waitFor("Undo on the card", () => /undo_cancellation/.test(text(h.cancellationCardOf("VP-111"))));
    await h.click(ALICE, h.cancellationCardOf("VP-111"), "undo_cancellation");

    // Undo means "decide again": the case waits for a person, and the card never says it is cancelled.
    const undone = await h.db.prisma.case.findUniqueOrThrow({ where: { id: approval.caseId } });
    expect(undone.status).toBe("hitl_review");
    expect(flaggedOf(undone.meta)).toEqual([DIEGO]);
    await waitFor("the card to say the cancellation was undone", () =>
      /Cancellation undone/.test(text(h.cancellationCardOf("VP-111"))),
    );
    expect(text(h.cancellationCardOf("VP-111"))).not.toMatch(/is Cancelled|The case is resolved/);
    expect((await h.bot.digest.build(new Date(Date.now() - DAY))).blocks.map((b) => JSON.stringify(b)).join()).toMatch(
      /Reversals \(cancellations rejected or undone\)\*\\n1/,
    );

    // Alex decides again: Diego stays, for 30 days, because the data is wrong upstream.
    await h.click(ALICE, h.alertOf("VP-111"), "close_resolved");
    await submitModal({
      reason: "HR is correcting his address.",
      exception_reason: "data_error",
      exception_days: "30",
    });
    await waitFor("the case to close", async () => !(await openCaseOf("VP-111")));

    const exceptions = await h.db.prisma.riderException.findMany({ orderBy: { employeeId: "asc" } });
    expect(exceptions.map((e) => [e.employeeId, e.check, e.reason, e.grantedBy])).toEqual([
      [WENDELL, "location", "program_manager", ALICE],
      [DIEGO, "location", "data_error", ALICE],
    ]);
    expect(Math.round((exceptions[1]!.expiresAt.getTime() - exceptions[1]!.grantedAt.getTime()) / DAY)).toBe(30);

    const emails = { wendell: await emailsTo(WENDELL), diego: await emailsTo(DIEGO) };
    const casesBefore = await h.db.prisma.case.count({ where: { vanpoolId: "VP-111" } });
    const summary = await sweep();
    expect(await h.db.prisma.case.count({ where: { vanpoolId: "VP-111" } })).toBe(casesBefore);
    expect({ wendell: await emailsTo(WENDELL), diego: await emailsTo(DIEGO) }).toEqual(emails);
    expect(summary.text).toMatch(/2 failing riders kept by an exception/);
    expect(text(summary)).toMatch(
      /EMP-1028 on VP-111 \(location\): kept by <@U0ALICE> until .*\(program manager decision\)/,
    );
    expect(text(summary)).toMatch(
      /EMP-1083 on VP-111 \(location\): kept by <@U0ALICE> until .*\(data error upstream\)/,
    );
    expect((await h.command(ALICE, "status VP-111")).text).toMatch(
      /VP-111 has no open case\.\nFailing but kept: EMP-1028 on VP-111 \(location\): kept by <@U0ALICE> until/,
    );
  });

  it("audits Wendell again once his home changed, and his new case shows the earlier exception", async () => {
    // Still far away, but a different home than the one he was kept on.
    await h.db.prisma.employee.update({ where: { id: WENDELL }, data: { homeZip: "95380", homeCity: "Turlock" } });
    const emails = { wendell: await emailsTo(WENDELL), diego: await emailsTo(DIEGO) };
    await sweep();
    const opened = await openCaseOf("VP-111");
    expect(opened && flaggedOf(opened.meta)).toEqual([WENDELL]);
    await waitFor("Wendell's new email", async () => (await emailsTo(WENDELL)) === emails.wendell + 1);
    expect(await emailsTo(DIEGO)).toBe(emails.diego);
    let alert: SlackMessage | undefined;
    await waitFor("the new case's alert", () => {
      alert = h.fake.find((m) => String(m.text).includes(opened!.id) && String(m.text).startsWith("VP-111"));
      return Boolean(alert);
    });
    // Diego still fails the same check on the same facts: listed, but marked as kept, not as flagged.
    expect(text(alert!)).toMatch(/• EMP-1083(?: \(Diego\))? · [^•]*kept by an exception/);
    expect(text(alert!)).not.toMatch(/• EMP-1028 \(Wendell\) · [^•\\]*kept by an exception/);
    expect(text(alert!)).toMatch(
      /Kept before\*\\n• EMP-1028 on VP-111 \(location\): kept by <@U0ALICE> until .*\(program manager decision\); their home changed since\./,
    );
    // History follows the rider: the earlier case, how it ended for him and who kept him.
    expect(text(alert!)).toMatch(
      new RegExp(
        `Flagged before\\*\\\\nEMP-1028 \\(Wendell\\)\\\\n• ${firstCase} on VP-111, opened .*: resolved on [^;]+; kept by a person; kept by <@U0ALICE> until .*\\(program manager decision\\); no reply`,
      ),
    );

    // The Case Manager reads the history relative to the case asked about: in the first case's thread, the later
    // case is not an earlier one.
    expect(await historyAnswerIn(firstCase)).toMatch(
      /Wendell Ashby \(EMP-1028\) has not been flagged on any earlier case/,
    );

    // The new case's alert sits in the sweep summary's thread, so a question is asked there, naming the vanpool.
    const summaryTs = alert!.thread_ts!;
    const asked = h.fake.userMessage({
      user: ALICE,
      channel: AUDIT_CHANNEL,
      text: "why did VP-111 fail?",
      thread_ts: summaryTs,
    });
    await h.post(asked.body);
    await waitFor("the answer in the sweep's thread", () =>
      h.fake
        .thread(AUDIT_CHANNEL, summaryTs)
        .some((m) => m.bot_id && Number(m.ts) > Number(asked.message.ts) && /Wendell/.test(String(m.text))),
    );

    // The reply deadline passes; Alex keeps everyone again, now on his new home.
    await h.bot.ctx.workflow.tick(new Date(Date.now() + 9 * DAY));
    await h.bot.idle();
    await waitFor("the new cancellation card", () =>
      h.fake.thread(AUDIT_CHANNEL, alert!.thread_ts ?? alert!.ts).some((m) => /Cancellation of/.test(String(m.text))),
    );
    const card = h.fake
      .thread(AUDIT_CHANNEL, alert!.thread_ts ?? alert!.ts)
      .find((m) => /Cancellation of/.test(String(m.text)))!;
    // Diego fails too, but his exception holds: the re-audit does not put him on this case.
    const proposed = await h.db.prisma.approvalRequest.findFirstOrThrow({
      where: { caseId: opened!.id, kind: "cancellation" },
    });
    expect((proposed.payload as { employee_ids: string[] }).employee_ids).toEqual([WENDELL]);
    expect(text(card)).toMatch(new RegExp(`🗂️ Flagged before:\\\\n• ${firstCase} on VP-111`));
    await h.click(ALICE, card, "reject_cancellation");
    await submitModal({ reason: "He moves next month, as he told us.", exception_reason: "moving_soon" });
    await waitFor("the case to close", async () => !(await openCaseOf("VP-111")));
  });

  it("audits Diego again once his exception has expired", async () => {
    offsetMs = 31 * DAY;
    const emails = { wendell: await emailsTo(WENDELL), diego: await emailsTo(DIEGO) };
    await sweep();
    const opened = await openCaseOf("VP-111");
    expect(opened && flaggedOf(opened.meta)).toEqual([DIEGO]);
    await waitFor("Diego's new email", async () => (await emailsTo(DIEGO)) === emails.diego + 1);
    expect(await emailsTo(WENDELL)).toBe(emails.wendell);
    let alert: SlackMessage | undefined;
    await waitFor("the new case's alert", () => {
      alert = h.fake.find((m) => String(m.text).includes(opened!.id) && String(m.text).startsWith("VP-111"));
      return Boolean(alert);
    });
    expect(text(alert!)).toMatch(
      /EMP-1083 on VP-111 \(location\): kept by <@U0ALICE> until .*\(data error upstream\); it has expired\./,
    );
    expect(text(alert!)).toMatch(
      new RegExp(
        `• ${firstCase} on VP-111, opened .*: resolved on [^;]+; removed, then reinstated \\(undone\\); kept by <@U0ALICE> until .*\\(data error upstream\\)`,
      ),
    );
  });
});
