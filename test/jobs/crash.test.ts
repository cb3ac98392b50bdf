// kill -9 a bot process at random points, start a new one, and count the effects where they
// land: one email per intended send at the Resend stub; for an approved cancellation (the whole
// request recorded as the CLI records it, or a per-rider Remove as a signed click on the card),
// the rider removed once, one removal event, one removal notice, the case cancelled, one decision
// note in the case's thread and one card; no agent run left `running`. The bot is a child process
// running the compiled dist/ (test/support/crash-child.mjs); the fake Slack and the Resend stub are
// HTTP servers in this process. The kill points come from a seeded generator: set
// POOLPATROL_CRASH_SEED to the seed a failure prints to replay them.
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AgentDeps, buildAgentDeps } from "../../src/agents/deps.js";
import { removalNoticeKey } from "../../src/agents/outreach/removal-notices.js";
import { createCaseWorkflow } from "../../src/cases/case-workflow.js";
import { emailServiceDeps, sendCaseEmail } from "../../src/cases/email-service.js";
import { PROJECT_ROOT, parseSettings } from "../../src/config/settings.js";
import { findApproval } from "../../src/data/approval-repository.js";
import { findCaseCardData } from "../../src/data/case-card-repository.js";
import { readFixtureDir } from "../../src/data/fixtures.js";
import { insertFixturesInBulk, seedFixtures } from "../../src/data/seed.js";
import { generateSyntheticFixtures } from "../../src/data/synthetic.js";
import { findVanpoolSnapshot } from "../../src/data/vanpool-repository.js";
import { resendSender } from "../../src/integrations/email/resend-sender.js";
import { type JobEngine, startJobEngine } from "../../src/jobs/engine.js";
import { QUEUE_OPTIONS } from "../../src/jobs/queues.js";
import { postSigned } from "../../src/sandbox/slack/payloads.js";
import { parseButtonValue, RIDER_ACTIONS } from "../../src/slack/blocks/approval-card.js";
import { evidenceVersion } from "../../src/slack/blocks/card-facts.js";
import { auditVanpool } from "../../src/verification/audit.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";
import { MOCK_DIR } from "../support/fixtures.js";
import { type ResendStub, startResendStub } from "../support/resend-stub.js";
import { type FakeSlack, startFakeSlack } from "../support/slack/fake-slack.js";

const EMAIL_TRIALS = Number(process.env.POOLPATROL_CRASH_EMAIL_TRIALS ?? 10);
const DECISION_TRIALS = Number(process.env.POOLPATROL_CRASH_DECISION_TRIALS ?? 10);
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

async function startChild(): Promise<void> {
  const started = spawn(process.execPath, [path.join(PROJECT_ROOT, "test/support/crash-child.mjs")], {
    cwd: PROJECT_ROOT,
    env: {
      ...process.env,
      CRASH_DATABASE_URL: db.url,
      CRASH_RESEND_URL: resend.baseUrl,
      CRASH_SLACK_API_URL: fake.apiUrl,
      CRASH_SLACK_TOKEN: fake.botToken,
      CRASH_SIGNING_SECRET: SIGNING_SECRET,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let errors = "";
  started.stderr!.on("data", (chunk) => (errors += chunk));
  const port = await new Promise<string>((resolve, reject) => {
    started.stdout!.on("data", (chunk) => {
      const ready = /ready (\d+)/.exec(String(chunk));
      if (ready) resolve(ready[1]!);
    });
    started.on("exit", (code) => reject(new Error(`the bot exited (${code}) before it was ready:\n${errors}`)));
  });
  botUrl = `http://127.0.0.1:${port}/slack/events`;
  child = started;
}

function killChild(): Promise<void> {
  const dying = child!;
  child = undefined;
  return new Promise((resolve) => {
    dying.once("exit", () => resolve());
    dying.kill("SIGKILL");
  });
}

async function crashAfter(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
  await killChild();
  await startChild();
}

async function until<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what} (${replay})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  console.log(`crash test seed ${SEED}`);
  [fake, resend, db] = await Promise.all([startFakeSlack(), startResendStub(), createTestDatabase()]);
  await seedFixtures(db.prisma, readFixtureDir(MOCK_DIR));
  // Synthetic vanpools about one in ten of which fail a check: one cancellation per decision trial.
  await insertFixturesInBulk(db.prisma, generateSyntheticFixtures(30 * DECISION_TRIALS + 60, 7));
  // This process only records work and queues its jobs; the child bot runs them.
  engine = await startJobEngine({ databaseUrl: db.url, log: () => {}, queues: QUEUE_OPTIONS, supervise: false });
  const settings = parseSettings({});
  deps = {
    ...(await buildAgentDeps(db, settings, {
      sender: resendSender({ apiKey: "re_test_key", baseUrl: resend.baseUrl, timeoutMs: 3000 }),
    })),
    jobs: engine,
  };
  await startChild();
}, 120_000);
afterAll(async () => {
  if (child) await killChild();
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

  it(`carries out every approved cancellation once across ${2 * DECISION_TRIALS} crashes after the ack`, {
    timeout: 900_000,
  }, async () => {
    const vanpools = await failingVanpools(2 * DECISION_TRIALS);
    expect(vanpools).toHaveLength(2 * DECISION_TRIALS);
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
    }
    await noRunLeftRunning();
  });
});
