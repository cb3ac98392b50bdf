// The thread tells the whole story: every reply Pool Patrol takes in (how it was read, redacted) and every email it
// sends (subject and first lines) appears in the case thread, exactly once however often the case is synced,
// counted at the Slack stub. A scripted lifecycle: the first emails, an angry reply and its approved answer, a
// question, an acknowledgment.
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
const threadTexts = () => {
  const alert = h.alertOf("VP-111");
  return h.fake
    .thread(AUDIT_CHANNEL, alert.ts)
    .map((m) => String(m.text))
    .filter((t) => t.startsWith("📨 ") || t.startsWith("✉️ Pool Patrol emailed"));
};

describe("the case thread", () => {
  it("shows every reply taken in and every email sent, each exactly once", async () => {
    await h.audit("VP-111");
    caseId = (await h.db.prisma.case.findFirstOrThrow({ where: { vanpoolId: "VP-111" } })).id;
    await reply(WENDELL, "This is ridiculous, I want to speak to a manager. Call me at 408-555-0199.");
    await h.click(ALICE, h.cardWith("VP-111", "approve_escalation_reply"), "approve_escalation_reply");
    await reply(DIEGO, "Quick question: how far can I live from the pickup point? I live at 12 Oak Street.");
    await reply(DIEGO, "Ok, got it. Thanks for letting me know.");
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
      expect.stringMatching(/^📨 EMP-1083 \(Diego\) replied .*, read as an acknowledgment:\n> Ok, got it\./),
    ]);
    // Riders by id and first name, never by address.
    expect(lines.join("\n")).not.toMatch(/@northwind\.example|408-555|Oak Street/);
    expect(lines.filter((l) => /^✉️ Pool Patrol emailed EMP-1028 \(Wendell\)/.test(l)).length).toBeGreaterThanOrEqual(2);
  }, 240_000);
});
