// Slack posts made exactly once when the write that records a post fails right after Slack took
// it (the same window a kill -9 between the two leaves): the retry finds the message by the key it
// carries in its metadata instead of posting again. Faults are injected in the real database (a
// trigger that refuses the first write of a message's ts); messages are counted at the local Slack.
// A sweep summary deleted in Slack is posted again rather than failing the announcement.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SlackLocation } from "../../src/data/slack-message-repository.js";
import { holdPost } from "../../src/data/slack-post-repository.js";
import { createSweep, findSweepTotals } from "../../src/data/sweep-repository.js";
import { caseJobs } from "../../src/queue/queues.js";
import { createChannelPacer } from "../../src/slack/channel-pacer.js";
import { type OncePost, POST_EVENT_TYPE, postOnce } from "../../src/slack/post-once.js";
import { queueMissingAlerts } from "../../src/workers/slack-jobs.js";
import { createSweepAnnouncer } from "../../src/workers/sweep-announce.js";
import { AUDIT_CHANNEL, CAROL, type Harness, startHarness } from "../support/bot-harness.js";
import { failNextWrite as failNext, faultFired as fired } from "../support/db-faults.js";
import { waitFor } from "../support/wait.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await h.bot.idle();
});
afterAll(async () => {
  await h?.close();
});

const until = <T>(what: string, probe: () => T | Promise<T>) => waitFor(what, probe, { timeoutMs: 60_000 });

const failNextWrite = (name: string, table: string, column: string, when: string) =>
  failNext(h.db.prisma, { name, table, column, when });
const faultFired = (name: string) => fired(h.db.prisma, name);

/** Successful chat.postMessage calls that carried `key` (from the `since`-th call to the local Slack on). */
const postsOf = (key: string, since = 0) =>
  h.fake.calls.slice(since).filter((c) => {
    const metadata = c.body.metadata as { event_type?: string; event_payload?: { key?: string } } | undefined;
    return (
      c.method === "chat.postMessage" &&
      c.response?.ok &&
      metadata?.event_type === POST_EVENT_TYPE &&
      metadata.event_payload?.key === key
    );
  });

/** The sweep announcer a sweep's finish job uses, posting to the audit channel without pacing. */
const announcer = () =>
  createSweepAnnouncer({
    prisma: h.db.prisma,
    client: h.bot.app.client,
    channel: AUDIT_CHANNEL,
    jobs: h.jobs,
    channelIntervalMs: 0,
    claimMs: h.deps.settings.claimMs,
  });

/** Posts kept as their own record whose key starts with `prefix`. */
async function keptPosts(prefix: string): Promise<number> {
  const [row] = await h.db.prisma.$queryRawUnsafe<{ n: bigint }[]>(
    "SELECT count(*) AS n FROM slack_post_intents WHERE key LIKE $1 AND ts IS NOT NULL",
    `${prefix}%`,
  );
  return Number(row!.n);
}

const caseOf = (vanpoolId: string) =>
  h.db.prisma.case.findFirstOrThrow({ where: { vanpoolId, status: { notIn: ["resolved", "cancelled"] } } });
const alertsFor = (caseId: string) =>
  h.fake.messages(AUDIT_CHANNEL).filter((m) => String(m.text).includes(`(${caseId},`));

