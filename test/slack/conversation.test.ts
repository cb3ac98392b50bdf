// The Case Manager in Slack: questions in a case alert's thread, @mentions and direct
// messages, answered from stored evidence through the real Bolt app and the fake Slack.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALICE, AUDIT_CHANNEL, CAROL, type Harness, startHarness } from "../support/bot-harness.js";

let h: Harness;
let alertTs: string;
beforeAll(async () => {
  h = await startHarness();
  await h.audit("VP-111");
  alertTs = h.alertOf("VP-111").ts;
}, 60_000);
afterAll(async () => {
  await h.close();
});

async function ask(user: string, text: string, threadTs = alertTs, channel = AUDIT_CHANNEL) {
  const asked = h.fake.userMessage({ user, channel, text, thread_ts: threadTs });
  await h.post(asked.body);
  await h.bot.idle();
  return asked;
}
const lastBotText = (threadTs: string, channel = AUDIT_CHANNEL) =>
  String(
    h.fake
      .thread(channel, threadTs)
      .filter((m) => m.bot_id)
      .at(-1)!.text,
  );

// Questions in one alert's thread: each test's follow-ups continue its own first question.
describe("questions in a case thread", () => {
  it("answers one rider's evidence with sources, then 'and the other rider?', and ignores a retried event", async () => {
    await ask(CAROL, "why did this case fail? tell me about EMP-1028");
    let answer = lastBotText(alertTs);
    expect(answer).toMatch(/Location check: fail/);
    expect(answer).toMatch(/Wendell Ashby \(EMP-1028\): fails\. Home in Oakdale \(953xx\), 50-75 mi/);
    expect(answer).not.toMatch(/EMP-1083/);
    expect(answer).toMatch(/_Sources: the location check of [A-Z][a-z]{2} \d+, \d{4}/);
    expect(answer).not.toMatch(/\b(MSG|THREAD|APR)-|\brun [0-9a-f]{8}|\b[a-z]+_[a-z]+\b/);
    expect(answer).not.toMatch(/63\.1|Laurel Canyon|@northwind/);

    const followUp = await ask(CAROL, "and the other rider?");
    answer = lastBotText(alertTs);
    expect(answer).toMatch(/Diego Fuentes \(EMP-1083\): fails\. Home in Salinas \(939xx\)/);
    expect(answer).not.toMatch(/EMP-1028/);

    const count = h.fake.thread(AUDIT_CHANNEL, alertTs).length;
    await h.post(followUp.body); // Slack retrying the same event_id
    await h.bot.idle();
    expect(h.fake.thread(AUDIT_CHANNEL, alertTs).length).toBe(count);
  });

  it("keeps the thread's context across a restart", async () => {
    await ask(CAROL, "what did diego say?");
    expect(lastBotText(alertTs)).toMatch(/Diego Fuentes \(EMP-1083\) has not replied/);
    await h.restart();
    await ask(CAROL, "and wendell?");
    expect(lastBotText(alertTs)).toMatch(/Wendell Ashby \(EMP-1028\) has not replied/);
  });

  it("asks one clarifying question with options when unsure, and only approvers may ask for a re-check", async () => {
    await ask(CAROL, "hmm, interesting");
    expect(lastBotText(alertTs)).toMatch(
      /Do you mean \*\*why the case was flagged\*\*.*\*\*what the riders replied\*\*/,
    );
    const runs = await h.db.prisma.verificationRun.count();
    await ask(CAROL, "re-check location please");
    expect(lastBotText(alertTs)).toMatch(/Only approvers can ask for a re-check\. Nothing was changed\./);
    expect(await h.db.prisma.verificationRun.count()).toBe(runs);

    await ask(ALICE, "re-check location please");
    expect(lastBotText(alertTs)).toMatch(/Re-checked VP-111/);
    expect(await h.db.prisma.verificationRun.count()).toBeGreaterThan(runs);
  });

  it("never cancels from a conversation: 'cancel him' points to the card or says what would open one", async () => {
    const before = await h.db.prisma.case.findFirstOrThrow({
      where: { vanpoolId: "VP-111" },
      orderBy: { createdAt: "desc" },
    });
    await ask(ALICE, "cancel diego");
    expect(lastBotText(alertTs)).toMatch(/I never cancel, approve or send from a conversation/);
    const after = await h.db.prisma.case.findUniqueOrThrow({ where: { id: before.id } });
    expect(after.status).toBe(before.status);
    expect(await h.db.prisma.rider.count({ where: { vanpoolId: "VP-111", status: "active" } })).toBeGreaterThan(0);
  });
});

