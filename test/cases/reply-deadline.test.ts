// A case past its riders' reply deadline does not stay "waiting" (DESIGN: 7 days after the last email with no reply,
// re-audit; fail -> a cancellation request). The reply-timeout job is due days ahead on the database's own clock, as
// for a case whose job never ran (a case imported with its emails, a job lost, a held draft rejected after its job
// found the case with a person); the bot's clock is injected. An audit asked for in Slack then times the case out
// instead of telling it is still waiting; before the deadline it does not, and asking again adds nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALICE, AUDIT_CHANNEL, type Harness, startHarness } from "../support/bot-harness.js";
import { waitFor } from "../support/wait.js";

const DAY = 86_400_000;
let offsetMs = 0;
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ now: () => new Date(Date.now() + offsetMs) });
}, 120_000);
afterAll(async () => {
  await h?.close();
});

const caseOf = (vanpoolId: string) => h.db.prisma.case.findFirstOrThrow({ where: { vanpoolId } });
const timeoutsOf = (caseId: string) =>
  h.db.prisma.auditEvent.count({ where: { subjectId: caseId, action: "case.reply_timeout" } });
const cancellationsOf = (caseId: string) =>
  h.db.prisma.approvalRequest.count({ where: { caseId, kind: "cancellation" } });
const alertText = (vanpoolId: string) => JSON.stringify(h.alertOf(vanpoolId).blocks);

describe("a case past its reply deadline", () => {
  it("is timed out by the next audit, never before the deadline, and once", async () => {
    await h.audit("VP-111");
    const vp111 = await waitFor("VP-111's case", () => h.db.prisma.case.findFirst({ where: { vanpoolId: "VP-111" } }));
    await waitFor("the first emails sent", async () => (await caseOf("VP-111")).lastOutboundAt);

    // Six days on: nothing is due, the audit leaves the case waiting.
    offsetMs = 6 * DAY;
    await h.audit("VP-111");
    expect((await caseOf("VP-111")).status).toBe("pending_reply");
    expect(await timeoutsOf(vp111.id)).toBe(0);

    // Eight days on, no reply: Alex's audit times the case out, re-checked and proposed for cancellation.
    offsetMs = 8 * DAY;
    await h.audit("VP-111");
    await waitFor("VP-111 timed out", async () => (await caseOf("VP-111")).status === "pre_cancel");
    expect(await timeoutsOf(vp111.id)).toBe(1);
    expect(await cancellationsOf(vp111.id)).toBe(1);
    await waitFor("the cancellation card", () => {
      try {
        return h.cancellationCardOf("VP-111");
      } catch {
        return undefined;
      }
    });
    expect(alertText("VP-111")).not.toMatch(/waiting for riders|if no one replies by/i);
    const thread = h.fake.thread(AUDIT_CHANNEL, h.alertOf("VP-111").ts).map((m) => String(m.text));
    expect(thread.filter((t) => t.startsWith("🔁 Re-checked after no reply by the deadline"))).toHaveLength(1);

    // The mock data's VP-102 case was emailed weeks ago and no job ever covered it: its audit times it out too.
    const vp102 = await caseOf("VP-102");
    expect(vp102.status).toBe("pending_reply");
    await h.command(ALICE, "audit VP-102");
    await h.bot.idle();
    await waitFor("VP-102 timed out", async () => (await caseOf("VP-102")).status !== "pending_reply");
    expect(await timeoutsOf(vp102.id)).toBe(1);

    // Again: nothing more happens.
    await h.audit("VP-111");
    await h.audit("VP-102");
    expect(await timeoutsOf(vp111.id)).toBe(1);
    expect(await timeoutsOf(vp102.id)).toBe(1);
    expect(await cancellationsOf(vp111.id)).toBe(1);
    expect(await cancellationsOf(vp102.id)).toBeLessThanOrEqual(1);
  }, 180_000);
});