describe("a post whose ts could not be stored is not posted again", () => {
  it("a new case's alert", { timeout: 90_000 }, async () => {
    await failNextWrite("alert", "cases", "slack_ts", "NEW.vanpool_id = 'VP-111'");
    const { case_id: caseId } = await h.bot.ctx.workflow.auditVanpool("VP-111");
    const stored = await until("the alert's ts stored", async () => {
      const row = await h.db.prisma.case.findUniqueOrThrow({ where: { id: caseId! } });
      return row.slackTs ?? false;
    });
    await h.bot.idle();
    expect(await faultFired("alert")).toBe(true);
    expect(alertsFor(caseId!).map((m) => m.ts)).toEqual([stored]);
    expect(postsOf(`alert:${caseId}`)).toHaveLength(1);
  });

  it("an approval card", { timeout: 90_000 }, async () => {
    await h.bot.ctx.workflow.auditVanpool("VP-102");
    const record = await until("VP-102 waiting for a reply", async () => {
      const row = await caseOf("VP-102");
      return row.status === "pending_reply" && row.lastOutboundAt && row.slackTs ? row : false;
    });
    await h.bot.idle();
    await failNextWrite("card", "approval_requests", "slack_ts", `NEW.case_id = '${record.id}'`);
    await h.bot.ctx.workflow.replyTimeout(record.id, new Date(record.lastOutboundAt!.getTime() + 8 * 86_400_000));
    const approval = await until("the cancellation card's ts stored", async () => {
      const row = await h.db.prisma.approvalRequest.findFirst({ where: { caseId: record.id, kind: "cancellation" } });
      return row?.slackTs ? row : false;
    });
    await h.bot.idle();
    expect(await faultFired("card")).toBe(true);
    const cards = h.fake.thread(AUDIT_CHANNEL, record.slackTs!).filter((m) => /^Cancellation of/.test(String(m.text)));
    expect(cards.map((m) => m.ts)).toEqual([approval.slackTs]);
    expect(postsOf(`card:${approval.id}`)).toHaveLength(1);
  });

  it("a note in a case's thread", { timeout: 90_000 }, async () => {
    const record = await caseOf("VP-111");
    await failNextWrite("note", "slack_post_intents", "ts", "NEW.key LIKE 'note:%'");
    const text = "A note whose post could not be recorded the first time.";
    await caseJobs(h.jobs).threadNote(record.id, "post-once-test", text);
    await until("the note recorded", async () => faultFired("note"));
    await h.bot.idle();
    await until("the note's retry done", async () => (await keptPosts("note:")) === 1);
    expect(h.fake.thread(AUDIT_CHANNEL, record.slackTs!).filter((m) => m.text === text)).toHaveLength(1);
  });

  it("the answer to a question in a case's thread", { timeout: 90_000 }, async () => {
    const record = await caseOf("VP-111");
    await failNextWrite("answer", "slack_post_intents", "ts", "NEW.key LIKE 'answer:%'");
    const since = h.fake.calls.length;
    const asked = h.fake.userMessage({
      user: CAROL,
      channel: AUDIT_CHANNEL,
      text: "why did this case fail?",
      thread_ts: record.slackTs!,
    });
    expect((await h.post(asked.body)).status).toBe(200);
    await until("the answer recorded", async () => faultFired("answer"));
    await h.bot.idle();
    await until("the answer's retry done", async () => (await keptPosts("answer:")) === 1);
    const answers = h.fake
      .thread(AUDIT_CHANNEL, record.slackTs!)
      .filter((m) => m.bot_id && Number(m.ts) > Number(asked.message.ts));
    expect(answers).toHaveLength(1);
    expect(String(answers[0]!.text)).toMatch(/Location check/);
    const answerPosts = h.fake.calls
      .slice(since)
      .filter(
        (c) =>
          ["chat.postMessage", "chat.startStream"].includes(c.method) &&
          c.response?.ok &&
          c.body.thread_ts === record.slackTs,
      );
    // Answers stream: one message started, whether by a post or a stream.
    expect(answerPosts).toHaveLength(1);
  });

  it("a digest", { timeout: 60_000 }, async () => {
    await failNextWrite("digest", "digest_runs", "ts", "TRUE");
    await expect(h.bot.digest.post(false, "scheduled:post-once-test")).rejects.toThrow(/injected fault/);
    expect(await h.bot.digest.post(false, "scheduled:post-once-test")).toMatch(/Digest posted/);
    expect(await h.bot.digest.post(false, "scheduled:post-once-test")).toMatch(/already posted/);
    const digests = h.fake.messages(AUDIT_CHANNEL).filter((m) => String(m.text).startsWith("Pool Patrol digest"));
    expect(digests).toHaveLength(1);
    expect(postsOf("digest:scheduled:post-once-test")).toHaveLength(1);
  });

  it("a sweep's summary, and its new cases' alerts in its thread even when the alert comes first", {
    timeout: 90_000,
  }, async () => {
    // Two open cases the sweep "opened" (no alert yet), as a sweep killed halfway leaves them.
    const opened = await Promise.all(["VP-113", "VP-114"].map(caseOf));
    const sweepId = `manual-post-once-${Date.now()}`;
    await createSweep(h.db.prisma, { id: sweepId, trigger: "cli", pageCount: 1, vanpoolCount: 2, now: new Date() });
    for (const c of opened)
      await h.db.prisma.case.update({
        where: { id: c.id },
        data: { slackChannel: null, slackTs: null, meta: { ...(c.meta as object), opened_by: `sweep:${sweepId}` } },
      });
    await failNextWrite("sweep", "sweeps", "slack_ts", `NEW.id = '${sweepId}'`);
    const [first, second] = opened.map((c) => c.id) as [string, string];
    // Their alerts from before (the harness's start-up) stay in the channel; no new one may join them.
    const inChannelBefore = [first, second].map((id) => alertsFor(id).length);
    const callsBefore = h.fake.calls.length;

    // On restart, missing alerts are queued: the sweep has no summary yet, so it is posted first (once,
    // though its first write fails), and the alerts go in its thread.
    await queueMissingAlerts(h.jobs, h.db.prisma);
    const summary = await until("the summary's ts stored", async () => {
      const row = await h.db.prisma.sweep.findUniqueOrThrow({ where: { id: sweepId } });
      return row.slackTs ?? false;
    });
    await until("both alerts stored", async () => {
      const rows = await h.db.prisma.case.findMany({ where: { id: { in: [first, second] } } });
      return rows.every((r) => r.slackTs);
    });
    await h.bot.idle();
    expect(await faultFired("sweep")).toBe(true);
    const inThread = h.fake.thread(AUDIT_CHANNEL, summary);
    const stored = await h.db.prisma.case.findMany({ where: { id: { in: [first, second] } }, orderBy: { id: "asc" } });
    for (const [i, id] of [first, second].entries()) {
      const alerts = inThread.filter((m) => String(m.text).includes(`(${id},`));
      expect(alerts, id).toHaveLength(1);
      expect(stored.find((c) => c.id === id)?.slackTs, id).toBe(alerts[0]!.ts);
      expect(alertsFor(id), `${id}: no new alert in the channel`).toHaveLength(inChannelBefore[i]!);
    }

    // The sweep's finish job then announces it: the summary is updated in place, nothing is posted again.
    const announce = announcer();
    await announce({ ...(await findSweepTotals(h.db.prisma, sweepId))!, new_cases: [first, second] });
    await h.bot.idle();
    expect(postsOf(`sweep:${sweepId}`)).toHaveLength(1);
    expect(h.fake.messages(AUDIT_CHANNEL).filter((m) => m.ts === summary)).toHaveLength(1);
    for (const id of [first, second]) expect(postsOf(`alert:${id}`, callsBefore), id).toHaveLength(1);
  });
});

