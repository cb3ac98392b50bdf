// kill -9 a bot process at random points while it sends emails, start a new one, and count
// the effects where they land: one email per intended send at the Resend stub, and no agent
// run left `running`. The bot is a child process (test/support/crash-child.ts); the
// fake Slack and the Resend stub are HTTP servers in this process.
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AgentDeps, buildAgentDeps } from "../../src/agents/deps.js";
import { createCaseWorkflow } from "../../src/cases/case-workflow.js";
import { emailServiceDeps, sendCaseEmail } from "../../src/cases/email-service.js";
import { PROJECT_ROOT, parseSettings } from "../../src/config/settings.js";
import { readFixtureDir } from "../../src/data/fixtures.js";
import { seedFixtures } from "../../src/data/seed.js";
import { resendSender } from "../../src/integrations/email/resend-sender.js";
import { type JobEngine, startJobEngine } from "../../src/jobs/engine.js";
import { QUEUE_OPTIONS } from "../../src/jobs/queues.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";
import { MOCK_DIR } from "../support/fixtures.js";
import { type ResendStub, startResendStub } from "../support/resend-stub.js";
import { type FakeSlack, startFakeSlack } from "../support/slack/fake-slack.js";

// Each trial starts a bot process (about 30 s with its recovery on a loaded 2-core machine); raise it for a longer soak.
const EMAIL_TRIALS = Number(process.env.POOLPATROL_CRASH_EMAIL_TRIALS ?? 4);

let db: TestDatabase;
let fake: FakeSlack;
let resend: ResendStub;
let engine: JobEngine;
let deps: AgentDeps;
let child: ChildProcess | undefined;

async function startChild(): Promise<void> {
  const started = spawn(process.execPath, ["--import", "tsx", path.join(PROJECT_ROOT, "test/support/crash-child.ts")], {
    cwd: PROJECT_ROOT,
    env: {
      ...process.env,
      CRASH_DATABASE_URL: db.url,
      CRASH_RESEND_URL: resend.baseUrl,
      CRASH_SLACK_API_URL: fake.apiUrl,
      CRASH_SLACK_TOKEN: fake.botToken,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let errors = "";
  started.stderr!.on("data", (chunk) => (errors += chunk));
  await new Promise<void>((resolve, reject) => {
    started.stdout!.on("data", (chunk) => String(chunk).includes("ready") && resolve());
    started.on("exit", (code) => reject(new Error(`the bot exited (${code}) before it was ready:\n${errors}`)));
  });
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

async function until<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 45_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const randomMs = (max: number) => Math.floor(Math.random() * max);

beforeAll(async () => {
  [fake, resend, db] = await Promise.all([startFakeSlack(), startResendStub(), createTestDatabase()]);
  await seedFixtures(db.prisma, readFixtureDir(MOCK_DIR));
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
  await engine.stop();
  await Promise.all([fake.close(), resend.close()]);
  await db.drop();
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
      await new Promise((resolve) => setTimeout(resolve, randomMs(400)));
      await killChild();
      await startChild();
      await until(`trial ${trial}: every email sent`, async () => {
        const rows = await db.prisma.message.findMany({ where: { idempotencyKey: { in: keys } } });
        return rows.length === keys.length && rows.every((m) => m.status === "sent");
      });
      for (const key of keys)
        expect(
          resend.sent.filter((s) => s.idempotencyKey === key),
          key,
        ).toHaveLength(1);
    }
    // Exactly one email reached Resend per intended send, over every trial and the case's own emails.
    const intended = await db.prisma.message.count({
      where: { direction: "outbound", status: "sent", thread: { caseId: caseId! } },
    });
    expect(resend.sent).toHaveLength(intended);
    await noRunLeftRunning();
  });
});
