// The thread tells the whole story: every reply Pool Patrol takes in (how it was read, redacted), every email it
// sends (subject and first lines), every re-audit and its result, and every decision appears in the case thread,
// exactly once however often the case is synced or a job retried, counted at the Slack stub. A scripted lifecycle:
// the first emails, an angry reply and its approved answer, a question, an update re-checked, the reply deadline
// (re-checked, a cancellation proposed, the timeout job retried), and Keep everyone.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseSettings } from "../../src/config/settings.js";
import { createEmailSender } from "../../src/integrations/email/index.js";
import { ALICE, AUDIT_CHANNEL, type Harness, startHarness } from "../support/bot-harness.js";
import { type ResendStub, startResendStub } from "../support/resend-stub.js";
import { waitFor } from "../support/wait.js";

const WENDELL = "wendell.ashby@northwind.example";
const DIEGO = "diego.fuentes@northwind.example";

let h: Harness;
let resend: ResendStub;
beforeAll(async () => {
  resend = await startResendStub();
  const sender = createEmailSender(parseSettings({ RESEND_API_KEY: "re_test_key", RESEND_BASE_URL: resend.baseUrl }));
  h = await startHarness({ sender });
}, 120_000);
afterAll(async () => {
  await h?.close();
  await resend?.close();
});

let caseId = "";
async function reply(from: string, body: string) {
  const thread = await h.db.prisma.emailThread.findUniqueOrThrow({ where: { caseId } });
  await h.bot.ctx.workflow.receiveReply({ threadId: thread.id, from, body });
  await h.bot.idle();
}
const allInThread = () =>
  h.fake
    .thread(AUDIT_CHANNEL, h.alertOf("VP-111").ts)
    .slice(1)
    .map((m) => String(m.text));
const threadTexts = () => allInThread().filter((t) => t.startsWith("📨 ") || t.startsWith("✉️ Pool Patrol emailed"));
const reChecks = () => allInThread().filter((t) => t.startsWith("🔁 Re-checked"));
const decisions = () => allInThread().filter((t) => /^(✅|❌) <@U0ALICE> (approved|rejected) the /.test(t));

