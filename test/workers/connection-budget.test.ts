// POOLPATROL_DB_POOL_SIZE bounds each process's database connections: a bot with four worker
// processes and a CLI command sweep 100 vanpools on one embedded PostgreSQL whose max_connections
// is six times the setting (plus one for this test's watcher), and never run out of connections.
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT, parseSettings } from "../../src/config/settings.js";
import { type Database, openDatabase } from "../../src/data/database.js";
import { type RunningPostgres, startEmbeddedPostgres } from "../../src/data/embedded-postgres.js";
import { insertFixturesInBulk } from "../../src/data/seed.js";
import { generateSyntheticFixtures } from "../../src/data/synthetic.js";
import { runCli } from "../support/cli.js";
import { freePort } from "../support/free-port.js";
import { type FakeSlack, startFakeSlack } from "../support/slack/fake-slack.js";
import { waitFor } from "../support/wait.js";

const POOL_SIZE = 6;
const PROCESSES = 6; // the bot, its four workers, the CLI
const MAX_CONNECTIONS = POOL_SIZE * PROCESSES + 1;
const START_MS = 180_000;

let dataDir: string;
let server: RunningPostgres;
let db: Database;
let url: string;
let fake: FakeSlack;
let bot: ChildProcess | undefined;
let botOutput = "";

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "poolpatrol-connections-"));
  fs.chmodSync(dataDir, 0o755); // run as root, PostgreSQL runs as "postgres"
  server = await startEmbeddedPostgres({ dataDir, fast: true });
  const admin = new pg.Client({ connectionString: server.serverUrl });
  await admin.connect();
  await admin.query(`ALTER SYSTEM SET max_connections = ${MAX_CONNECTIONS}`);
  await admin.query("CREATE DATABASE poolpatrol");
  await admin.end();
  await server.stop();
  server = await startEmbeddedPostgres({ dataDir, fast: true });
  url = server.urlFor("poolpatrol");
  db = await openDatabase(parseSettings({ DATABASE_URL: url }), { connections: 2 });
  await insertFixturesInBulk(db.prisma, generateSyntheticFixtures(100, 11));
  await db.close();
  fake = await startFakeSlack();
}, START_MS);

afterAll(async () => {
  if (bot && bot.exitCode === null) {
    bot.kill("SIGTERM");
    await new Promise((resolve) => bot!.once("exit", resolve));
  }
  await fake?.close();
  await server?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("a bot, four workers and the CLI on one server", () => {
  it(`stay within max_connections ${MAX_CONNECTIONS} with POOLPATROL_DB_POOL_SIZE=${POOL_SIZE}`, {
    timeout: START_MS * 2,
  }, async () => {
    const env = {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      NO_COLOR: "1",
      DATABASE_URL: url,
      POOLPATROL_DATA_DIR: dataDir,
      POOLPATROL_DB_POOL_SIZE: String(POOL_SIZE),
      POOLPATROL_SWEEP_PAGE_SIZE: "10",
    };
    // The watcher: one connection of its own, counting everyone's every 50 ms.
    const watcher = new pg.Client({ connectionString: url });
    await watcher.connect();
    let peak = 0;
    let watching = true;
    const watched = (async () => {
      while (watching) {
        const { rows } = await watcher.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()",
        );
        peak = Math.max(peak, rows[0]!.n);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();

    bot = spawn(process.execPath, [path.join(PROJECT_ROOT, "bin", "poolpatrol.js"), "start"], {
      cwd: PROJECT_ROOT,
      env: {
        ...env,
        SLACK_BOT_TOKEN: fake.botToken,
        SLACK_SIGNING_SECRET: "connections-test-secret",
        SLACK_API_URL: fake.apiUrl,
        PORT: String(await freePort()),
        POOLPATROL_AUDIT_CHANNEL: "C0AUDIT",
        POOLPATROL_APPROVERS: "U0ALICE",
        POOLPATROL_WORKER_PROCESSES: "4",
        // No reply is read here: the reply reader's warm-up (seconds of CPU at start) would only slow the workers.
        POOLPATROL_REPLY_WARMUP: "false",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    bot.stdout!.on("data", (chunk) => (botOutput += chunk));
    bot.stderr!.on("data", (chunk) => (botOutput += chunk));
    await waitFor(
      "the bot and its four workers",
      () =>
        botOutput.includes("Pool Patrol is running in Slack") &&
        botOutput.split("Pool Patrol worker: auditing").length - 1 >= 4,
      { timeoutMs: START_MS, everyMs: 200 },
    );
    const sweep = await runCli(["audit", "--all"], env);
    watching = false;
    await watched;
    await watcher.end();

    const everything = `${botOutput}\n${sweep.stdout}\n${sweep.stderr}`;
    expect(everything).not.toMatch(/too many clients|remaining connection slots/);
    expect(sweep.code, sweep.stderr).toBe(0);
    expect(sweep.stdout).toMatch(/100 vanpools/);
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThanOrEqual(POOL_SIZE * PROCESSES);
    // Each process says what it may use.
    expect(botOutput).toContain(`at most ${POOL_SIZE} database connections from this process`);
  });
});