describe("a follow-up asked for in a case thread", () => {
  const buttonsOf = (message: { blocks?: unknown[] }) =>
    (message.blocks ?? []).flatMap((b) =>
      (b as { type: string; elements?: { action_id: string; value: string }[] }).type === "actions"
        ? (b as { elements: { action_id: string; value: string }[] }).elements
        : [],
    );
  const draftCard = () =>
    h.fake
      .thread(AUDIT_CHANNEL, alertTs)
      .find((m) => buttonsOf(m).some((b) => b.action_id === "approve_escalation_reply"));
  const sentTo = (address: string) =>
    h.db.prisma.message.count({ where: { direction: "outbound", status: "sent", toAddresses: { has: address } } });
  const DIEGO = "diego.fuentes@northwind.example";

  it("becomes an approval card for approvers only; 'cancel him' points to it; the email goes once, on approval", async () => {
    const approvals = await h.db.prisma.approvalRequest.count();
    const emailsBefore = await sentTo(DIEGO);

    await ask(CAROL, "draft a follow-up to Diego");
    expect(lastBotText(alertTs)).toMatch(/Only approvers can ask for a follow-up email\. Nothing was drafted\./);
    expect(await h.db.prisma.approvalRequest.count()).toBe(approvals);

    await ask(ALICE, "draft a follow-up to Diego");
    expect(lastBotText(alertTs)).toMatch(/Drafted a follow-up email to Diego Fuentes \(EMP-1083\).*approval card/);
    const drafted = await h.db.prisma.approvalRequest.findFirstOrThrow({ orderBy: { createdAt: "desc" } });
    expect(drafted).toMatchObject({ kind: "escalation_reply", status: "pending" });
    expect((drafted.payload as { to: string }).to).toBe(DIEGO);
    const card = draftCard()!;
    expect(JSON.stringify(card.blocks)).toMatch(/Hi Diego/);
    expect(card.text).toMatch(/^Follow-up to EMP-1083 \(Diego\) on CASE-\w+ needs review/);
    expect(JSON.stringify(card.blocks)).toMatch(/EMP-1083 \(Diego\)\* has not replied to the review email yet/);
    expect(JSON.stringify(card.blocks)).not.toMatch(/not kept/);
    expect(JSON.stringify(card.blocks)).not.toMatch(/Wendell|northwind\.example/);
    expect(await sentTo(DIEGO)).toBe(emailsBefore);

    await ask(ALICE, "ok cancel him");
    expect(lastBotText(alertTs)).toMatch(/Waiting in the case thread: the drafted reply to review/);
    await ask(ALICE, "and draft one to wendell too");
    expect(lastBotText(alertTs)).toMatch(/already waiting for review/);
    expect(await h.db.prisma.approvalRequest.count()).toBe(approvals + 1);
    expect(await sentTo(DIEGO)).toBe(emailsBefore);

    const approve = buttonsOf(card).find((b) => b.action_id === "approve_escalation_reply")!;
    await h.post(
      h.fake.blockActionPayload({
        user: { id: ALICE },
        channel: AUDIT_CHANNEL,
        message: card as never,
        action: { action_id: approve.action_id, value: approve.value },
      }),
    );
    await h.bot.idle();
    await expect.poll(() => sentTo(DIEGO), { timeout: 15_000 }).toBe(emailsBefore + 1);
    const sent = await h.db.prisma.message.findFirstOrThrow({
      where: { direction: "outbound", toAddresses: { has: DIEGO } },
      orderBy: { createdAt: "desc" },
    });
    expect(sent.body).toMatch(/^Hi Diego,/);
    expect(sent.body).not.toMatch(/Wendell/);
  });
});

describe("mentions and direct messages", () => {
  it("answers an @mention in the channel that names a case, in a thread under the mention", async () => {
    const record = await h.db.prisma.case.findFirstOrThrow({
      where: { vanpoolId: "VP-111" },
      orderBy: { createdAt: "desc" },
    });
    const mention = h.fake.userMessage({
      user: CAROL,
      channel: AUDIT_CHANNEL,
      text: `<@${h.fake.botUserId}> what emails went out on ${record.id}?`,
    });
    await h.post(
      h.fake.eventCallbackBody({
        event: {
          type: "app_mention",
          user: CAROL,
          text: mention.message.text,
          ts: mention.message.ts,
          channel: AUDIT_CHANNEL,
        },
      }),
    );
    await h.bot.idle();
    const answer = lastBotText(mention.message.ts);
    expect(answer).toMatch(/email sent on|emails sent on/);
    expect(answer).toMatch(/Diego Fuentes/);
    expect(answer).not.toMatch(/@northwind/);

    // A follow-up in the mention's thread needs no new mention, and is answered once.
    const before = h.fake.thread(AUDIT_CHANNEL, mention.message.ts).filter((m) => m.bot_id).length;
    const followUp = await ask(CAROL, `why did ${record.id} fail?`, mention.message.ts);
    expect(h.fake.thread(AUDIT_CHANNEL, mention.message.ts).filter((m) => m.bot_id)).toHaveLength(before + 1);
    expect(lastBotText(mention.message.ts)).toMatch(/Location check: fail/);
    await h.post(followUp.body); // Slack retrying the same event
    await h.bot.idle();
    expect(h.fake.thread(AUDIT_CHANNEL, mention.message.ts).filter((m) => m.bot_id)).toHaveLength(before + 1);
  });

  it("leaves alone a thread it did not answer", async () => {
    const chat = h.fake.userMessage({ user: CAROL, channel: AUDIT_CHANNEL, text: "lunch at noon?" });
    await h.post(chat.body);
    await h.bot.idle();
    await ask(ALICE, "why did VP-111 fail?", chat.message.ts);
    expect(h.fake.thread(AUDIT_CHANNEL, chat.message.ts).filter((m) => m.bot_id)).toHaveLength(0);
  });

  it("answers a direct message, and asks which case when none is named", async () => {
    const dm = "D0CAROL";
    await h.post(h.fake.userMessage({ user: CAROL, channel: dm, text: "why was it flagged?" }).body);
    await h.bot.idle();
    expect(String(h.fake.messages(dm).at(-1)!.text)).toMatch(/Which case do you mean\?/);
    await h.post(h.fake.userMessage({ user: CAROL, channel: dm, text: "how many cases wait for a person?" }).body);
    await h.bot.idle();
    expect(String(h.fake.messages(dm).at(-1)!.text)).toMatch(/wait(s)? for a person/);
  });
});
