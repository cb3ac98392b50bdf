// kill -9 a bot process at random points, start a new one, and count the effects where they
// land: one email per intended send at the Resend stub; for an approved cancellation (the whole
// request recorded as the CLI records it, or a per-rider Remove as a signed click on the card),
// the rider removed once, one removal event, one removal notice, the case cancelled, one decision
// note in the case's thread and one card; for an Undo click on that card, each rider back once, one
// reinstatement each, one retraction email each and the card saying so; for a sweep started with
// `/poolpatrol audit all` (killed while it starts, audits its pages, sends first emails or
// announces), the sweep finished once, one case per failing vanpool, one first email per flagged
// rider, one summary and one alert per new case; no agent run left `running`, no sweep job left
// unfinished. The bot is a child process running the compiled dist/ (test/support/children/crash-child.ts);
// the fake Slack and the Resend stub are HTTP servers in this process. The kill points come from a
// seeded generator: set POOLPATROL_CRASH_SEED to the seed a failure prints to replay them.
import { type ChildProcess, spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentDeps } from "../../src/agents/deps.js";
import { removalNoticeKey } from "../../src/agents/outreach/removal-notices.js";
import { buildAppDeps } from "../../src/app/container.js";
import { COMMAND } from "../../src/bot/listeners/commands/poolpatrol.js";
import { createCaseWorkflow } from "../../src/cases/case-workflow.js";
import { seedFolder } from "../../src/cases/seed-folder.js";
import { PROJECT_ROOT, parseSettings } from "../../src/config/settings.js";
import { findApproval } from "../../src/data/approval-repository.js";
import { findCaseCardData } from "../../src/data/case-card-repository.js";
import { JOB_SCHEMA } from "../../src/data/job-repository.js";
import type { PrismaClient } from "../../src/data/prisma.js";
import { insertFixturesInBulk } from "../../src/data/seed.js";
import { findSweepTotals } from "../../src/data/sweep-repository.js";
import { generateSyntheticFixtures } from "../../src/data/synthetic.js";
import { findVanpoolSnapshot } from "../../src/data/vanpool-repository.js";
import { emailServiceDeps, sendCaseEmail } from "../../src/integrations/email/email-service.js";
import { resendSender } from "../../src/integrations/email/resend-sender.js";
import { type JobEngine, startJobEngine } from "../../src/queue/engine.js";
import { QUEUE_OPTIONS } from "../../src/queue/queues.js";
import { postSigned } from "../../src/sandbox/slack/payloads.js";
import { parseButtonValue, RIDER_ACTIONS, UNDO_CANCELLATION } from "../../src/slack/blocks/approval-card.js";
import { evidenceVersion } from "../../src/slack/blocks/card-facts.js";
import { auditVanpool } from "../../src/verification/audit.js";
import { compiledChild } from "../support/compiled-child.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";
import { expectedSweepCases } from "../support/expected-sweep.js";
import { MOCK_DIR } from "../support/fixtures.js";
import { quickRetries } from "../support/quick-retries.js";
import { type ResendStub, startResendStub } from "../support/resend-stub.js";
import { type FakeSlack, startFakeSlack } from "../support/slack/fake-slack.js";
import { waitFor } from "../support/wait.js";

const EMAIL_TRIALS = Number(process.env.POOLPATROL_CRASH_EMAIL_TRIALS ?? 8);
/** Decision trials come in pairs: the whole request approved, then per-rider Removes (each followed by an Undo trial). */
const DECISION_TRIALS = Number(process.env.POOLPATROL_CRASH_DECISION_TRIALS ?? 6);
const SWEEP_TRIALS = Number(process.env.POOLPATROL_CRASH_SWEEP_TRIALS ?? 6);
/** Vanpools per sweep trial, in pages of ten: about one in ten fails a check. */
const SWEEP_VANPOOLS = 200;
const SWEEP_PAGE_SIZE = 10;
const SEED = Number(process.env.POOLPATROL_CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));
const SIGNING_SECRET = "crash-test-secret";
const CHANNEL = "C0AUDIT";
const APPROVER = "U0ALICE";