describe("the case thread", () => {
  it("shows every reply taken in and every email sent, each exactly once", async () => {
    await h.audit("VP-111");
    caseId = (await h.db.prisma.case.findFirstOrThrow({ where: { vanpoolId: "VP-111" } })).id;
    await reply(WENDELL, "This is ridiculous, I want to speak to a manager. Call me at 408-555-0199.");
    await h.click(ALICE, h.cardWith("VP-111", "approve_escalation_reply"), "approve_escalation_reply");
    await reply(DIEGO, "Quick question: how far can I live from the pickup point? I live at 12 Oak Street.");
    await reply(WENDELL, "I updated my home address in the HR portal this morning, please check again.");
    // The reply deadline passes: re-checked, still failing, a cancellation is proposed. The timeout's job is retried.
    const { lastOutboundAt } = await h.db.prisma.case.findUniqueOrThrow({ where: { id: caseId } });
    const late = new Date(Date.now() + 9 * 86_400_000);
    await h.bot.ctx.workflow.tick(late);
    await h.bot.idle();
    await h.bot.ctx.workflow.replyTimeout(caseId, late, lastOutboundAt!);
    await h.bot.idle();
    expect(await h.db.prisma.approvalRequest.count({ where: { caseId, kind: "cancellation" } })).toBe(1);
    // Keep everyone, with its reason.
    await h.click(ALICE, h.cancellationCardOf("VP-111"), "reject_cancellation");
    const form = h.fake.views(ALICE).at(-1)!;
    await h.post(
      h.fake.viewSubmissionPayload({
        user: { id: ALICE },
        view: form,
        values: { reason: "Both riders are moving closer in January.", exception_reason: "moving_soon" },
      }),
    );
    await h.bot.idle();
    await waitFor("the case to close", async () =>
      ["resolved"].includes((await h.db.prisma.case.findUniqueOrThrow({ where: { id: caseId } })).status),
    );
    // Syncing again (a retry, a later change) posts nothing twice.
    await h.bot.messages.syncCase(caseId);
    await h.bot.messages.syncCase(caseId);

    const messages = await h.db.prisma.message.findMany({
      where: { thread: { caseId } },
      orderBy: { createdAt: "asc" },
    });
    const sent = messages.filter((m) => m.direction === "outbound" && m.status === "sent");
    const read = messages.filter((m) => m.direction === "inbound" && m.bucket);
    expect(sent.length).toBeGreaterThanOrEqual(3); // two first emails and the approved answer
    expect(read).toHaveLength(3);
    expect(read.map((m) => m.bucket)).toEqual(["escalation", expect.stringMatching(/question|update/), "update"]);
    await waitFor("every email in the thread", () => threadTexts().length === sent.length + read.length);
    const lines = threadTexts();
    expect(lines).toHaveLength(sent.length + read.length);

    for (const email of sent)
      expect(
        lines.filter((l) => l.startsWith("✉️ Pool Patrol emailed") && l.includes(email.subject)).length,
      ).toBeGreaterThan(0);
    const replies = lines.filter((l) => l.startsWith("📨 "));
    // A question that also gives an address may be read either way; the line says which, in words.
    expect(replies).toEqual([
      expect.stringMatching(
        /^📨 EMP-1028 \(Wendell\) replied .*, read as an escalation \(asks for a person\):\n> This is ridiculous, I want to speak to a manager\. Call me at \[phone number\]\.$/,
      ),
      expect.stringMatching(
        /^📨 EMP-1083 \(Diego\) replied .*, read as (a question|an update \(something changed\)):\n> Quick question: how far can I live from the pickup point\? I live at \[street address\]$/,
      ),
      expect.stringMatching(
        /^📨 EMP-1028 \(Wendell\) replied .*, read as an update \(something changed\):\n> I updated/,
      ),
    ]);

    // Every re-audit once, in words: each update's (counted or not, and from when the next counts) and the
    // deadline's. Diego's question may be read as an update too, and then it is re-checked as well.
    const reAudits = await h.db.prisma.auditEvent.count({ where: { subjectId: caseId, action: "case.re_audited" } });
    expect(reAudits).toBe(read.filter((m) => m.bucket === "update").length + 1);
    expect(reChecks()).toHaveLength(reAudits);
    expect(reChecks()).toContainEqual(
      expect.stringMatching(
        /^🔁 Re-checked after EMP-1028 \(Wendell\)'s reply: location still fails \(EMP-1028 \(Wendell\): .*\(\d{3}xx\) · [\d–-]+ mi from the pickup \(limit \d+ mi\)[^)]*\)\. (Counted|Not counted, the data is the same and the last counted one is less than a business day old): \d of 3 re-checks\. The next counted re-check from <!date\^\d+\^.*, or at once if the data changes\. The case is now \*Waiting for riders\*\.$/,
      ),
    );
    expect(reChecks().at(-1)).toMatch(
      /^🔁 Re-checked after no reply by the deadline: location still fails \(.*\)\. Counted: \d of 3 re-checks\..* The case is now \*/,
    );
    // Every decision once: the approved answer and Keep everyone.
    expect(decisions()).toEqual([
      expect.stringMatching(/^✅ <@U0ALICE> approved the drafted reply\./),
      expect.stringMatching(/^❌ <@U0ALICE> rejected the cancellation\./),
    ]);
    // Every card once: the drafted answer's and the cancellation's.
    const cards = allInThread().filter((t) => /^(Cancellation of|Reply from|Follow-up to|Email to) /.test(t));
    expect(cards).toHaveLength(await h.db.prisma.approvalRequest.count({ where: { caseId } }));
    expect(cards).toHaveLength(2);
    // Riders by id and first name, never by address.
    expect(lines.join("\n")).not.toMatch(/@northwind\.example|408-555|Oak Street/);
    expect(lines.filter((l) => /^✉️ Pool Patrol emailed EMP-1028 \(Wendell\)/.test(l)).length).toBeGreaterThanOrEqual(2);
  }, 240_000);
});
