// The embedded PostgreSQL killed under a running bot: `poolpatrol start` from the build, on its embedded
// server (no DATABASE_URL) with one worker process, against the fake Slack in this process. Its
// postmaster gets kill -9; the bot (which started it) starts it again on the same folder and port, says
// so once, and an audit asked for in Slack afterwards is queued, run and stored. Its worker, which
// reaches the server through the URL the bot gave it, does not start a second one.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMMAND } from "../../src/bot/listeners/commands/poolpatrol.js";
import { PROJECT_ROOT } from "../../src/config/settings.js";
import { postSigned } from "../../src/sandbox/slack/payloads.js";
import { freePort } from "../support/free-port.js";
import { type FakeSlack, startFakeSlack } from "../support/slack/fake-slack.js";
import { waitFor } from "../support/wait.js";

const SIGNING_SECRET = "embedded-restart-secret";
const CHANNEL = "C0AUDIT";
const APPROVER = "U0ALICE";
const START_MS = 180_000;
const RESTARTED = /The embedded PostgreSQL stopped \(its process (\d+) ended\); restarted it on port (\d+)\./g;

let fake: FakeSlack;
let dataDir: string;
let bot: ChildProcess;
let output = "";
let url = "";
let botUrl = "";

/** The postmaster's pid and port, from postmaster.pid in the data folder (lines 1 and 4). */
function postmaster(): { pid: number; port: number } {
  const lines = fs.readFileSync(path.join(dataDir, "postgres", "postmaster.pid"), "utf8").split("\n");
  return { pid: Number(lines[0]), port: Number(lines[3]) };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Audits stored for `vanpoolId`, counted on the embedded server directly. */
async function auditsOf(vanpoolId: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM verification_runs WHERE vanpool_id = $1",
      [vanpoolId],
    );
    return rows[0]!.n;
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  fake = await startFakeSlack();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "poolpatrol-embedded-restart-"));
  fs.chmodSync(dataDir, 0o755); // run as root, PostgreSQL runs as "postgres"
  const port = await freePort();
  bot = spawn(process.execPath, [path.join(PROJECT_ROOT, "bin", "poolpatrol.js"), "start"], {
    cwd: PROJECT_ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      NO_COLOR: "1",
      POOLPATROL_DATA_DIR: dataDir,
      SLACK_BOT_TOKEN: fake.botToken,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: fake.apiUrl,
      PORT: String(port),
      POOLPATROL_AUDIT_CHANNEL: CHANNEL,
      POOLPATROL_APPROVERS: APPROVER,
      POOLPATROL_WORKER_PROCESSES: "1",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  bot.stdout!.on("data", (chunk) => (output += chunk));
  bot.stderr!.on("data", (chunk) => (output += chunk));
  await waitFor(
    "the bot and its worker",
    () =>
      output.includes("Pool Patrol is running in Slack") && output.includes("[worker 1] Pool Patrol worker: auditing"),
    { timeoutMs: START_MS, everyMs: 200 },
  );
  url = `postgresql://poolpatrol:poolpatrol@127.0.0.1:${postmaster().port}/poolpatrol`;
  botUrl = `http://127.0.0.1:${port}/slack/events`;
}, START_MS + 30_000);

// The bot is killed, not stopped: this test is about the restart, and a stop after it waits up to two
// minutes for the Slack syncs that were running when the database died (their completion was lost
// with the connection, so they stay active until they expire). Its worker goes the same way; its
// PostgreSQL, which outlives it, gets the fast shutdown (SIGINT) the bot's own stop would give it.
afterAll(async () => {
  const worker = Number(/Pool Patrol worker 1 started \(process (\d+)\)/.exec(output)?.[1]);
  if (bot && bot.exitCode === null && bot.signalCode === null) {
    const exited = once(bot, "exit");
    bot.kill("SIGKILL");
    await exited;
  }
  if (worker && isAlive(worker)) process.kill(worker, "SIGKILL");
  const server = dataDir && fs.existsSync(path.join(dataDir, "postgres", "postmaster.pid")) ? postmaster() : undefined;
  if (server && isAlive(server.pid)) {
    process.kill(server.pid, "SIGINT");
    await waitFor("the embedded PostgreSQL to stop", () => !isAlive(server.pid), { timeoutMs: 30_000, everyMs: 100 });
  }
  await fake?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

describe("the embedded PostgreSQL killed under the bot", () => {
  it("is restarted once by the bot on the same port, and an audit asked for in Slack afterwards runs", {
    timeout: 120_000,
  }, async () => {
    const before = postmaster();
    expect(isAlive(before.pid)).toBe(true);
    const audits = await auditsOf("VP-101");

    process.kill(before.pid, "SIGKILL");
    await waitFor("the bot to restart its database", () => [...output.matchAll(RESTARTED)].length > 0, {
      timeoutMs: 30_000,
      everyMs: 200,
    });
    const after = postmaster();
    expect(after.pid).not.toBe(before.pid);
    expect(after.port).toBe(before.port);
    expect(isAlive(after.pid)).toBe(true);
    expect([...output.matchAll(RESTARTED)].map((m) => [Number(m[1]), Number(m[2])])).toEqual([
      [before.pid, before.port],
    ]);

    // A command after the restart is taken, and its job runs and stores the audit.
    const response = await postSigned(
      botUrl,
      SIGNING_SECRET,
      fake.slashCommandBody({ command: COMMAND, text: "audit VP-101", user_id: APPROVER, channel_id: CHANNEL }),
    );
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("Auditing VP-101");
    await waitFor("the audit after the restart", async () => (await auditsOf("VP-101")) > audits, {
      timeoutMs: 60_000,
      everyMs: 500,
    });

    // Nobody else started a server, and the bot and its worker are still running.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect([...output.matchAll(RESTARTED)]).toHaveLength(1);
    expect(postmaster().pid).toBe(after.pid);
    expect(bot.exitCode).toBeNull();
    expect(output).not.toMatch(/DATABASE_URL/);
  });
});