describe("a claim that runs out while its holder is still at work", () => {
  it("is not posted by the slow holder beside the one that took it over", { timeout: 30_000 }, async () => {
    const key = `test:slow-holder-${Date.now()}`;
    const text = "A message that must be posted once.";
    // An earlier attempt claimed this post and died before posting: the next holder looks in Slack first.
    await holdPost(h.db.prisma, { key, channel: AUDIT_CHANNEL, holder: "a killed process", holdMs: 0 });
    let recorded: SlackLocation | undefined;
    const post: OncePost = {
      key,
      args: { channel: AUDIT_CHANNEL, text },
      posted: async () => recorded,
      record: async (at) => {
        recorded = at;
      },
    };
    const deps = { prisma: h.db.prisma, client: h.bot.app.client, pacer: createChannelPacer(h.db.prisma), holdMs: 300 };
    const callsBefore = h.fake.calls.length;

    // The first holder's lookup is answered at once but reaches it late, after its claim ran out.
    h.fake.delayNext("conversations.history", 1_500);
    const slow = postOnce(deps, post);
    await waitFor("the slow holder's lookup", () =>
      h.fake.calls.slice(callsBefore).some((c) => c.method === "conversations.history"),
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    const quick = await postOnce(deps, post);

    expect(await slow).toEqual(quick);
    expect(postsOf(key, callsBefore)).toHaveLength(1);
    expect(h.fake.messages(AUDIT_CHANNEL).filter((m) => m.text === text)).toHaveLength(1);
  });
});

describe("a post recorded by another holder just after this one looked", () => {
  it("is not posted again by this one once it holds the claim", { timeout: 30_000 }, async () => {
    const key = `test:recorded-meanwhile-${Date.now()}`;
    const text = "A sweep summary both a new case's alert and the finish job want.";
    const deps = {
      prisma: h.db.prisma,
      client: h.bot.app.client,
      pacer: createChannelPacer(h.db.prisma),
      holdMs: h.deps.settings.claimMs,
    };
    let recorded: SlackLocation | undefined;
    const post = (looks: { stale: boolean }): OncePost => ({
      key,
      args: { channel: AUDIT_CHANNEL, text },
      // A stale first look: the other holder posted, recorded and let go of its claim right after it.
      posted: async () => {
        if (!looks.stale) return recorded;
        looks.stale = false;
        return undefined;
      },
      record: async (at) => {
        recorded = at;
      },
    });
    const first = await postOnce(deps, post({ stale: false }));
    const callsBefore = h.fake.calls.length;

    expect(await postOnce(deps, post({ stale: true }))).toEqual(first);
    expect(postsOf(key, callsBefore)).toHaveLength(0);
    expect(h.fake.messages(AUDIT_CHANNEL).filter((m) => m.text === text)).toHaveLength(1);
  });
});

describe("a message deleted in Slack", () => {
  it("a sweep's summary is posted again when the sweep is announced, and the sweep points at it", {
    timeout: 60_000,
  }, async () => {
    const sweepId = `manual-deleted-${Date.now()}`;
    await createSweep(h.db.prisma, { id: sweepId, trigger: "cli", pageCount: 1, vanpoolCount: 0, now: new Date() });
    const announce = announcer();
    const summaryTs = async () => (await h.db.prisma.sweep.findUniqueOrThrow({ where: { id: sweepId } })).slackTs;
    await announce((await findSweepTotals(h.db.prisma, sweepId))!);
    const first = await summaryTs();
    expect(first).toBeTruthy();
    await h.bot.app.client.chat.delete({ channel: AUDIT_CHANNEL, ts: first! });

    const since = h.fake.calls.length;
    await announce((await findSweepTotals(h.db.prisma, sweepId))!);
    const second = await summaryTs();
    expect(second).toBeTruthy();
    expect(second).not.toBe(first);
    expect(h.fake.messages(AUDIT_CHANNEL).map((m) => m.ts)).toContain(second);
    expect(postsOf(`sweep:${sweepId}`, since)).toHaveLength(1);

    // Announced again (the finish job retried): the new summary is updated in place, nothing more is posted.
    const updates = h.fake.callsTo("chat.update").length;
    await announce((await findSweepTotals(h.db.prisma, sweepId))!);
    expect(await summaryTs()).toBe(second);
    expect(postsOf(`sweep:${sweepId}`)).toHaveLength(2);
    expect(
      h.fake
        .callsTo("chat.update")
        .slice(updates)
        .filter((c) => c.body.ts === second && c.response?.ok),
    ).toHaveLength(1);
  });
});
