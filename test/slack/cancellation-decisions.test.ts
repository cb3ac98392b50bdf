// The two-person rule and the re-check before a removal, through signed requests to
// the real app with POOLPATROL_CANCEL_APPROVALS=2: the first approval is shown on the
// card, the same person cannot give the second, and a rider whose data was fixed
// meanwhile is not removed when the second approver confirms. Each test starts from the
// mock data on a fresh database, app and fake Slack.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ALICE, AUDIT_CHANNEL, BOB, type Harness, startHarness } from "../support/bot-harness.js";
import { buttonsOf } from "../support/slack/messages.js";
import { waitFor } from "../support/wait.js";

let h: Harness;
beforeEach(async () => {
  h = await startHarness({ env: { POOLPATROL_CANCEL_APPROVALS: "2" } });
});
afterEach(async () => {
  await h.close();
});

const statusOf = async (caseId: string) => (await h.db.prisma.case.findUniqueOrThrow({ where: { id: caseId } })).status;
const activeRiders = (employeeId: string) => h.db.prisma.rider.count({ where: { employeeId, status: "active" } });

describe("a removal under the two-person rule", () => {
  it("records the first approval on the card and refuses the same person's second click", async () => {
    await h.audit("VP-102");
    const { caseId } = await h.cancellationProposedFor("VP-102");
    expect(JSON.stringify(h.cancellationCardOf("VP-102").blocks)).toContain(
      "Removing a rider needs two different approvers",
    );

    await h.click(ALICE, h.cancellationCardOf("VP-102"), "remove_rider:EMP-1065");
    expect(h.fake.ephemerals(ALICE).at(-1)!.message.text).toMatch(/to remove EMP-1065 is recorded \(1 of 2\)/);
    expect(JSON.stringify(h.cancellationCardOf("VP-102").blocks)).toMatch(/1 of 2 approvals to remove: <@U0ALICE>/);
    expect(await statusOf(caseId)).toBe("pre_cancel");

    await h.click(ALICE, h.cancellationCardOf("VP-102"), "remove_rider:EMP-1065");
    const refusal = h.fake.ephemerals(ALICE).at(-1)!.message;
    expect(refusal.text).toMatch(/You already approved removing EMP-1065; a second, different approver must confirm/);
    expect(refusal.thread_ts).toBe(h.alertOf("VP-102").ts);
    expect(await activeRiders("EMP-1065")).toBe(1);
  });

  it("re-runs the rider's checks before removing: a rider who passes now stays, and the approver is told", async () => {
    await h.audit("VP-102");
    const { caseId } = await h.cancellationProposedFor("VP-102");
    await h.click(ALICE, h.cancellationCardOf("VP-102"), "remove_rider:EMP-1065");
    // Her home address is corrected after the first approval: she now lives near the work site.
    await h.db.prisma.employee.update({
      where: { id: "EMP-1065" },
      data: { homeZip: "95131", homeCity: "San Jose", homeLat: null, homeLng: null },
    });
    const { meta } = await h.db.prisma.case.findUniqueOrThrow({ where: { id: caseId } });
    for (const other of ((meta as { flagged?: string[] }).flagged ?? []).filter((id) => id !== "EMP-1065"))
      await h.keep(ALICE, h.cancellationCardOf("VP-102"), other);

    await h.click(BOB, h.cancellationCardOf("VP-102"), "remove_rider:EMP-1065");
    await waitFor(`${caseId} to be resolved`, async () => (await statusOf(caseId)) === "resolved");
    expect(await activeRiders("EMP-1065")).toBe(1);
    expect(await h.db.prisma.message.count({ where: { idempotencyKey: `${caseId}:removal_notice:EMP-1065` } })).toBe(0);
    await waitFor("the note that EMP-1065 was not removed", () =>
      h.fake
        .thread(AUDIT_CHANNEL, h.alertOf("VP-102").ts)
        .some((m) => /EMP-1065 not removed: the checks were run again just before/.test(String(m.text))),
    );
    const decided = await h.db.prisma.riderDecision.findFirstOrThrow({ where: { employeeId: "EMP-1065" } });
    expect(decided).toMatchObject({ decision: "remove", firstApprover: ALICE, decidedBy: BOB, outcome: "kept_passes" });
    await waitFor("the card to say Not removed", () =>
      /Not removed\*/.test(JSON.stringify(h.cancellationCardOf("VP-102").blocks)),
    );
    expect(buttonsOf(h.cancellationCardOf("VP-102")).filter((b) => /rider/.test(b.action_id))).toHaveLength(0);
  });

  it("takes two concurrent clicks one at a time: one first approval, one confirmation, one removal", async () => {
    const approval = await h.cancellationProposedFor("VP-113");
    const [rider] = (approval.payload as { employee_ids: string[] }).employee_ids;
    const card = h.cancellationCardOf("VP-113");
    await Promise.all([ALICE, BOB].map((user) => h.click(user, card, `remove_rider:${rider}`)));
    await waitFor(`${approval.caseId} to be cancelled`, async () => (await statusOf(approval.caseId)) === "cancelled");
    const decided = await h.db.prisma.riderDecision.findFirstOrThrow({ where: { approvalId: approval.id } });
    expect([decided.firstApprover, decided.decidedBy].sort()).toEqual([ALICE, BOB].sort());
    expect(await h.db.prisma.auditEvent.count({ where: { action: "rider.removed", subjectId: approval.caseId } })).toBe(
      1,
    );
    expect(
      await h.db.prisma.message.count({ where: { idempotencyKey: `${approval.caseId}:removal_notice:${rider}` } }),
    ).toBe(1);
  });

  it("does not let one person approve a whole cancellation outside the card", async () => {
    const approval = await h.cancellationProposedFor("VP-114");
    await expect(h.bot.ctx.workflow.decide(approval.id, "approve", ALICE)).rejects.toThrow(
      /needs 2 different approvers: decide each rider on the card/,
    );
    expect((await h.db.prisma.approvalRequest.findUniqueOrThrow({ where: { id: approval.id } })).status).toBe(
      "pending",
    );
  });
});
