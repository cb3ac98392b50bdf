// Faults injected through the local stubs while the bot runs its jobs: Resend
// refusing or recovering, a case alert deleted in Slack, a second instance on the
// same database. Effects are counted where they land (the Resend stub, the fake Slack).
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startBotJobs } from "../../src/app/bot-jobs.js";
import { createSlackApp } from "../../src/bot/app.js";
import { parseSettings } from "../../src/config/settings.js";
import { type CaseChange, changeCase } from "../../src/data/case-repository.js";
import { createSweep, findSweepTotals } from "../../src/data/sweep-repository.js";
import { resendSender } from "../../src/integrations/email/resend-sender.js";
import { startJobEngine } from "../../src/queue/engine.js";
import { caseJobs, QUEUE_OPTIONS } from "../../src/queue/queues.js";
import { createSweepAnnouncer } from "../../src/workers/sweep-announce.js";
import { AUDIT_CHANNEL, type Harness, startHarness } from "../support/bot-harness.js";
import { type ResendStub, startResendStub } from "../support/resend-stub.js";
import { waitFor } from "../support/wait.js";

let h: Harness;
let resend: ResendStub;
beforeAll(async () => {
  resend = await startResendStub();
  h = await startHarness({
    sender: resendSender({ apiKey: "re_test_key", baseUrl: resend.baseUrl, timeoutMs: 3000 }),
    quickRetries: true,
  });
});
// A test that stops halfway must not leave the stub refusing mail for the next one.
afterEach(() => resend.failFor(0, 200, ""));
afterAll(async () => {
  await h.close();
  await resend.close();
});

const caseOf = (vanpoolId: string) =>
  h.db.prisma.case.findFirstOrThrow({ where: { vanpoolId, status: { notIn: ["resolved", "cancelled"] } } });
const alertsFor = (caseId: string) =>
  h.fake.messages(AUDIT_CHANNEL).filter((m) => String(m.text).includes(`(${caseId},`));
// Jobs retried with backoff, in the tests given 90 s: their waits allow 60 s.
const PATIENTLY = { timeoutMs: 60_000 };
/** Someone moves the case to `status` outside the bot's jobs; its alert is brought up to date. */
async function moveCase(caseId: string, change: Pick<CaseChange, "status" | "why" | "actor">) {
  await changeCase(h.db.prisma, caseId, { ...change, now: new Date() });
  await h.bot.messages.syncCase(caseId);
}