/** mulberry32: the same seed gives the same kill points. */
function seeded(seed: number) {
  let state = seed >>> 0;
  return (max: number) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * max);
  };
}
const randomMs = seeded(SEED);
const replay = `replay with POOLPATROL_CRASH_SEED=${SEED}`;

let db: TestDatabase;
let fake: FakeSlack;
let resend: ResendStub;
let engine: JobEngine;
let deps: AgentDeps;
let child: ChildProcess | undefined;
let botUrl = "";

/** The database a bot works on and the channel it posts in. */
interface Workplace {
  url: string;
  channel: string;
}
let workplace: Workplace;
const mainWorkplace = (): Workplace => ({ url: db.url, channel: CHANNEL });

/** A bot process with its modules loaded, waiting to be told where to work. */
interface LoadedBot {
  process: ChildProcess;
  loaded: Promise<void>;
  ready: Promise<string>;
}
/** The next bot, loading while the current one works: a restart then costs its connections, not its imports. */
let spare: LoadedBot | undefined;

function loadBot(): LoadedBot {
  const started = spawn(process.execPath, [compiledChild("crash-child")], {
    cwd: PROJECT_ROOT,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let errors = "";
  let output = "";
  const watchers: (() => void)[] = [];
  started.stderr!.on("data", (chunk) => (errors += chunk));
  started.stdout!.on("data", (chunk) => {
    output += chunk;
    for (const watch of watchers) watch();
  });
  const exited = new Promise<never>((_, reject) =>
    started.on("exit", (code) => reject(new Error(`the bot exited (${code}) before it was ready:\n${errors}`))),
  );
  exited.catch(() => {});
  const printed = (pattern: RegExp) =>
    Promise.race([
      new Promise<string>((resolve) => {
        const watch = () => {
          const found = pattern.exec(output);
          if (found) resolve(found[1] ?? found[0]);
        };
        watchers.push(watch);
        watch();
      }),
      exited,
    ]);
  const loaded = printed(/loaded/).then(() => undefined);
  loaded.catch(() => {});
  const ready = printed(/ready (\d+)/);
  ready.catch(() => {});
  return { process: started, loaded, ready };
}

async function startChild(where: Workplace = workplace): Promise<void> {
  workplace = where;
  const bot = spare ?? loadBot();
  spare = loadBot();
  await bot.loaded;
  bot.process.stdin!.write(
    `${JSON.stringify({
      databaseUrl: where.url,
      channel: where.channel,
      sweepPageSize: String(SWEEP_PAGE_SIZE),
      resendUrl: resend.baseUrl,
      slackApiUrl: fake.apiUrl,
      slackToken: fake.botToken,
      signingSecret: SIGNING_SECRET,
    })}\n`,
  );
  botUrl = `http://127.0.0.1:${await bot.ready}/slack/events`;
  child = bot.process;
}

/** A bot running on `where`, started (or moved there) if need be. */
async function childOn(where: Workplace): Promise<void> {
  if (child && workplace.url === where.url && workplace.channel === where.channel) return;
  if (child) await killChild();
  await startChild(where);
}

function killChild(): Promise<void> {
  const dying = child!;
  child = undefined;
  return new Promise((resolve) => {
    dying.once("exit", () => resolve());
    dying.kill("SIGKILL");
  });
}

async function crashNow(): Promise<void> {
  await killChild();
  await startChild();
}

async function crashAfter(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
  await crashNow();
}

/** `waitFor` with the crash test's patience and the seed to replay it in its timeout message. */
const until = <T>(what: string, probe: () => T | Promise<T>, options: { timeoutMs?: number; everyMs?: number } = {}) =>
  waitFor(`${what} (${replay})`, probe, { timeoutMs: 90_000, ...options });

beforeAll(async () => {
  console.log(`crash test seed ${SEED}`);
  [fake, resend, db] = await Promise.all([startFakeSlack(), startResendStub(), createTestDatabase()]);
  await seedFolder(db, MOCK_DIR);
  // Synthetic vanpools about one in ten of which fail a check: one cancellation per decision trial.
  await insertFixturesInBulk(db.prisma, generateSyntheticFixtures(30 * DECISION_TRIALS + 60, 7));
  // This process only records work and queues its jobs; the child bot runs them.
  engine = await startJobEngine({
    databaseUrl: db.url,
    log: () => {},
    queues: quickRetries(QUEUE_OPTIONS),
    supervise: false,
  });
  const settings = parseSettings({});
  deps = {
    ...(await buildAppDeps(db, settings, {
      sender: resendSender({ apiKey: "re_test_key", baseUrl: resend.baseUrl, timeoutMs: 3000 }),
    })),
    jobs: engine,
  };
  await startChild(mainWorkplace());
}, 120_000);
afterAll(async () => {
  if (child) await killChild();
  spare?.process.kill("SIGKILL");
  await engine?.stop();
  await Promise.all([fake?.close(), resend?.close()]);
  await db?.drop();
});

const noRunLeftRunning = () =>
  until(
    "no agent run left running",
    async () => (await db.prisma.agentRun.count({ where: { status: "running" } })) === 0,
  );

describe("kill -9 during work, then a restart", () => {
  it(`sends every email exactly once across ${EMAIL_TRIALS} crashes while sending`, { timeout: 600_000 }, async () => {
    await childOn(mainWorkplace());
    const workflow = createCaseWorkflow(deps);
    const { case_id: caseId } = await workflow.auditVanpool("VP-111");
    const record = await db.prisma.case.findUniqueOrThrow({ where: { id: caseId! } });
    const rider = (
      await db.prisma.employee.findFirstOrThrow({ where: { id: (record.meta as { flagged: string[] }).flagged[0] } })
    ).email;
    const emails = emailServiceDeps(deps);
    for (let trial = 0; trial < EMAIL_TRIALS; trial++) {
      const keys = [0, 1, 2].map((i) => `crash-trial-${trial}-${i}`);
      for (const key of keys)
        await sendCaseEmail(emails, {
          caseId: caseId!,
          vanpoolId: "VP-111",
          to: [rider],
          subject: `Checking in (${key})`,
          body: "A short note from the vanpool program.",
          idempotencyKey: key,
          actor: "crash-test",
          now: new Date(),
        });
      await crashAfter(randomMs(400));
      await until(`trial ${trial}: every email sent`, async () => {
        const rows = await db.prisma.message.findMany({ where: { idempotencyKey: { in: keys } } });
        return rows.length === keys.length && rows.every((m) => m.status === "sent");
      });
      for (const key of keys)
        expect(
          resend.sent.filter((s) => s.idempotencyKey === key),
          `${key}, ${replay}`,
        ).toHaveLength(1);
    }
    // Exactly one email reached Resend per intended send, over every trial and the case's own emails
    // (the other test's cancellations send their own notices to the same stub).
    const intended = await db.prisma.message.findMany({
      where: { direction: "outbound", status: "sent", thread: { caseId: caseId! } },
      select: { idempotencyKey: true, id: true },
    });
    const keys = new Set(intended.map((m) => m.idempotencyKey ?? m.id));
    expect(resend.sent.filter((s) => keys.has(s.idempotencyKey ?? ""))).toHaveLength(intended.length);
    await noRunLeftRunning();
  });

  /** Failing synthetic vanpools, found with the checks themselves (no case is opened). */
  async function failingVanpools(count: number): Promise<string[]> {
    const found: string[] = [];
    // Synthetic vanpools are VP-100000 and up; the fixture ones are VP-1xx.
    const candidates = (await db.prisma.vanpool.findMany({ select: { id: true }, orderBy: { id: "asc" } })).filter(
      (v) => v.id.length > 6,
    );
    for (const { id } of candidates) {
      if (found.length === count) break;
      const audit = await auditVanpool((await findVanpoolSnapshot(db.prisma, id))!, deps);
      if (audit.location.verdict === "fail" || audit.shift.verdict === "fail") found.push(id);
    }
    return found;
  }

  /** A case waiting on its cancellation: audited, its first email sent by the bot, then no reply by the deadline. */
  async function awaitingCancellation(vanpoolId: string) {
    const workflow = createCaseWorkflow(deps);
    const { case_id } = await workflow.auditVanpool(vanpoolId);
    const caseId = case_id!;
    const sent = await until(`${caseId}: first email sent`, async () => {
      const row = await db.prisma.case.findUniqueOrThrow({ where: { id: caseId } });
      return row.lastOutboundAt ?? false;
    });
    await workflow.replyTimeout(caseId, new Date(sent.getTime() + 9 * 86_400_000));
    const approval = await db.prisma.approvalRequest.findFirstOrThrow({
      where: { caseId, kind: "cancellation", status: "pending" },
    });
    const flagged = (approval.payload as { employee_ids: string[] }).employee_ids;
    return { vanpoolId, caseId, approvalId: approval.id, flagged };
  }

  const isAlertOf = (vanpoolId: string) => (m: { ts: string; text?: string; thread_ts?: string }) =>
    (!m.thread_ts || m.thread_ts === m.ts) && String(m.text).startsWith(vanpoolId) && String(m.text).includes("CASE-");
  const alertOf = (vanpoolId: string) =>
    until(`${vanpoolId}: its case alert in Slack`, async () => fake.messages(CHANNEL).find(isAlertOf(vanpoolId)));

  type Shown = { ts: string; text?: string; blocks?: unknown[] };
  type Button = { type: string; action_id: string; value: string };
  const buttonsOf = (message: Shown) =>
    ((message.blocks ?? []) as { elements?: Button[]; accessory?: Button }[])
      .flatMap((b) => [...(b.elements ?? []), ...(b.accessory ? [b.accessory] : [])])
      .filter((e) => e.type === "button");
  const cardOf = async (vanpoolId: string) => {
    const alert = await alertOf(vanpoolId);
    return until(`${vanpoolId}: its cancellation card`, async () =>
      fake.thread(CHANNEL, alert.ts).find((m) => /^Cancellation of/.test(String(m.text))),
    );
  };

  /**
   * The card once it shows the case's current evidence, as a person would click it: the bot refuses a
   * click on an older version of the card ("this case changed") and asks for a new click.
   */
  const currentCardOf = async (c: { vanpoolId: string; caseId: string; approvalId: string }) => {
    const alert = await alertOf(c.vanpoolId);
    return until(`${c.vanpoolId}: its cancellation card, current`, async () => {
      const card = fake.thread(CHANNEL, alert.ts).find((m) => /^Cancellation of/.test(String(m.text)));
      const remove = card && buttonsOf(card).find((b) => b.action_id.startsWith(`${RIDER_ACTIONS.remove}:`));
      const approval = await findApproval(db.prisma, c.approvalId);
      if (!remove || !approval) return false;
      const current = evidenceVersion(await findCaseCardData(db.prisma, c.caseId), approval);
      return parseButtonValue(remove.value).version === current ? card : false;
    });
  };

  /** A signed click on the card, as Slack sends it; returns once the bot acknowledged it. */
  async function click(card: Shown, action: { action_id: string; value: string }): Promise<void> {
    const body = fake.blockActionPayload({ user: APPROVER, channel: CHANNEL, message: card as never, action });
    const response = await postSigned(botUrl, SIGNING_SECRET, body);
    // The bot answered: the click is acknowledged, so from here on it must be carried out.
    expect(response.status).toBe(200);
  }

  async function expectCarriedOutOnce(
    c: { vanpoolId: string; caseId: string; approvalId: string; flagged: string[] },
    trial: string,
  ) {
    const applied = await until(`${trial}: the cancellation carried out`, async () => {
      const row = await db.prisma.approvalRequest.findUniqueOrThrow({ where: { id: c.approvalId } });
      return row.appliedAt ? row : false;
    });
    expect(applied.status, `${trial}, ${replay}`).toBe("approved");
    const record = await db.prisma.case.findUniqueOrThrow({ where: { id: c.caseId } });
    const removed = await db.prisma.rider.findMany({
      where: { employeeId: { in: c.flagged }, status: "removed" },
      select: { employeeId: true },
    });
    // Case status consistent with removals: cancelled exactly when someone was removed.
    expect(record.status, `${trial}, ${replay}`).toBe(removed.length > 0 ? "cancelled" : "resolved");
    const removals = await db.prisma.auditEvent.findMany({ where: { subjectId: c.caseId, action: "rider.removed" } });
    expect(
      removals.map((e) => (e.details as { employee_id: string }).employee_id).sort(),
      `${trial}, ${replay}`,
    ).toEqual(removed.map((r) => r.employeeId).sort());
    for (const { employeeId } of removed) {
      const key = removalNoticeKey(c.caseId, employeeId);
      await until(`${trial}: the removal notice to ${employeeId} sent`, async () =>
        resend.sent.some((s) => s.idempotencyKey === key),
      );
      expect(
        resend.sent.filter((s) => s.idempotencyKey === key),
        `${trial}, ${replay}`,
      ).toHaveLength(1);
    }
    const alert = await alertOf(c.vanpoolId);
    const thread = () => fake.thread(CHANNEL, alert.ts);
    await until(`${trial}: the decision note in the thread`, async () =>
      thread().some((m) => /approved the cancellation/.test(String(m.text))),
    );
    // Let any duplicate a second run would post arrive before counting.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(
      thread().filter((m) => /approved the cancellation/.test(String(m.text))),
      `${trial}, ${replay}`,
    ).toHaveLength(1);
    expect(
      thread().filter((m) => /^Cancellation of/.test(String(m.text))),
      `${trial}, ${replay}`,
    ).toHaveLength(1);
    expect(fake.messages(CHANNEL).filter(isAlertOf(c.vanpoolId)), `${trial}, ${replay}`).toHaveLength(1);
  }

  /**
   * A signed click on the carried-out card's Undo, a crash at a random point, then: each removed rider
   * back once, one reinstatement each, the case resolved once, one retraction email each and no other
   * email, one note in the thread, and a card that says it was undone with nothing left to click.
   */
  async function undoAcrossACrash(c: { vanpoolId: string; caseId: string; approvalId: string }, trial: string) {
    const removed = (
      await db.prisma.rider.findMany({
        where: { vanpoolId: c.vanpoolId, status: "removed" },
        include: { employee: { select: { email: true } } },
      })
    ).map((r) => ({ id: r.employeeId, email: r.employee.email }));
    const alert = await alertOf(c.vanpoolId);
    const cardNow = () => fake.thread(CHANNEL, alert.ts).find((m) => /^Cancellation of/.test(String(m.text)));
    const card = await until(`${trial}: Undo on the card`, async () => {
      const shown = cardNow();
      return shown && buttonsOf(shown).some((b) => b.action_id.startsWith(UNDO_CANCELLATION)) ? shown : false;
    });
    const emailsBefore = resend.sent.length;
    await click(card, buttonsOf(card).find((b) => b.action_id.startsWith(UNDO_CANCELLATION))!);
    await crashAfter(randomMs(1500));

    await until(
      `${trial}: every removed rider back`,
      async () => (await db.prisma.rider.count({ where: { vanpoolId: c.vanpoolId, status: "removed" } })) === 0,
    );
    for (const rider of removed) {
      const key = `${c.caseId}:retraction:${rider.id}`;
      await until(`${trial}: the retraction email to ${rider.id}`, async () =>
        resend.sent.some((s) => s.idempotencyKey === key),
      );
    }
    const note = /undid the cancellation/;
    const thread = () => fake.thread(CHANNEL, alert.ts);
    await until(`${trial}: the undo note in the thread`, async () => thread().some((m) => note.test(String(m.text))));
    const shown = await until(`${trial}: the card saying the cancellation was undone`, async () => {
      const now = cardNow();
      return now && JSON.stringify(now.blocks).includes("Cancellation undone") ? now : false;
    });
    // Let any duplicate a second run would send or post arrive before counting.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const reinstated = await db.prisma.auditEvent.findMany({
      where: { subjectId: c.caseId, action: "rider.reinstated" },
    });
    expect(
      reinstated.map((e) => (e.details as { employee_id: string }).employee_id).sort(),
      `${trial}, ${replay}`,
    ).toEqual(removed.map((r) => r.id).sort());
    const undone = await db.prisma.auditEvent.findMany({
      where: { subjectId: c.caseId, action: "case.status_changed" },
    });
    expect(
      undone.filter((e) => (e.details as { from: string; to: string }).from === "cancelled"),
      `${trial}, ${replay}`,
    ).toHaveLength(1);
    // Undo means "decide again": the case waits for a person.
    expect((await db.prisma.case.findUniqueOrThrow({ where: { id: c.caseId } })).status, trial).toBe("hitl_review");
    // Exactly one retraction per rider, and no other email went out since the click.
    const since = resend.sent.slice(emailsBefore);
    expect(since.map((s) => s.idempotencyKey).sort(), `${trial}, ${replay}`).toEqual(
      removed.map((r) => `${c.caseId}:retraction:${r.id}`).sort(),
    );
    expect(
      thread().filter((m) => note.test(String(m.text))),
      `${trial}, ${replay}`,
    ).toHaveLength(1);
    expect(buttonsOf(shown), `${trial}: nothing left to click on the card, ${replay}`).toEqual([]);
  }

  it(`carries out every approved cancellation once across ${2 * DECISION_TRIALS} crashes after the ack, and each Undo across ${DECISION_TRIALS} more`, {
    timeout: 900_000,
  }, async () => {
    await childOn(mainWorkplace());
    const vanpools = await failingVanpools(2 * DECISION_TRIALS);
    expect(vanpools).toHaveLength(2 * DECISION_TRIALS);
    let undoTrials = 0;
    for (let trial = 0; trial < 2 * DECISION_TRIALS; trial++) {
      const perRider = trial % 2 === 1;
      const label = `${perRider ? "Remove" : "Approve"} trial ${trial} on ${vanpools[trial]}`;
      const c = await awaitingCancellation(vanpools[trial]!);
      const card = perRider ? await currentCardOf(c) : await cardOf(c.vanpoolId);
      if (perRider)
        for (const employeeId of c.flagged) {
          const remove = buttonsOf(card).find((b) => b.action_id === `${RIDER_ACTIONS.remove}:${employeeId}`);
          expect(remove, label).toBeDefined();
          await click(card, remove!);
        }
      // The whole request approved at once, as `poolpatrol decide` does: recorded with its job, then the crash.
      else await createCaseWorkflow(deps).decide(c.approvalId, "approve", APPROVER);
      await crashAfter(randomMs(1500));
      await expectCarriedOutOnce(c, label);
      console.log(`${label} passed`);
      if (perRider && (await db.prisma.case.findUniqueOrThrow({ where: { id: c.caseId } })).status === "cancelled") {
        await undoAcrossACrash(c, `Undo trial after ${label}`);
        undoTrials++;
      }
    }
    // Synthetic vanpools' riders fail their checks, so every per-rider trial removes someone to reinstate.
    expect(undoTrials).toBe(DECISION_TRIALS);
    await noRunLeftRunning();
  });

  /** Where a sweep trial kills the bot: while it starts, audits pages, sends first emails, or announces. */
  const SWEEP_PHASES = ["start", "pages", "emails", "announcement"] as const;

  /** Top-level messages of a channel and every reply in their threads. */
  const everyMessage = (channel: string) =>
    fake.messages(channel).flatMap((m) => [m, ...fake.thread(channel, m.ts).filter((r) => r.ts !== m.ts)]);

  const unfinishedSweepJobs = async (prisma: PrismaClient) => {
    const [row] = await prisma.$queryRawUnsafe<{ n: bigint }[]>(
      `SELECT count(*) AS n FROM ${JOB_SCHEMA}.job WHERE name LIKE 'sweep-%' AND state NOT IN ('completed', 'cancelled')`,
    );
    return Number(row!.n);
  };

  /** A sweep trial's own database with its vanpools and the cases a sweep must open: made while the trial before runs. */
  async function sweepDatabase(trial: number) {
    const sweepDb = await createTestDatabase();
    try {
      await insertFixturesInBulk(sweepDb.prisma, generateSyntheticFixtures(SWEEP_VANPOOLS, SEED + trial));
      return { sweepDb, expected: await expectedSweepCases(sweepDb.prisma, deps) };
    } catch (error) {
      await sweepDb.drop();
      throw error;
    }
  }

  async function sweepAcrossACrash(trial: number, prepared: Awaited<ReturnType<typeof sweepDatabase>>): Promise<void> {
    const phase = SWEEP_PHASES[trial % SWEEP_PHASES.length]!;
    const label = `sweep trial ${trial} (killed during ${phase})`;
    const { sweepDb, expected } = prepared;
    const channel = `C0SWEEP${trial}`;
    try {
      const emails = [...expected.values()].flat();
      await childOn({ url: sweepDb.url, channel });
      const emailsBefore = resend.sent.length;
      const sentSoFar = () => resend.sent.length - emailsBefore;
      const response = await postSigned(
        botUrl,
        SIGNING_SECRET,
        fake.slashCommandBody({ command: COMMAND, text: "audit all", user_id: APPROVER, channel_id: channel }),
      );
      expect(await response.text(), label).toContain("Auditing every vanpool");
      const sweepRow = () => sweepDb.prisma.sweep.findFirst();
      const pages = Math.ceil(SWEEP_VANPOOLS / SWEEP_PAGE_SIZE);
      const fast = { everyMs: 10 };
      if (phase === "start") await new Promise((resolve) => setTimeout(resolve, randomMs(300)));
      else if (phase === "pages") {
        const done = 1 + randomMs(pages - 1);
        await until(
          `${label}: ${done} page(s) done`,
          async () => {
            const sweep = await sweepRow();
            const finished = sweep && (await sweepDb.prisma.sweepPage.count({ where: { finishedAt: { not: null } } }));
            return (finished ?? 0) >= done || Boolean(sweep?.finishedAt);
          },
          fast,
        );
      } else if (phase === "emails") {
        const sent = 1 + randomMs(Math.max(1, emails.length - 1));
        await until(`${label}: ${sent} first email(s) sent`, async () => sentSoFar() >= sent, fast);
      } else {
        await until(`${label}: the sweep finished`, async () => Boolean((await sweepRow())?.finishedAt), fast);
        await new Promise((resolve) => setTimeout(resolve, randomMs(300)));
      }
      await crashNow();

      const sweep = await until(`${label}: the sweep finished`, async () => {
        const row = await sweepRow();
        return row?.finishedAt ? row : false;
      });
      expect(await sweepDb.prisma.sweep.count(), `${label}: one sweep, ${replay}`).toBe(1);
      const totals = (await findSweepTotals(sweepDb.prisma, sweep.id))!;
      expect(totals, `${label}, ${replay}`).toMatchObject({
        vanpools: SWEEP_VANPOOLS,
        checked: SWEEP_VANPOOLS,
        errors: [],
      });
      // One case per vanpool that fails, none for the others, each counted once in the sweep's totals.
      const cases = await sweepDb.prisma.case.findMany();
      expect(cases.map((c) => c.vanpoolId).sort(), `${label}, ${replay}`).toEqual([...expected.keys()].sort());
      expect([...totals.new_cases].sort(), `${label}, ${replay}`).toEqual(cases.map((c) => c.id).sort());

      // One first email per flagged rider of each new case, none twice.
      await until(`${label}: every first email sent`, async () => sentSoFar() >= emails.length);
      await until(
        `${label}: no sweep job left unfinished`,
        async () => (await unfinishedSweepJobs(sweepDb.prisma)) === 0,
      );
      await until(
        `${label}: no agent run left running`,
        async () => (await sweepDb.prisma.agentRun.count({ where: { status: "running" } })) === 0,
      );
      // Let any duplicate a second run would send or post arrive before counting.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const recipients = resend.sent.slice(emailsBefore).flatMap((s) => s.body.to as string[]);
      expect(recipients.sort(), `${label}: one first email per flagged rider, ${replay}`).toEqual(emails.sort());

      // One summary in the channel, finished, and one alert per new case.
      const summaries = fake.messages(channel).filter((m) => String(m.text).startsWith("Audit of every vanpool"));
      const described = summaries.map((m) => `${m.ts} "${m.text}"`).join("; ");
      expect(summaries.length, `${label}: one summary, found ${described}, ${replay}`).toBe(1);
      expect(summaries[0]!.text, label).toContain(`${SWEEP_VANPOOLS} checked, ${cases.length} new case`);
      // Each alert is a Slack job of its own, queued by the announcement: wait for all, then for stragglers.
      const alerted = (c: { id: string }) => everyMessage(channel).some((m) => String(m.text).includes(`(${c.id},`));
      await until(`${label}: every new case's alert posted`, async () => cases.every(alerted));
      await new Promise((resolve) => setTimeout(resolve, 300));
      const messages = everyMessage(channel);
      for (const c of cases)
        expect(
          messages.filter((m) => String(m.text).includes(`(${c.id},`)),
          `${label}: the alert of ${c.id}, ${replay}`,
        ).toHaveLength(1);
      // Each alert in the summary's thread, where its case says it is, whenever the kill came.
      const inThread = fake.thread(channel, summaries[0]!.ts);
      const stored = await sweepDb.prisma.case.findMany({ select: { id: true, slackTs: true } });
      for (const c of stored)
        expect(
          inThread.filter((m) => String(m.text).includes(`(${c.id},`)).map((m) => m.ts),
          `${label}: the alert of ${c.id} in the summary's thread, ${replay}`,
        ).toEqual([c.slackTs]);
    } finally {
      if (child && workplace.url === sweepDb.url) await killChild();
      await sweepDb.drop();
    }
  }

  it(`finishes every sweep once, with one case, first email and alert each, across ${SWEEP_TRIALS} crashes`, {
    timeout: 900_000,
  }, async () => {
    let next = SWEEP_TRIALS > 0 ? sweepDatabase(0) : undefined;
    try {
      for (let trial = 0; trial < SWEEP_TRIALS; trial++) {
        const prepared = await next!;
        next = trial + 1 < SWEEP_TRIALS ? sweepDatabase(trial + 1) : undefined;
        const started = Date.now();
        await sweepAcrossACrash(trial, prepared);
        console.log(`sweep trial ${trial} passed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      }
    } finally {
      // A trial that failed leaves the next one's database made: drop it too.
      await next?.then(({ sweepDb }) => sweepDb.drop()).catch(() => {});
    }
  });
});
