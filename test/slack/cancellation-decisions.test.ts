// The two-person rule and the re-check before a removal, through signed requests to
// the real app with POOLPATROL_CANCEL_APPROVALS=2: the first approval is shown on the
// card, the same person cannot give the second, and a rider whose data was fixed
// meanwhile is not removed when the second approver confirms.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALICE, AUDIT_CHANNEL, BOB, type Harness, startHarness } from "./harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ env: { POOLPATROL_CANCEL_APPROVALS: "2" } });
});
afterAll(async () => {
  await h.close();
});

type Shown = { ts: string; text?: string; blocks?: unknown[]; thread_ts?: string };
type Element = { type: string; action_id: string; value: string };
const buttonsOf = (message: { blocks?: unknown[] }) =>
  ((message.blocks ?? []) as { elements?: Element[]; accessory?: Element }[])
    .flatMap((b) => [...(b.elements ?? []), ...(b.accessory ? [b.accessory] : [])])
    .filter((e) => e.type === "button")
    .map((e) => ({ action_id: e.action_id, value: e.value }));
const alertOf = (vanpoolId: string) =>
  h.fake.messages(AUDIT_CHANNEL).find((m) => String(m.text).startsWith(vanpoolId) && String(m.text).includes("CASE-"))!;
const cardOf = (vanpoolId: string) =>
  h.fake.thread(AUDIT_CHANNEL, alertOf(vanpoolId).ts).find((m) => /^Cancellation of/.test(String(m.text)))!;
async function click(user: string, message: Shown, actionId: string) {
  const action = buttonsOf(message).find((b) => b.action_id === actionId)!;
  expect(action).toBeDefined();
  await h.post(
    h.fake.blockActionPayload({ user: { id: user }, channel: AUDIT_CHANNEL, message: message as never, action }),
  );
  await h.bot.idle();
}
async function waitFor(done: () => Promise<boolean>, ms = 20_000) {
  const until = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > until) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("a removal under the two-person rule", () => {
  let caseId = "";

  it("records the first approval on the card and refuses the same person's second click", async () => {
    await h.post(
      h.fake.slashCommandBody({
        command: "/poolpatrol",
        text: "audit VP-102",
        user_id: ALICE,
        channel_id: AUDIT_CHANNEL,
      }),
    );
    await h.bot.idle();
    await h.bot.ctx.workflow.tick(new Date(Date.now() + 9 * 86_400_000));
    caseId = (await h.db.prisma.case.findFirstOrThrow({ where: { vanpoolId: "VP-102", status: "pre_cancel" } })).id;
    await h.bot.messages.syncCase(caseId);
    expect(JSON.stringify(cardOf("VP-102").blocks)).toContain("Removing a rider needs two different approvers");

    await click(ALICE, cardOf("VP-102"), "remove_rider:EMP-1065");
    expect(h.fake.ephemerals(ALICE).at(-1)!.message.text).toMatch(/to remove EMP-1065 is recorded \(1 of 2\)/);
    expect(JSON.stringify(cardOf("VP-102").blocks)).toMatch(/1 of 2 approvals to remove: <@U0ALICE>/);
    expect((await h.db.prisma.case.findUniqueOrThrow({ where: { id: caseId } })).status).toBe("pre_cancel");

    await click(ALICE, cardOf("VP-102"), "remove_rider:EMP-1065");
    const refusal = h.fake.ephemerals(ALICE).at(-1)!.message;
    expect(refusal.text).toMatch(/You already approved removing EMP-1065; a second, different approver must confirm/);
    expect(refusal.thread_ts).toBe(alertOf("VP-102").ts);
    expect(await h.db.prisma.rider.count({ where: { employeeId: "EMP-1065", status: "active" } })).toBe(1);
  });

  it("re-runs the rider's checks before removing: a rider who passes now stays, and the approver is told", async () => {
    // Her home address was corrected after the card was posted: she now lives near the work site.
    await h.db.prisma.employee.update({
      where: { id: "EMP-1065" },
      data: { homeZip: "95131", homeCity: "San Jose", homeLat: null, homeLng: null },
    });
    const { meta } = await h.db.prisma.case.findUniqueOrThrow({ where: { id: caseId } });
    for (const other of ((meta as { flagged?: string[] }).flagged ?? []).filter((id) => id !== "EMP-1065"))
      await click(ALICE, cardOf("VP-102"), `keep_rider:${other}`);
    await click(BOB, cardOf("VP-102"), "remove_rider:EMP-1065");
    await waitFor(
      async () => (await h.db.prisma.case.findUniqueOrThrow({ where: { id: caseId } })).status === "resolved",
    );
    expect(await h.db.prisma.rider.count({ where: { employeeId: "EMP-1065", status: "active" } })).toBe(1);
    expect(await h.db.prisma.message.count({ where: { idempotencyKey: `${caseId}:removal_notice:EMP-1065` } })).toBe(0);
    await waitFor(async () =>
      h.fake
        .thread(AUDIT_CHANNEL, alertOf("VP-102").ts)
        .some((m) => /EMP-1065 not removed: the checks were run again just before/.test(String(m.text))),
    );
    const decided = await h.db.prisma.riderDecision.findFirstOrThrow({ where: { employeeId: "EMP-1065" } });
    expect(decided).toMatchObject({ decision: "remove", firstApprover: ALICE, decidedBy: BOB, outcome: "kept_passes" });
    await waitFor(async () => /Not removed\*/.test(JSON.stringify(cardOf("VP-102").blocks)));
    expect(buttonsOf(cardOf("VP-102")).filter((b) => /rider/.test(b.action_id))).toHaveLength(0);
  });

  it("takes two concurrent clicks one at a time: one first approval, one confirmation, one removal", async () => {
    const approval = await h.db.prisma.approvalRequest.findFirstOrThrow({
      where: { status: "pending", kind: "cancellation", case: { vanpoolId: "VP-113" } },
    });
    await h.bot.messages.syncCase(approval.caseId);
    const [rider] = (approval.payload as { employee_ids: string[] }).employee_ids;
    const card = cardOf("VP-113");
    await Promise.all([ALICE, BOB].map((user) => click(user, card, `remove_rider:${rider}`)));
    await waitFor(
      async () => (await h.db.prisma.case.findUniqueOrThrow({ where: { id: approval.caseId } })).status === "cancelled",
    );
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
    const approval = await h.db.prisma.approvalRequest.findFirstOrThrow({
      where: { status: "pending", kind: "cancellation", case: { vanpoolId: "VP-114" } },
    });
    await expect(h.bot.ctx.workflow.decide(approval.id, "approve", ALICE)).rejects.toThrow(
      /needs 2 different approvers: decide each rider on the card/,
    );
    expect((await h.db.prisma.approvalRequest.findUniqueOrThrow({ where: { id: approval.id } })).status).toBe(
      "pending",
    );
  });
});
