// Words a person reads (issue 28, point 7): a scripted lifecycle through signed requests, the fake Slack and the
// Resend stub, and every text the bot produced on the way (messages, updates, ephemerals, modals, App Home,
// slash-command answers, emails) is scanned for status codes and raw Slack user ids.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseSettings } from "../../src/config/settings.js";
import { APPEAL_ADDRESS } from "../../src/domain/policy-text.js";
import { createEmailSender } from "../../src/integrations/email/index.js";
import { ALICE, AUDIT_CHANNEL, BOB, CAROL, type Harness, startHarness } from "../support/bot-harness.js";
import { type ResendStub, startResendStub } from "../support/resend-stub.js";
import { waitFor } from "../support/wait.js";

const WENDELL = "wendell.ashby@northwind.example";
const DIEGO = "diego.fuentes@northwind.example";
const KYLE = "kyle.jorgensen@northwind.example";

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

/** The text a person reads in a Slack payload: every `text` (messages, blocks, titles, options) and prefilled input. */
function readable(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) readable(item, out);
  else if (value && typeof value === "object")
    for (const [key, inner] of Object.entries(value)) {
      if ((key === "text" || key === "initial_value" || key === "markdown_text") && typeof inner === "string")
        out.push(inner);
      else if (key === "view" && typeof inner === "string") readable(JSON.parse(inner), out);
      else if (key === "blocks" && typeof inner === "string") readable(JSON.parse(inner), out);
      else readable(inner, out);
    }
  return out;
}

/** Everything the bot said in Slack: posts, updates, ephemerals, modals, App Home, slash-command answers. */
function slackTexts(): string[] {
  const methods = new Set([
    "chat.postMessage",
    "chat.startStream",
    "chat.appendStream",
    "chat.stopStream",
    "chat.update",
    "chat.postEphemeral",
    "views.open",
    "views.update",
    "views.push",
    "views.publish",
  ]);
  return [
    ...h.fake.calls.filter((c) => methods.has(c.method)).flatMap((c) => readable(c.body)),
    ...h.fake.responses().flatMap((r) => readable(r.body)),
  ];
}

function emailTexts(): string[] {
  return resend.sent.flatMap((e) => [String(e.body.subject ?? ""), String(e.body.text ?? "")]);
}

/** A case status or another internal name in snake_case ("pending_reply", "hitl_review", "location_mismatch"). */
const SNAKE = /\b[a-z]+(?:_[a-z]+)+\b/g;
/** A Slack user id written out, not as a mention Slack shows as the person's name (`<@U0ALICE>`). */
const RAW_USER_ID = /(?<![<@\w])U0[A-Z0-9]{2,}\b/g;

/** What Slack shows in place of its own markup: a date in the reader's time zone, a person's or group's name. */
const SLACK_MARKUP = /<!date\^[^>]*>|<@U0[A-Z0-9]+>|<!subteam\^[^>]*>/g;

/** Each offending word once, with where it was first seen. */
function found(texts: string[], pattern: RegExp): string[] {
  const seen = new Map<string, string>();
  for (const text of texts.map((t) => t.replace(SLACK_MARKUP, "…")))
    for (const m of text.matchAll(pattern)) {
      const at = Math.max(0, (m.index ?? 0) - 60);
      if (!seen.has(m[0])) seen.set(m[0], `${m[0]} in "${text.slice(at, at + 160)}"`);
    }
  return [...seen.values()];
}

const command = async (user: string, text: string) => {
  await h.post(h.fake.slashCommandBody({ command: "/poolpatrol", text, user_id: user, channel_id: AUDIT_CHANNEL }));
  await h.bot.idle();
};
const submit = async (user: string, values: Record<string, string>) => {
  await h.post(h.fake.viewSubmissionPayload({ user: { id: user }, view: h.fake.views(user).at(-1)!, values }));
  await h.bot.idle();
};
async function reply(vanpoolId: string, from: string, body: string) {
  const record = await h.db.prisma.case.findFirstOrThrow({
    where: { vanpoolId, status: { notIn: ["resolved", "cancelled"] } },
  });
  const thread = await h.db.prisma.emailThread.findUniqueOrThrow({ where: { caseId: record.id } });
  await h.bot.ctx.workflow.receiveReply({ threadId: thread.id, from, body });
  await h.bot.idle();
  await h.bot.messages.syncCase(record.id);
  return record.id;
}
const ask = async (user: string, text: string, threadTs: string) => {
  await h.post(h.fake.userMessage({ user, channel: AUDIT_CHANNEL, text, thread_ts: threadTs }).body);
  await h.bot.idle();
};
const homeOf = async (user: string) => {
  await h.post(
    h.fake.eventCallbackBody({
      event: { type: "app_home_opened", user, channel: `D${user}`, tab: "home", event_ts: "1.0" },
    }),
  );
  await h.bot.idle();
};

