// Words around decisions (issue 28, point 7): what a modal promises is what happens, a modal's rule is shown before
// submit and its refusal in the modal, App Home counts the cases that need a person and offers their actions, and
// only approvers post the digest on demand, which never moves the scheduled digest's window.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ALICE, AUDIT_CHANNEL, BOB, CAROL, type Harness, startHarness } from "../support/bot-harness.js";
import { buttonOf } from "../support/slack/messages.js";

let h: Harness;
/** When set, the app's clock stands still here (the digest's default window is counted back from now). */
let frozenAt: number | undefined;
beforeEach(async () => {
  frozenAt = undefined;
  h = await startHarness({ now: () => new Date(frozenAt ?? Date.now()) });
});
afterEach(async () => {
  await h.close();
});

const command = async (user: string, text: string) =>
  h.command(user, text).finally(async () => {
    await h.bot.idle();
  });
const submit = async (user: string, values: Record<string, string>) => {
  const response = await h.post(
    h.fake.viewSubmissionPayload({ user: { id: user }, view: h.fake.views(user).at(-1)!, values }),
  );
  await h.bot.idle();
  return response;
};
const lastModalText = (user: string) => JSON.stringify(h.fake.views(user).at(-1)!.blocks);

/** VP-109 audited and Kyle only acknowledged: the case needs a person. */
async function givenNeedsAPerson(): Promise<string> {
  await command(ALICE, "audit VP-109");
  const record = await h.db.prisma.case.findFirstOrThrow({ where: { vanpoolId: "VP-109", status: "pending_reply" } });
  const thread = await h.db.prisma.emailThread.findUniqueOrThrow({ where: { caseId: record.id } });
  await h.bot.ctx.workflow.receiveReply({
    threadId: thread.id,
    from: "kyle.jorgensen@northwind.example",
    body: "Ok, got it. Thanks for letting me know.",
  });
  await h.bot.messages.syncCase(record.id);
  expect((await h.db.prisma.case.findUniqueOrThrow({ where: { id: record.id } })).status).toBe("hitl_review");
  return record.id;
}

describe("rejecting an email a person drafted on a case that needs a person", () => {
  it("promises what happens (the case still needs a person) and the card says so, in words", async () => {
    const caseId = await givenNeedsAPerson();
    await h.click(ALICE, h.alertOf("VP-109"), "email_rider");
    await submit(ALICE, { body: "Hello Kyle, could you confirm which shift you work from next week? Thank you." });
    const draft = h.cardWith("VP-109", "reject_escalation_reply");
    await h.click(BOB, draft, "reject_escalation_reply");
    const modal = lastModalText(BOB);
    expect(modal).toContain("the case still needs a person");
    expect(modal).not.toContain("goes back to waiting for replies");
    await submit(BOB, { reason: "Kyle already answered by phone." });

    expect((await h.db.prisma.case.findUniqueOrThrow({ where: { id: caseId } })).status).toBe("hitl_review");
    const decided = h.fake.messageHistory(draft.ts).at(-1)!;
    const text = JSON.stringify(decided.blocks);
    expect(text).toContain(`Nothing was sent; ${caseId} is Needs a person.`);
    expect(text).not.toMatch(/agent was no longer waiting/);
  }, 120_000);
});

describe("a decision's reason", () => {
  it("shows its minimum length before submit, and a short one is refused in the modal saying why", async () => {
    const caseId = await givenNeedsAPerson();
    await h.click(ALICE, h.alertOf("VP-109"), "close_resolved");
    expect(lastModalText(ALICE)).toContain("At least 5 characters; it is recorded with the decision.");
    const refused = await submit(ALICE, { reason: "ok", exception_reason: "data_error" });
    expect(await refused.json()).toEqual({
      response_action: "errors",
      errors: { reject_reason: "Write at least 5 characters: the reason is recorded with the decision." },
    });
    expect((await h.db.prisma.case.findUniqueOrThrow({ where: { id: caseId } })).status).toBe("hitl_review");
  }, 120_000);
});

describe("App Home", () => {
  it("counts the cases that need a person as waiting for an approver, with their actions", async () => {
    const caseId = await givenNeedsAPerson();
    await h.post(
      h.fake.eventCallbackBody({
        event: { type: "app_home_opened", user: ALICE, channel: "D0ALICE", tab: "home", event_ts: "1.0" },
      }),
    );
    await h.bot.idle();
    const home = h.fake.home(ALICE)!;
    const text = JSON.stringify(home.blocks);
    const needing = await h.db.prisma.case.count({ where: { status: "hitl_review" } });
    expect(needing).toBeGreaterThan(0);
    expect(text).not.toContain("Nothing to decide.");
    expect(text).toMatch(/Waiting for you \(([1-9]\d*)\)/);
    expect(Number(/Waiting for you \((\d+)\)/.exec(text)![1])).toBeGreaterThanOrEqual(needing);

    // Its Close as resolved… opens the same modal as on the case alert.
    const close = buttonOf(home as { blocks?: unknown[] }, `close_resolved:${caseId}`);
    const opened = h.fake.views(ALICE).length;
    await h.post(h.fake.blockActionPayload({ user: { id: ALICE }, view: home, action: { ...close } }));
    await h.bot.idle();
    expect(h.fake.views(ALICE).length).toBe(opened + 1);
    expect(lastModalText(ALICE)).toContain(`${caseId} · VP-109: no rider is removed`);
  }, 120_000);
});

describe("the digest on demand", () => {
  it("is refused to a non-approver, and never moves the window of the next digest", async () => {
    const refused = await command(CAROL, "digest");
    expect(refused.text).toMatch(/^Only approvers can post the digest/);
    const digests = () => h.fake.messages(AUDIT_CHANNEL).filter((m) => String(m.text).startsWith("Pool Patrol digest"));
    expect(digests()).toHaveLength(0);

    frozenAt = Date.now();
    await command(ALICE, "digest");
    await command(ALICE, "digest");
    const since = digests().map((m) => /Since <!date\^(\d+)\^/.exec(JSON.stringify(m.blocks))?.[1]);
    expect(since).toHaveLength(2);
    expect(since[0]).toBeDefined();
    expect(since[1]).toBe(since[0]);
  }, 120_000);
});
