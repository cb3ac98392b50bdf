// The bot's own worker processes, as an operator runs it: `poolpatrol start` from the build (HTTP mode)
// against the fake Slack and the Resend stub in this process, with the default POOLPATROL_WORKER_PROCESSES.
// A worker killed with SIGKILL is started again; a sweep started with `/poolpatrol audit all` is planned
// by the bot but its pages wait while the worker is paused (SIGSTOP), then finish once it runs again,
// with one summary, one alert per new case and one first email per flagged rider; SIGTERM to the bot
// stops its worker, and a worker whose bot was killed with SIGKILL stops by itself.
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildAppDeps } from "../../src/app/container.js";
import { COMMAND } from "../../src/bot/listeners/commands/poolpatrol.js";
import { PROJECT_ROOT, parseSettings } from "../../src/config/settings.js";
import { insertFixturesInBulk } from "../../src/data/seed.js";
import { findSweepTotals } from "../../src/data/sweep-repository.js";
import { generateSyntheticFixtures } from "../../src/data/synthetic.js";
import { postSigned } from "../../src/sandbox/slack/payloads.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";
import { expectedSweepCases } from "../support/expected-sweep.js";
import { freePort } from "../support/free-port.js";
import { type ResendStub, startResendStub } from "../support/resend-stub.js";
import { type FakeSlack, startFakeSlack } from "../support/slack/fake-slack.js";
import { waitFor } from "../support/wait.js";

const VANPOOLS = 100;
const PAGE_SIZE = 10;
const SIGNING_SECRET = "worker-test-secret";
const CHANNEL = "C0AUDIT";
const APPROVER = "U0ALICE";
const START_MS = 120_000;

let db: TestDatabase;
let fake: FakeSlack;
let resend: ResendStub;
let dataDir: string;

/** A `poolpatrol start` process and everything it (and its workers, prefixed) printed. */
interface RunningBot {
  process: ChildProcess;
  url: string;
  output(): string;
  exited: Promise<number | null>;
}

async function startBot(): Promise<RunningBot> {
  const port = await freePort();
  const started = spawn(process.execPath, [path.join(PROJECT_ROOT, "bin", "poolpatrol.js"), "start"], {
    cwd: PROJECT_ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      NO_COLOR: "1",
      DATABASE_URL: db.url,
      POOLPATROL_DATA_DIR: dataDir,
      SLACK_BOT_TOKEN: fake.botToken,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: fake.apiUrl,
      PORT: String(port),
      POOLPATROL_AUDIT_CHANNEL: CHANNEL,
      POOLPATROL_APPROVERS: APPROVER,
      RESEND_API_KEY: "re_test_key",
      RESEND_BASE_URL: resend.baseUrl,
      POOLPATROL_SWEEP_PAGE_SIZE: String(PAGE_SIZE),
      // No reply is read here: the reply reader's warm-up (seconds of CPU at each start) would only slow the workers.
      POOLPATROL_REPLY_WARMUP: "false",
      // Each new case's alert would wait a second for its turn in the channel; the count of posts is what is tested.
      POOLPATROL_SLACK_POST_INTERVAL_MS: "0",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  started.stdout!.on("data", (chunk) => (output += chunk));
  started.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => started.once("exit", (code) => resolve(code)));
  const bot = { process: started, url: `http://127.0.0.1:${port}/slack/events`, output: () => output, exited };
  await waitFor("the bot to take requests", () => output.includes("Pool Patrol is running in Slack"), {
    timeoutMs: START_MS,
    everyMs: 200,
  });
  return bot;
}

/** The process ids the bot said it started its worker as, oldest first. */
const workerPids = (bot: RunningBot) =>
  [...bot.output().matchAll(/Pool Patrol worker 1 started \(process (\d+)\)/g)].map((m) => Number(m[1]));

/** Waits for the bot's `count`-th worker to say it works, and returns its process id. */
async function workerReady(bot: RunningBot, count: number): Promise<number> {
  await waitFor(
    `worker start number ${count}`,
    () => bot.output().split("[worker 1] Pool Patrol worker: auditing").length - 1 >= count,
    { timeoutMs: START_MS, everyMs: 200 },
  );
  return workerPids(bot)[count - 1]!;
}

/** Running, and not a process that exited and waits to be reaped. */
function isRunning(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

let bot: RunningBot;

beforeAll(async () => {
  [fake, resend, db] = await Promise.all([startFakeSlack(), startResendStub(), createTestDatabase()]);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "poolpatrol-workers-"));
  await insertFixturesInBulk(db.prisma, generateSyntheticFixtures(VANPOOLS, 11));
  bot = await startBot();
}, START_MS + 30_000);

