// 200 signed requests at once on one running bot: audits of many vanpools, Re-audit clicks
// on one case, and questions in its thread. Every one is acknowledged, and every one gets
// its answer exactly once; nothing wedges (the 20 concurrent audits used to).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALICE, AUDIT_CHANNEL, CAROL, type Harness, startHarness } from "../support/bot-harness.js";
import { buttonOf } from "../support/slack/messages.js";
import { waitFor } from "../support/wait.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const VANPOOLS = Array.from({ length: 18 }, (_, i) => `VP-${101 + i}`).filter((id) => id !== "VP-111");

/** Waits for what 200 requests set going: well within the test's five minutes. */
const settled = (what: string, done: () => boolean) => waitFor(what, done, { timeoutMs: 240_000, everyMs: 250 });

describe("200 concurrent requests", () => {
  it("audits, clicks and thread replies all finish, each answered once", { timeout: 300_000 }, async () => {
    await h.audit("VP-111");
    const alert = h.alertOf("VP-111");
    const reaudit = buttonOf(alert, "reaudit");

    const audits = Array.from({ length: 120 }, (_, i) =>
      h.fake.slashCommandBody({
        command: "/poolpatrol",
        text: `audit ${VANPOOLS[i % VANPOOLS.length]}`,
        user_id: ALICE,
        channel_id: AUDIT_CHANNEL,
      }),
    );
    const clicks = Array.from({ length: 40 }, () =>
      h.fake.blockActionPayload({
        user: { id: ALICE },
        channel: AUDIT_CHANNEL,
        message: alert,
        action: { ...reaudit },
      }),
    );
    const questions = Array.from(
      { length: 40 },
      (_, i) =>
        h.fake.userMessage({
          user: CAROL,
          channel: AUDIT_CHANNEL,
          text: `why did this case fail? (${i})`,
          thread_ts: alert.ts,
        }).body,
    );
    const ephemeralsBefore = h.fake.ephemerals(ALICE).length;
    const answersBefore = h.fake.thread(AUDIT_CHANNEL, alert.ts).filter((m) => m.bot_id).length;

    const started = performance.now();
    const acks = await Promise.all(
      [...audits, ...clicks, ...questions].map(async (body) => {
        const sent = performance.now();
        const response = await h.post(body);
        return { status: response.status, ms: performance.now() - sent };
      }),
    );
    console.log(
      `200 concurrent requests: all acked in ${Math.round(performance.now() - started)} ms, slowest ack ${Math.round(Math.max(...acks.map((a) => a.ms)))} ms`,
    );
    expect(acks.map((a) => a.status)).toEqual(acks.map(() => 200));

    const urls = audits.map((body) => new URLSearchParams(body).get("response_url")!);
    const answered = () => urls.filter((url) => h.fake.responses(url).length > 0).length;
    await settled("every audit to be answered", () => answered() === urls.length);
    // A click is told "Re-auditing…" and then the outcome is written in the case thread. A click whose audit
    // could not be queued before Slack's 3 seconds ran out is told so, and nothing is done for it.
    const clickAnswers = (pattern: RegExp) =>
      h.fake
        .ephemerals(ALICE)
        .slice(ephemeralsBefore)
        .filter((e) => pattern.test(String(e.message.text))).length;
    const clickNotes = () => clickAnswers(/^Re-auditing VP-111/);
    const refusedClicks = () => clickAnswers(/^Pool Patrol can't reach its database right now, so nothing was changed/);
    await settled("every click to be answered", () => clickNotes() + refusedClicks() >= clicks.length);
    console.log(`200 concurrent requests: ${refusedClicks()} of ${clicks.length} clicks refused as too late`);
    const botInThread = () => h.fake.thread(AUDIT_CHANNEL, alert.ts).filter((m) => m.bot_id).length - answersBefore;
    const reauditNotes = () =>
      h.fake
        .thread(AUDIT_CHANNEL, alert.ts)
        .filter((m) => /^🔁 Re-checked at <@U0ALICE>'s request/.test(String(m.text))).length;
    await settled("every re-audit to finish", () => reauditNotes() >= clickNotes());
    await settled("every question to be answered", () => botInThread() - reauditNotes() >= questions.length);
    console.log(`200 concurrent requests: all finished in ${Math.round(performance.now() - started)} ms`);

    await h.bot.idle();
    for (const url of urls) {
      const [answer, ...more] = h.fake.responses(url);
      expect(more).toEqual([]);
      expect((answer!.body as { text: string }).text).not.toMatch(/could not finish|try again/i);
    }
    expect(clickNotes() + refusedClicks()).toBe(clicks.length);
    expect(clickNotes()).toBeGreaterThan(0);
    expect(reauditNotes()).toBe(clickNotes());
    expect(botInThread() - reauditNotes()).toBe(questions.length);
  });
});
