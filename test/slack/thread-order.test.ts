// The case thread reads in time order: a rider's update, arriving over Resend's signed webhook, is re-checked and
// answered with a follow-up email, and the thread tells the reply, then the re-check, then the email it led to, each
// once. The re-check's record is held up in the database (a slow write) so the email's own Slack sync runs first
// unless the re-check was recorded before the email was queued.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseSettings } from "../../src/config/settings.js";
import { createEmailSender } from "../../src/integrations/email/index.js";
import { AUDIT_CHANNEL, type Harness, startHarness } from "../support/bot-harness.js";
import { stallNextInsertAfter } from "../support/db-faults.js";
import {
  postWebhook,
  type ResendStub,
  receivedEvent,
  startResendStub,
  WEBHOOK_SECRET,
} from "../support/resend-stub.js";
import { waitFor } from "../support/wait.js";

const WENDELL = "wendell.ashby@northwind.example";
const INBOUND = "replies@inbound.northwind.example";

let h: Harness;
let resend: ResendStub;
beforeAll(async () => {
  resend = await startResendStub();
  const env = {
    RESEND_API_KEY: "re_test_key",
    RESEND_BASE_URL: resend.baseUrl,
    RESEND_WEBHOOK_SECRET: WEBHOOK_SECRET,
    POOLPATROL_INBOUND_ADDRESS: INBOUND,
  };
  h = await startHarness({ env, sender: createEmailSender(parseSettings(env)) });
}, 120_000);
afterAll(async () => {
  await h?.close();
  await resend?.close();
});

const threadLines = () =>
  h.fake
    .thread(AUDIT_CHANNEL, h.alertOf("VP-111").ts)
    .slice(1)
    .map((m) => String(m.text));

describe("a reply's re-check in the case thread", () => {
  it("comes after the reply and before the follow-up email it led to, each once", async () => {
    await h.audit("VP-111");
    const record = await h.db.prisma.case.findFirstOrThrow({ where: { vanpoolId: "VP-111" } });
    const thread = await h.db.prisma.emailThread.findUniqueOrThrow({ where: { caseId: record.id } });
    await waitFor("the first emails in the thread", () =>
      threadLines().some((l) => l.startsWith("✉️ Pool Patrol emailed EMP-1028 (Wendell)")),
    );
    await stallNextInsertAfter(h.db.prisma, {
      name: "slow_re_check",
      table: "audit_events",
      after: "NEW.action = 'case.re_audited'",
      seconds: 3,
    });

    const reply = resend.receive({
      from: `Wendell Ashby <${WENDELL}>`,
      to: [`replies+${thread.id}@inbound.northwind.example`],
      subject: `Re: ${thread.subject}`,
      text: "I updated my home address in the HR portal this morning, please check again.",
    });
    const webhook = h.url.replace(/\/slack\/events$/, "/webhooks/resend");
    expect((await postWebhook(webhook, receivedEvent(reply))).status).toBe(200);
    await h.bot.idle();
    const followUps = () => resend.sent.filter((s) => (s.body.to as string[]).includes(WENDELL)).length;
    await waitFor("the follow-up email sent", () => followUps() === 2);
    await waitFor(
      "the follow-up email in the thread",
      () => threadLines().filter((l) => l.startsWith("✉️ Pool Patrol emailed EMP-1028 (Wendell)")).length === 2,
    );
    await h.bot.idle();
    await h.bot.messages.syncCase(record.id);

    const story = threadLines().filter((l) => /^(📨|🔁|✉️) /.test(l));
    const kinds = story.map((l) => l.slice(0, 2));
    // The two first emails, then Wendell's reply, its re-check and the follow-up it led to.
    expect(kinds).toEqual(["✉️", "✉️", "📨", "🔁", "✉️"]);
    expect(story[2]).toMatch(/^📨 EMP-1028 \(Wendell\) replied .*, read as an update/);
    expect(story[3]).toMatch(
      /^🔁 Re-checked after EMP-1028 \(Wendell\)'s reply: location still fails .*Counted: 1 of 3/,
    );
    expect(story[3]).toMatch(/The case is now \*Waiting for riders\*\.$/);
    expect(story[4]).toMatch(/^✉️ Pool Patrol emailed EMP-1028 \(Wendell\) /);
    expect(followUps()).toBe(2);
    expect(await h.db.prisma.auditEvent.count({ where: { subjectId: record.id, action: "case.re_audited" } })).toBe(1);
  }, 120_000);
});
