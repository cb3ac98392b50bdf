// @mentions and direct messages the way an auditor types them, through the real Bolt app and the fake Slack:
// a follow-up in an @mention's thread leans on the rider the last answer named, a name that fits no rider is
// said to fit none, a request outside the program gets the one line for it (with no sources: nothing was read),
// and "remove him" with no one in view asks who, listing and doing nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUDIT_CHANNEL, CAROL, type Harness, startHarness } from "../support/bot-harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await h.audit("VP-115");
}, 60_000);
afterAll(async () => {
  await h.close();
});

const botReplies = (channel: string, threadTs: string) => h.fake.thread(channel, threadTs).filter((m) => m.bot_id);
const lastBotText = (channel: string, threadTs: string) => String(botReplies(channel, threadTs).at(-1)!.text);

async function mention(text: string) {
  const asked = h.fake.userMessage({ user: CAROL, channel: AUDIT_CHANNEL, text: `<@${h.fake.botUserId}> ${text}` });
  await h.post(
    h.fake.eventCallbackBody({
      event: {
        type: "app_mention",
        user: CAROL,
        text: asked.message.text,
        ts: asked.message.ts,
        channel: AUDIT_CHANNEL,
      },
    }),
  );
  await h.bot.idle();
  return asked.message.ts;
}

async function reply(text: string, threadTs: string) {
  await h.post(h.fake.userMessage({ user: CAROL, channel: AUDIT_CHANNEL, text, thread_ts: threadTs }).body);
  await h.bot.idle();
}

describe("@mentions an auditor follows up", () => {
  it("takes 'has she replied?' after an answer that named one rider as that rider, with no new mention", async () => {
    const ts = await mention("who failed the shift check on VP-115?");
    expect(lastBotText(AUDIT_CHANNEL, ts)).toMatch(/Tamika Howard/);
    await reply("has she replied?", ts);
    const answer = lastBotText(AUDIT_CHANNEL, ts);
    expect(answer).toMatch(/Tamika Howard/);
    expect(answer).not.toMatch(/Which rider|Cody Rasmussen/);
  });

  it("says a name fits no rider, offering close names, instead of calling it off-topic", async () => {
    const ts = await mention("is priya flagged on anything?");
    const answer = lastBotText(AUDIT_CHANNEL, ts);
    expect(answer).toMatch(/I found no rider named Priya/);
    expect(answer).toMatch(/Priscilla Okonkwo/);
    expect(answer).not.toMatch(/can only answer/);
  });

  it("answers a request outside the program with its one line and no sources", async () => {
    const ts = await mention("can you book conference room B for 3pm?");
    const answer = lastBotText(AUDIT_CHANNEL, ts);
    expect(answer).toMatch(/I can only answer about the program's vanpools and cases/);
    expect(answer).not.toMatch(/Sources|Which case/);
  });

  it("asks who 'remove him' means when no one is in view, and lists no case", async () => {
    const dm = "D0CAROL";
    await h.post(h.fake.userMessage({ user: CAROL, channel: dm, text: "remove him" }).body);
    await h.bot.idle();
    const answer = String(h.fake.messages(dm).at(-1)!.text);
    expect(answer).toMatch(/Who do you mean\?/);
    expect(answer).not.toMatch(/CASE-|VP-1\d\d/);
    expect(await h.db.prisma.approvalRequest.count({ where: { status: "pending", kind: "cancellation" } })).toBe(0);
  });
});
