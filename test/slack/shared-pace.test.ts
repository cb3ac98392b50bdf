// Two bot instances on one database posting to one channel of one local Slack: their posts
// arrive spaced by the channel interval, as if one process posted them all, and a 429 Retry-After
// Slack gave one instance holds back the other too. Times are those the local Slack saw.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSlackApp, type SlackApp } from "../../src/bot/app.js";
import { AUDIT_CHANNEL, type Harness, startHarness } from "../support/bot-harness.js";

const INTERVAL_MS = 300;
/** Two calls made a slot apart can arrive closer than that: a busy process starts one late. */
const JITTER_MS = 100;

let h: Harness;
let instances: SlackApp[];
beforeAll(async () => {
  h = await startHarness();
  await h.bot.idle();
  instances = await Promise.all(
    [1, 2].map(() => createSlackApp({ slack: h.slack, deps: h.deps, retries: 0, channelIntervalMs: INTERVAL_MS })),
  );
});
afterAll(async () => {
  await h?.close();
});

/** Posts and updates in the audit channel since the `since`-th call: each takes a slot of the channel. */
const callsSince = (since: number) =>
  h.fake.calls
    .slice(since)
    .filter((c) => ["chat.postMessage", "chat.update"].includes(c.method) && c.body.channel === AUDIT_CHANNEL);
const postsSince = (since: number) => callsSince(since).filter((c) => c.method === "chat.postMessage");

const gaps = (times: number[]) => times.slice(1).map((t, i) => t - times[i]!);

describe("the pace of posts to a channel, shared by every instance", () => {
  it("spaces the posts of two instances by the interval", { timeout: 60_000 }, async () => {
    // Notes on different cases: nothing but the channel's pace holds one instance back for the other.
    const cases = await h.db.prisma.case.findMany({
      where: { slackTs: { not: null } },
      take: 6,
      orderBy: { id: "asc" },
    });
    expect(cases.length).toBeGreaterThanOrEqual(4);
    const since = h.fake.calls.length;
    const notes = cases.map((c) => `Shared pace check on ${c.id}.`);
    await Promise.all(
      cases.map((c, i) => instances[i % 2]!.messages.postInThread(c.id, notes[i]!, `shared-pace:${i}`)),
    );
    expect(
      postsSince(since)
        .map((c) => c.body.text)
        .sort(),
    ).toEqual([...notes].sort());
    // Each note refreshes its case's alert first: those updates take their slots too. Two instances
    // pacing themselves alone would make two calls at a time and take half as long.
    const times = callsSince(since).map((c) => c.at);
    expect(times.at(-1)! - times[0]!).toBeGreaterThanOrEqual((times.length - 1) * INTERVAL_MS - JITTER_MS);
    for (const gap of gaps(times)) expect(gap).toBeGreaterThanOrEqual(INTERVAL_MS / 4);
  });

  it("holds every instance back for the Retry-After of a 429 either one got", { timeout: 60_000 }, async () => {
    const record = await h.db.prisma.case.findFirstOrThrow({ where: { slackTs: { not: null } } });
    const since = h.fake.calls.length;
    h.fake.rateLimitNext("chat.postMessage", 2);
    const notes = [0, 1, 2, 3].map((i) => `Rate-limited pace check ${i}.`);
    await Promise.all(
      notes.map((text, i) => instances[i % 2]!.messages.postInThread(record.id, text, `rate-limited:${i}`)),
    );
    const posts = postsSince(since);
    const refused = posts.filter((c) => c.response?.error === "ratelimited");
    const delivered = posts.filter((c) => c.response?.ok);
    expect(refused).toHaveLength(1);
    expect(delivered.map((c) => c.body.text).sort()).toEqual([...notes].sort());
    // Nothing reached Slack from either instance until the 2 s it asked for had passed.
    for (const post of delivered) expect(post.at - refused[0]!.at).toBeGreaterThanOrEqual(2000 - JITTER_MS);
    for (const gap of gaps(delivered.map((c) => c.at))) expect(gap).toBeGreaterThanOrEqual(INTERVAL_MS / 4);
  });
});