describe("a scripted lifecycle, as people read it", () => {
  it("shows no status code and no raw user id in Slack or in any email", async () => {
    await command(ALICE, "help");
    await command(ALICE, "audit VP-111");
    await command(ALICE, "audit VP-109");
    await command(ALICE, "status VP-111");
    await command(ALICE, "cases");
    await command(CAROL, "cases waiting");

    // Wendell is angry: a drafted answer waits; Alice rewrites it and sends it.
    await reply("VP-111", WENDELL, "This is ridiculous, I want to speak to a manager about this.");
    await h.click(ALICE, h.cardWith("VP-111", "edit_escalation_reply"), "edit_escalation_reply");
    await submit(ALICE, { body: "Hi Wendell, a coordinator will call you tomorrow; nothing changes meanwhile." });
    // He writes again, angrier: Bob rejects the second draft.
    await reply("VP-111", WENDELL, "I am going to HR and the union about this, it is unfair.");
    await h.click(BOB, h.cardWith("VP-111", "reject_escalation_reply"), "reject_escalation_reply");
    await submit(BOB, { reason: "A coordinator is already calling him." });
    // Diego asks a question; Carol (not an approver) tries a button.
    await reply("VP-111", DIEGO, "Quick question: how far can I live from the pickup point?");
    await h.click(CAROL, h.alertOf("VP-111"), "reaudit");
    await h.click(ALICE, h.alertOf("VP-111"), "view_evidence");
    await ask(ALICE, "why did this case fail?", h.alertOf("VP-111").ts);
    await ask(ALICE, "what did Wendell say?", h.alertOf("VP-111").ts);
    // Answers that read best as tables: every cell is read too.
    await ask(ALICE, "compare wendell and diego", h.alertOf("VP-111").ts);
    await ask(ALICE, "which cases need me?", h.alertOf("VP-109").ts);
    await ask(ALICE, "list open cases", h.alertOf("VP-109").ts);

    // Kyle's acknowledgment does not fix the data: the case needs a person, who closes it.
    await reply("VP-109", KYLE, "Ok, got it. Thanks for letting me know.");
    await homeOf(ALICE);
    await homeOf(CAROL);
    await h.click(ALICE, h.alertOf("VP-109"), "close_resolved");
    await submit(ALICE, { reason: "Kyle confirmed by phone; HR fixes his record.", exception_reason: "data_error" });

    // The deadline passes on VP-111: Alice keeps Wendell, Bob removes Diego, Alice undoes it.
    const approval = await h.cancellationProposedFor("VP-111");
    await h.keep(ALICE, h.cancellationCardOf("VP-111"), "EMP-1028");
    await h.click(BOB, h.cancellationCardOf("VP-111"), "remove_rider:EMP-1083");
    await waitFor("the cancellation carried out", async () =>
      Boolean((await h.db.prisma.approvalRequest.findUniqueOrThrow({ where: { id: approval.id } })).appliedAt),
    );
    await h.bot.messages.syncCase(approval.caseId);
    await h.click(ALICE, h.cancellationCardOf("VP-111"), "undo_cancellation");
    await command(ALICE, "status VP-111");
    await ask(ALICE, "what happened on this case so far?", h.alertOf("VP-111").ts);
    await ask(ALICE, "what happened on this case so far?", h.alertOf("VP-109").ts);
    await command(ALICE, "digest");
    await command(ALICE, "report 30d");
    await homeOf(ALICE);

    const slack = slackTexts();
    const emails = emailTexts();
    expect(slack.length).toBeGreaterThan(40);
    expect(emails.length).toBeGreaterThan(6);
    expect(found([...slack, ...emails], SNAKE)).toEqual([]);
    expect(found([...slack, ...emails], RAW_USER_ID)).toEqual([]);
    // The case register posted with the report names people, never their Slack ids or email addresses.
    const register = h.fake.files().map((f) => f.content ?? "");
    expect(register).toHaveLength(1);
    expect(register[0]).toMatch(/,alice,/);
    expect(found(register, RAW_USER_ID)).toEqual([]);
    expect(found(register, /[\w.+-]+@[\w-]+\.[\w.]+/g)).toEqual([]);
    // One redaction rule in the channel: a rider's home is a ZIP3 there, never their full ZIP (their own email
    // has it), and the program's own appeal address is never redacted.
    const homes = await h.db.prisma.employee.findMany({
      where: { id: { in: ["EMP-1028", "EMP-1083", "EMP-1093"] } },
      select: { homeZip: true },
    });
    expect(homes).toHaveLength(3);
    for (const { homeZip } of homes) expect(found(slack, new RegExp(`\\b${homeZip}\\b`, "g"))).toEqual([]);
    const appeals = slack.filter((text) => /appeal any decision/.test(text));
    expect(appeals.length).toBeGreaterThan(0);
    for (const text of appeals) expect(text).toContain(APPEAL_ADDRESS);
  }, 240_000);
});
