// Slack answering 429 with Retry-After: the posts wait at least that long, then each
// arrives exactly once (counted at the fake Slack).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caseJobs } from "../../src/queue/queues.js";
import { AUDIT_CHANNEL, type Harness, startHarness } from "../support/bot-harness.js";
import { waitFor } from "../support/wait.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

describe("Slack rate limits", () => {
  it("delays posts refused with 429 by their Retry-After, and neither loses nor doubles one", async () => {
    const { case_id: caseId } = await h.bot.ctx.workflow.auditVanpool("VP-111");
    await h.bot.idle();
    const alert = await h.db.prisma.case.findUniqueOrThrow({ where: { id: caseId! } });
    const notes = ["first", "second", "third"].map((n) => `Rate limit check: the ${n} note.`);
    const calls = h.fake.calls.length;

    h.fake.rateLimitNext("chat.postMessage", 2, 2);
    const queuedAt = Date.now();
    const jobs = caseJobs(h.jobs);
    await Promise.all(notes.map((text, i) => jobs.threadNote(caseId!, `rate-limit-${i}`, text)));
    // A refused post's job waits for its retry: wait until every note is in the thread, then a little longer.
    const inThread = () => h.fake.thread(AUDIT_CHANNEL, alert.slackTs!).filter((m) => notes.includes(String(m.text)));
    await waitFor("every note in the thread", () => inThread().length >= notes.length, { timeoutMs: 60_000 });
    await h.bot.idle();
    await new Promise((resolve) => setTimeout(resolve, 3000));

    const thread = inThread();
    for (const text of notes)
      expect(
        thread.filter((m) => m.text === text),
        text,
      ).toHaveLength(1);
    const posts = h.fake.calls.slice(calls).filter((c) => c.method === "chat.postMessage");
    const refused = posts.filter((c) => c.response?.error === "ratelimited");
    expect(refused).toHaveLength(2);
    const delivered = posts.filter((c) => c.response?.ok);
    expect(delivered).toHaveLength(notes.length);
    // Nothing went through before Slack's Retry-After had passed.
    expect(Math.min(...delivered.map((c) => c.at)) - queuedAt).toBeGreaterThanOrEqual(2000);
  });
});