afterAll(async () => {
  if (bot?.process.exitCode === null) bot.process.kill("SIGKILL");
  for (const pid of bot ? workerPids(bot) : []) if (isRunning(pid)) process.kill(pid, "SIGKILL");
  await Promise.all([fake?.close(), resend?.close()]);
  await db?.drop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("the bot's worker process", () => {
  it("is started again after kill -9", { timeout: START_MS + 30_000 }, async () => {
    const first = await workerReady(bot, 1);
    expect(isRunning(first)).toBe(true);
    process.kill(first, "SIGKILL");
    const second = await workerReady(bot, 2);
    expect(second).not.toBe(first);
    expect(isRunning(second)).toBe(true);
    expect(isRunning(first)).toBe(false);
    expect(bot.output()).toContain("Pool Patrol worker 1 stopped (SIGKILL); starting it again in 1 s.");
  });

  it("audits the pages of a sweep started from Slack: nothing while it is paused, everything once it runs", {
    timeout: 240_000,
  }, async () => {
    const expected = await expectedSweepCases(db.prisma, await buildAppDeps(db, parseSettings({})));
    const emails = [...expected.values()].flat().sort();
    expect(expected.size).toBeGreaterThan(0);
    const worker = workerPids(bot).at(-1)!;
    await workerReady(bot, workerPids(bot).length);
    process.kill(worker, "SIGSTOP");
    try {
      const response = await postSigned(
        bot.url,
        SIGNING_SECRET,
        fake.slashCommandBody({ command: COMMAND, text: "audit all", user_id: APPROVER, channel_id: CHANNEL }),
      );
      expect(await response.text()).toContain("Auditing every vanpool");
      // The bot plans the sweep (its pages are queued) but audits none of them itself.
      const sweep = await waitFor("the sweep's pages planned", () => db.prisma.sweep.findFirst(), {
        timeoutMs: 30_000,
      });
      expect(sweep.pageCount).toBe(VANPOOLS / PAGE_SIZE);
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      expect(await db.prisma.sweepPage.count({ where: { finishedAt: { not: null } } })).toBe(0);
      expect(resend.sent).toHaveLength(0);
      expect(fake.messages(CHANNEL).filter((m) => String(m.text).startsWith("Audit of every vanpool"))).toEqual([]);
    } finally {
      process.kill(worker, "SIGCONT");
    }

    const finished = await waitFor(
      "the sweep to finish",
      async () => (await db.prisma.sweep.findFirst({ where: { finishedAt: { not: null } } })) ?? undefined,
      { timeoutMs: 120_000, everyMs: 200 },
    );
    const totals = (await findSweepTotals(db.prisma, finished.id))!;
    expect(totals).toMatchObject({ vanpools: VANPOOLS, checked: VANPOOLS, errors: [] });
    const cases = await db.prisma.case.findMany({ select: { id: true, vanpoolId: true } });
    expect(cases.map((c) => c.vanpoolId).sort()).toEqual([...expected.keys()].sort());

    // Counted where they land: one first email per flagged rider, one summary, one alert per new case in its thread.
    await waitFor("every first email", () => resend.sent.length >= emails.length, { timeoutMs: 60_000 });
    const summary = await waitFor("the sweep's summary", () =>
      fake.messages(CHANNEL).find((m) => String(m.text).startsWith("Audit of every vanpool")),
    );
    const alertsOf = (c: { id: string }) =>
      fake.thread(CHANNEL, summary.ts).filter((m) => String(m.text).includes(`(${c.id},`));
    await waitFor("every new case's alert", () => cases.every((c) => alertsOf(c).length > 0), { timeoutMs: 60_000 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(resend.sent.flatMap((s) => s.body.to as string[]).sort()).toEqual(emails);
    expect(fake.messages(CHANNEL).filter((m) => String(m.text).startsWith("Audit of every vanpool"))).toHaveLength(1);
    for (const c of cases) expect(alertsOf(c), c.id).toHaveLength(1);
  });

  it("stops with the bot on SIGTERM", { timeout: 90_000 }, async () => {
    const pids = workerPids(bot);
    bot.process.kill("SIGTERM");
    expect(await bot.exited).toBe(0);
    for (const pid of pids) expect(isRunning(pid), `worker process ${pid}`).toBe(false);
  });

  it("stops by itself when its bot is killed with kill -9", { timeout: START_MS + 60_000 }, async () => {
    bot = await startBot();
    const worker = await workerReady(bot, 1);
    bot.process.kill("SIGKILL");
    await bot.exited;
    await waitFor("the orphaned worker to stop", () => !isRunning(worker), { timeoutMs: 45_000, everyMs: 200 });
  });
});