describe("outreach email failures", () => {
  // Four attempts a second apart (the harness's quick retries; the product's backoff would take 14 s); its waits allow 90 s.
  it("an email Resend keeps refusing moves the case to a person, with the reason on the alert, in the thread and in the digest", {
    timeout: 90_000,
  }, async () => {
    resend.failFor(100, 429, "rate limited");
    // The stub is shared by the file's tests: count what this one causes.
    const sentBefore = resend.sent.length;
    const attemptsBefore = resend.attempts();
    const result = await h.bot.ctx.workflow.auditVanpool("VP-111");
    const caseId = result.case_id!;
    const record = await waitFor(
      "the case to need a person",
      async () => {
        const row = await h.db.prisma.case.findUniqueOrThrow({ where: { id: caseId } });
        return row.status === "hitl_review" && row;
      },
      PATIENTLY,
    );
    await h.bot.idle();
    expect(record.lastOutboundAt).toBeNull(); // no reply clock for mail that never left
    expect(resend.sent.length).toBe(sentBefore);
    const reason = /email to EMP-\d+ failed: 429 rate limited/i;
    const alert = await waitFor(
      "the alert to show the reason",
      async () => {
        const latest = alertsFor(caseId).at(-1);
        return latest && reason.test(JSON.stringify(latest.blocks)) && latest;
      },
      PATIENTLY,
    );
    expect(alertsFor(caseId)).toHaveLength(1);
    await waitFor(
      "the reason in the case thread",
      async () => h.fake.thread(AUDIT_CHANNEL, alert.ts).some((m) => reason.test(String(m.text))),
      PATIENTLY,
    );
    // Every email of the case gave up after its retries, none was sent.
    const failed = await waitFor(
      "every email to give up",
      async () => {
        const rows = await h.db.prisma.message.findMany({ where: { thread: { caseId }, direction: "outbound" } });
        return rows.length > 0 && rows.every((m) => m.status === "failed") && rows;
      },
      PATIENTLY,
    );
    expect(resend.sent.length).toBe(sentBefore);
    // Each email: the first try and three retries.
    expect(resend.attempts() - attemptsBefore).toBeGreaterThanOrEqual(4 * failed.length);
    await h.bot.digest.post(true);
    expect(JSON.stringify(h.fake.messages(AUDIT_CHANNEL).at(-1)!.blocks)).toMatch(reason);
    resend.failFor(0, 200, "");

    // A person settles it: the case leaves review, and the stale reason leaves the alert and the digest.
    await moveCase(caseId, { status: "pending_reply", why: "address corrected by hand", actor: "person:U0ALICE" });
    expect(JSON.stringify(alertsFor(caseId).at(-1)!.blocks)).not.toMatch(reason);
    // Back with a person for another reason: the old email failure is not shown as why.
    await moveCase(caseId, {
      status: "hitl_review",
      why: "the rider disputes the distance",
      actor: "agent:case_manager",
    });
    expect(JSON.stringify(alertsFor(caseId).at(-1)!.blocks)).not.toMatch(reason);
    await h.bot.digest.post(true);
    const digest = JSON.stringify(h.fake.messages(AUDIT_CHANNEL).at(-1)!.blocks);
    expect(digest).toContain(caseId);
    expect(digest).not.toMatch(reason);
  });

  it("an email refused once is retried and reaches the rider exactly once; the reply clock starts when it is sent", async () => {
    resend.failFor(1, 500, "temporary outage");
    const before = resend.sent.length;
    const result = await h.bot.ctx.workflow.auditVanpool("VP-109");
    const caseId = result.case_id!;
    const flagged = (await h.db.prisma.case.findUniqueOrThrow({ where: { id: caseId } })).meta as { flagged: string[] };
    const sent = await waitFor("every email to be sent", async () => {
      const rows = await h.db.prisma.message.findMany({ where: { thread: { caseId }, direction: "outbound" } });
      return rows.length === flagged.flagged.length && rows.every((m) => m.status === "sent") && rows;
    });
    await h.bot.idle();
    expect(resend.sent.length - before).toBe(sent.length);
    expect(new Set(resend.sent.slice(before).map((s) => s.idempotencyKey)).size).toBe(sent.length);
    const record = await h.db.prisma.case.findUniqueOrThrow({ where: { id: caseId } });
    expect(record.status).toBe("pending_reply");
    expect(record.lastOutboundAt).not.toBeNull();
    const timeouts = await h.db.pool.query(
      `SELECT start_after FROM pgboss.job WHERE name = 'reply-timeout' AND data->>'caseId' = $1`,
      [caseId],
    );
    expect(timeouts.rowCount).toBeGreaterThan(0);
    const due = new Date(timeouts.rows.at(-1).start_after).getTime();
    expect(due - record.lastOutboundAt!.getTime()).toBeGreaterThan(6.9 * 86_400_000);
  });
});

/** A second bot on the same database and the same Slack, with its own job engine and clock. */
async function startSecondInstance() {
  const jobs = await startJobEngine({
    databaseUrl: h.db.url,
    log: () => {},
    pollingIntervalSeconds: 0.5,
    queues: QUEUE_OPTIONS,
  });
  const second = await createSlackApp({
    slack: h.slack,
    deps: { ...h.deps, jobs },
    jobs,
    retries: 0,
    channelIntervalMs: 0,
  });
  const clock = await startBotJobs(second, jobs, parseSettings({}));
  return {
    second,
    jobs,
    async stop() {
      clock.stop();
      await second.idle();
      await jobs.stop();
    },
  };
}

