// Text from Slack with NUL bytes and control characters is cleaned as it comes into the bot:
// a command and a thread question that carry them are answered as if typed without them, and the
// conversation (checkpointed in PostgreSQL, which takes no NUL) goes on.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALICE, AUDIT_CHANNEL, CAROL, type Harness, startHarness } from "../support/bot-harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await h.audit("VP-111");
}, 60_000);
afterAll(async () => {
  await h.close();
});

describe("a NUL byte from Slack", () => {
  it("in a command: answered as the command without it", async () => {
    const answer = await h.command(ALICE, "status VP-111\u0000");
    expect(answer.text).toMatch(/VP-111/);
    expect(answer.text).not.toMatch(/needs a vanpool id/);
    expect(answer.text).not.toContain("\u0000");
  });

  it("in a thread question: answered, and the follow-up still has its context", async () => {
    const alertTs = h.alertOf("VP-111").ts;
    const lastBotText = () =>
      String(
        h.fake
          .thread(AUDIT_CHANNEL, alertTs)
          .filter((m) => m.bot_id)
          .at(-1)?.text,
      );
    await h.post(
      h.fake.userMessage({
        user: CAROL,
        channel: AUDIT_CHANNEL,
        text: "why did this case fail?\u0000 tell me about EMP-1028\u0007",
        thread_ts: alertTs,
      }).body,
    );
    await h.bot.idle();
    expect(lastBotText()).toMatch(/Wendell Ashby \(EMP-1028\): fails/);
    await h.post(
      h.fake.userMessage({ user: CAROL, channel: AUDIT_CHANNEL, text: "and the other rider?", thread_ts: alertTs })
        .body,
    );
    await h.bot.idle();
    expect(lastBotText()).toMatch(/Diego Fuentes \(EMP-1083\): fails/);
  });
});