describe("Slack in step with the database", () => {
  it("re-posts a case alert deleted in Slack and stores where the new one is", async () => {
    // VP-103's case waits for a person in the mock data; no other test here touches it.
    const record = await caseOf("VP-103");
    await h.bot.messages.syncCase(record.id);
    const before = await h.db.prisma.case.findUniqueOrThrow({ where: { id: record.id } });
    await h.bot.ctx.client.chat.delete({ channel: before.slackChannel!, ts: before.slackTs! });
    await h.bot.messages.postInThread(record.id, "A note after the alert was deleted.", "after-delete");
    const after = await h.db.prisma.case.findUniqueOrThrow({ where: { id: record.id } });
    expect(after.slackTs).not.toBe(before.slackTs);
    expect(
      h.fake.thread(AUDIT_CHANNEL, after.slackTs!).some((m) => /after the alert was deleted/.test(String(m.text))),
    ).toBe(true);
  });

  it("two instances on one database post one alert per case", async () => {
    const { second, stop } = await startSecondInstance();
    try {
      // Both instances are asked to bring every open case into Slack at once.
      const open = await h.db.prisma.case.findMany({ where: { status: { notIn: ["resolved", "cancelled"] } } });
      await Promise.all(open.flatMap((c) => [h.bot.messages.syncCase(c.id), second.messages.syncCase(c.id)]));
      await Promise.all([h.bot.idle(), second.idle()]);
      for (const c of open) expect(alertsFor(c.id), c.id).toHaveLength(1);
      const cards = h.fake
        .messages(AUDIT_CHANNEL)
        // Each thread once: a card also sent to the channel would list its thread again.
        .filter((m) => !m.thread_ts || m.thread_ts === m.ts)
        .flatMap((m) => h.fake.thread(AUDIT_CHANNEL, m.ts))
        .filter((m) => /needs review|cancel/i.test(String(m.text)) && m.thread_ts);
      expect(new Set(cards.map((m) => m.ts)).size).toBe(cards.length);
    } finally {
      await stop();
    }
  });

  it("a sweep's new cases get their alerts in its summary's thread, once each with two instances; a refused post is retried alone", {
    timeout: 90_000,
  }, async () => {
    const { second, jobs: secondJobs, stop } = await startSecondInstance();
    try {
      await Promise.all([h.bot.idle(), second.idle()]);
      // Three open cases (of vanpools no other test here touches) with no alert in Slack yet, as a sweep leaves them.
      const opened = await Promise.all(["VP-113", "VP-114", "VP-115"].map(caseOf));
      const ids = opened.map((c) => c.id);
      await h.db.prisma.case.updateMany({ where: { id: { in: ids } }, data: { slackChannel: null, slackTs: null } });
      const sweepId = `manual-test-${Date.now()}`;
      await createSweep(h.db.prisma, { id: sweepId, trigger: "cli", pageCount: 0, vanpoolCount: 3, now: new Date() });
      const announcers = [
        createSweepAnnouncer({
          prisma: h.db.prisma,
          client: h.bot.app.client,
          channel: AUDIT_CHANNEL,
          jobs: h.jobs,
          claimMs: h.deps.settings.claimMs,
        }),
        createSweepAnnouncer({
          prisma: h.db.prisma,
          client: second.app.client,
          channel: AUDIT_CHANNEL,
          jobs: secondJobs,
          claimMs: h.deps.settings.claimMs,
        }),
      ];
      // The summary is posted first; the refusals below then land on the alerts.
      await announcers[0]!({ ...(await findSweepTotals(h.db.prisma, sweepId))!, new_cases: [] });
      const totals = { ...(await findSweepTotals(h.db.prisma, sweepId))!, new_cases: ids };
      const summary = totals.slack!;
      const postsInThread = () =>
        h.fake.callsTo("chat.postMessage").filter((c) => c.body.thread_ts === summary.ts && !c.body.reply_broadcast);
      h.fake.failNext("chat.postMessage", "internal_error");
      h.fake.rateLimitNext("chat.postMessage", 1);
      // Both instances' finish jobs announce the same sweep at once.
      await Promise.all(announcers.map((announce) => announce(totals)));
      const alertsInThread = (caseId: string) =>
        h.fake.thread(AUDIT_CHANNEL, summary.ts).filter((m) => String(m.text).includes(`(${caseId},`));
      await waitFor(
        "every alert in the summary's thread",
        async () => ids.every((id) => alertsInThread(id).length > 0),
        PATIENTLY,
      );
      await Promise.all([h.bot.idle(), second.idle()]);
      for (const id of ids) expect(alertsInThread(id), id).toHaveLength(1);
      // Three alerts posted, plus the two refused attempts, each retried on its own.
      expect(postsInThread()).toHaveLength(ids.length + 2);
      const stored = await h.db.prisma.case.findMany({ where: { id: { in: ids } } });
      expect(stored.map((c) => h.fake.channelOf(c.slackTs!))).toEqual(ids.map(() => AUDIT_CHANNEL));
      expect(h.fake.messages(AUDIT_CHANNEL).filter((m) => m.ts === summary.ts)).toHaveLength(1);

      // The finish job run again (a retry) posts nothing new.
      await announcers[1]!(totals);
      await Promise.all([h.bot.idle(), second.idle()]);
      expect(postsInThread()).toHaveLength(ids.length + 2);
    } finally {
      await stop();
    }
  });

  it("two instances on one database: one reply-timeout effect, one approval and one card for it", {
    timeout: 90_000,
  }, async () => {
    const { second, jobs, stop } = await startSecondInstance();
    try {
      await h.bot.ctx.workflow.auditVanpool("VP-102");
      await h.bot.idle();
      const record = await waitFor(
        "VP-102 waiting for a reply",
        async () => {
          const row = await caseOf("VP-102");
          return row.status === "pending_reply" && row.lastOutboundAt ? row : false;
        },
        PATIENTLY,
      );
      const sentAt = record.lastOutboundAt!;
      // Both instances queue the timeout and run it by hand at once, as two replicas' clocks and a `tick` might.
      const late = new Date(sentAt.getTime() + 8 * 86_400_000);
      await Promise.all([
        caseJobs(h.jobs).replyTimeout(record.id, sentAt, late),
        caseJobs(jobs).replyTimeout(record.id, sentAt, late),
        h.bot.ctx.workflow.replyTimeout(record.id, late, sentAt),
        second.ctx.workflow.replyTimeout(record.id, late, sentAt),
      ]);
      await Promise.all([h.bot.idle(), second.idle()]);
      const timeouts = await h.db.prisma.auditEvent.count({
        where: { subjectId: record.id, action: "case.reply_timeout" },
      });
      expect(timeouts).toBe(1);
      const toPreCancel = await h.db.prisma.auditEvent.findMany({
        where: { subjectId: record.id, action: "case.status_changed" },
      });
      expect(toPreCancel.filter((e) => (e.details as { to?: string }).to === "pre_cancel")).toHaveLength(1);
      expect(await h.db.prisma.approvalRequest.count({ where: { caseId: record.id, kind: "cancellation" } })).toBe(1);
      // Both instances bring the case into Slack: one alert, one card in its thread.
      await Promise.all([h.bot.messages.syncCase(record.id), second.messages.syncCase(record.id)]);
      await Promise.all([h.bot.idle(), second.idle()]);
      expect(alertsFor(record.id)).toHaveLength(1);
      const cards = h.fake
        .thread(AUDIT_CHANNEL, alertsFor(record.id)[0]!.ts)
        .filter((m) => /^Cancellation of/.test(String(m.text)));
      expect(cards).toHaveLength(1);
    } finally {
      await stop();
    }
  });
});
