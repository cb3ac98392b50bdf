// `npm run bench`, ack section: how fast the bot acknowledges Slack while a sweep runs, measured as
// Slack would see it. The bot is a child process running the built CLI (`poolpatrol start`, HTTP
// mode, real Bolt) on a throwaway embedded PostgreSQL holding the mock data and synthetic vanpools;
// this process is Slack's Web API (the local fake Slack the bot calls), and the load generator, in a
// process of its own (bench-ack-load.ts), sends it correctly signed requests. An approver starts the
// sweep with `/poolpatrol audit all`; while it runs, rounds of 50 concurrent requests (half
// `/poolpatrol status CASE-…`, half "View evidence" clicks on case alerts) are sent and the time from
// writing each request to the first byte of its HTTP answer (the ack) is printed, then what the bot's
// probe (bench-ack-probe.mjs) saw inside: its time to ack, its event-loop delay and its CPU. Asserts
// nothing. `… bench-ack.ts 20000` sets the size. The sweep's pages are audited by the worker process the
// bot starts (the default POOLPATROL_WORKER_PROCESSES=1); BENCH_SWEEP_IN_BOT=1 audits them in the bot's own
// process (POOLPATROL_WORKER_PROCESSES=0); BENCH_NO_SWEEP=1 measures with no sweep; BENCH_ONLY_HELP=1 sends only `/poolpatrol help` (answered in the ack, no
// work after it: the floor the machine allows); BENCH_CPU_PROF=DIR writes the bot's CPU profile
// (node --cpu-prof) there. BENCH_KEEP_LOGS=DIR keeps what the bot and its worker logged. Needs the build
// (`npm run build`).
import { type ChildProcess, fork, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { pathToFileURL } from "node:url";
import { SANDBOX_PEOPLE } from "../src/app/sandbox.js";
import { seedFolder } from "../src/cases/seed-folder.js";
import { PROJECT_ROOT } from "../src/config/settings.js";
import { listCases } from "../src/data/case-repository.js";
import { ensureDatabaseExists } from "../src/data/database.js";
import { startEmbeddedPostgres } from "../src/data/embedded-postgres.js";
import { migrateDatabase } from "../src/data/migrations.js";
import { createDataClients } from "../src/data/prisma.js";
import { insertFixturesInBulk } from "../src/data/seed.js";
import { findSweepTotals, findUnfinishedSweep } from "../src/data/sweep-repository.js";
import { generateSyntheticFixtures } from "../src/data/synthetic.js";
import { postSigned, type SlackMessage, startLocalSlack } from "../src/sandbox/slack/local-slack.js";
import type { LoadAnswer, LoadRound } from "./bench-ack-load.js";

const SIZE = Number(process.argv[2] ?? 3000);
const onlyHelp = Boolean(process.env.BENCH_ONLY_HELP);
const CONCURRENT = 50;
const ROUNDS = 6;
const channel = SANDBOX_PEOPLE.channel.id;
const CLI = path.join(PROJECT_ROOT, "bin", "poolpatrol.js");

if (!fs.existsSync(path.join(PROJECT_ROOT, "dist", "cli", "main.js")))
  throw new Error("The bot runs from the build: run `npm run build` first.");

/** A free port in the bench's range, so a bot left behind by someone else is never hit. */
async function freePort(): Promise<number> {
  for (let port = 3300; port < 3400; port++) {
    const free = await new Promise<boolean>((resolve) => {
      const server = net.createServer().once("error", () => resolve(false));
      server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error("No free port between 3300 and 3399.");
}

/** A `poolpatrol` child process; what it writes goes to a log file, shown if it dies. */
function startChild(args: string[], env: NodeJS.ProcessEnv, nodeArgs: string[] = []): ChildProcess {
  const logFile = path.join(dataDir, `${args[0]}.log`);
  const log = fs.openSync(logFile, "w");
  const child = spawn(process.execPath, [...nodeArgs, CLI, ...args], { env, stdio: ["ignore", log, log] });
  fs.closeSync(log);
  child.once("exit", (code, signal) => {
    if (code !== 0 && signal !== "SIGTERM")
      process.stderr.write(
        `poolpatrol ${args[0]} exited (${code ?? signal}):\n${fs.readFileSync(logFile, "utf8").slice(-4000)}\n`,
      );
  });
  return child;
}

async function stopChild(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, ms = 120_000) {
  for (const started = Date.now(); Date.now() - started < ms; await sleep(200)) {
    const value = await probe();
    if (value !== undefined) return value;
  }
  throw new Error(`Gave up waiting for ${what} after ${ms / 1000} s.`);
}

interface Probe {
  requests: { at: number; ms: number }[];
  windows: { at: number; cpuMs: number }[];
  loop: { p50Ms: number; p99Ms: number; maxMs: number };
}

/** What the bot's own probe saw (scripts/bench-ack-probe.mjs): its work before each ack, its event loop and its CPU. */
function probeSummary({ requests, windows, loop }: Probe): string {
  if (requests.length === 0) return "The bot's probe saw no requests.";
  const percentile = (values: number[], p: number) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
  };
  const first = Math.min(...requests.map((r) => r.at));
  const last = Math.max(...requests.map((r) => r.at + r.ms));
  const cpuShare = (from: number, to: number) => {
    const inside = windows.filter((w) => w.at >= from && w.at <= to);
    if (inside.length < 2) return undefined;
    const cpu = inside.at(-1)!.cpuMs - inside[0]!.cpuMs;
    return { cpu, share: cpu / (inside.at(-1)!.at - inside[0]!.at) };
  };
  const during = cpuShare(first, last);
  const idle = cpuShare(first - 2_250, first - 250);
  const ms = requests.map((r) => r.ms);
  return [
    `Inside the bot: from Node's request event to the ack p50 ${percentile(ms, 0.5).toFixed(1)} ms, p99 ${percentile(ms, 0.99).toFixed(1)} ms;`,
    `event-loop delay from the first request on p50 ${loop.p50Ms.toFixed(0)} ms, p99 ${loop.p99Ms.toFixed(0)} ms, max ${loop.maxMs.toFixed(0)} ms;`,
    during
      ? `CPU ${(100 * during.share).toFixed(0)}% of a core during the rounds (${(during.cpu / requests.length).toFixed(1)} ms per request, its work after the ack included)`
      : "",
    idle ? `and ${(100 * idle.share).toFixed(1)}% in the 2 s before them.` : "",
  ].join(" ");
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "poolpatrol-bench-ack-"));
fs.chmodSync(dataDir, 0o755);
const probeFile = path.join(dataDir, "probe.json");
const server = await startEmbeddedPostgres({ dataDir: path.join(dataDir, "pg") });
const children: ChildProcess[] = [];
const slack = await startLocalSlack({
  users: SANDBOX_PEOPLE.users.map((u) => ({ id: u.id, name: u.name.split(" ")[0]!.toLowerCase(), real_name: u.name })),
  usergroups: { S0AUDITORS: ["U0BLAIR"] },
});
try {
  await ensureDatabaseExists(server.serverUrl, "bench_ack");
  const url = server.urlFor("bench_ack");
  await migrateDatabase(url);
  const db = createDataClients(url);
  await seedFolder(db, path.join(PROJECT_ROOT, "mock"), { inbound: false });
  await insertFixturesInBulk(db.prisma, generateSyntheticFixtures(SIZE));

  const sweepInBot = Boolean(process.env.BENCH_SWEEP_IN_BOT);
  const port = await freePort();
  const signingSecret = randomBytes(16).toString("hex");
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: url,
    POOLPATROL_DATA_DIR: path.join(dataDir, "app"),
    POOLPATROL_WORKER_PROCESSES: sweepInBot ? "0" : "1",
    SLACK_BOT_TOKEN: slack.botToken,
    SLACK_SIGNING_SECRET: signingSecret,
    SLACK_API_URL: slack.apiUrl,
    SLACK_APP_TOKEN: "",
    PORT: String(port),
    POOLPATROL_AUDIT_CHANNEL: channel,
    POOLPATROL_APPROVERS: "U0ALEX,S0AUDITORS",
    POOLPATROL_RESTRICT_AUDITS: "true",
  };
  const profile = process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const probe = ["--import", pathToFileURL(path.join(PROJECT_ROOT, "scripts", "bench-ack-probe.mjs")).href];
  const bot = startChild(["start"], { ...env, BENCH_ACK_PROBE_OUT: probeFile }, [...profile, ...probe]);
  children.push(bot);
  const appUrl = `http://127.0.0.1:${port}/slack/events`;

  const cases = await listCases(db.prisma);
  // The bot posts the alerts of the open mock cases as it starts.
  const isAlert = (m: SlackMessage) => JSON.stringify(m.blocks ?? []).includes("view_evidence");
  const alerts = await until("the case alerts", () => {
    if (bot.exitCode !== null) throw new Error("The bot exited while starting.");
    const posted = slack.messages(channel).filter(isAlert);
    return posted.length >= 3 ? posted : undefined;
  });

  let sweepId = "none";
  if (!process.env.BENCH_NO_SWEEP) {
    const asked = await postSigned(
      appUrl,
      signingSecret,
      slack.slashCommandBody({ command: "/poolpatrol", text: "audit all", user_id: "U0ALEX", channel_id: channel }),
    );
    if (!asked.ok) throw new Error("The bot refused `/poolpatrol audit all`.");
    sweepId = await until("the sweep to start", () => findUnfinishedSweep(db.prisma));
    await until("the sweep's pages", async () =>
      (await findSweepTotals(db.prisma, sweepId))?.pages ? true : undefined,
    );
  }

  const request = (i: number): string => {
    if (onlyHelp || i % 2 === 0)
      return slack.slashCommandBody({
        command: "/poolpatrol",
        text: onlyHelp ? "help" : `status ${cases[i % cases.length]!.case_id}`,
        user_id: "U0ALEX",
        channel_id: channel,
      });
    const alert = alerts[i % alerts.length]!;
    const caseId = /CASE-[0-9A-Z]+/.exec(alert.text ?? "")?.[0] ?? "";
    return slack.blockActionPayload({
      user: "U0ALEX",
      channel,
      message: alert,
      action: { action_id: "view_evidence", value: caseId },
    });
  };
  const generator = fork(path.join(PROJECT_ROOT, "scripts", "bench-ack-load.ts"), {
    execArgv: ["--import", "tsx"],
    stdio: "inherit",
  });
  children.push(generator);
  await new Promise((resolve) => generator.once("message", resolve));
  const sendRound = (bodies: string[]) =>
    new Promise<LoadAnswer[]>((resolve) => {
      generator.once("message", (answers) => resolve(answers as LoadAnswer[]));
      generator.send({ url: appUrl, signingSecret, bodies } satisfies LoadRound);
    });
  const sweepRunning = async () => sweepId !== "none" && !(await findSweepTotals(db.prisma, sweepId))?.finished_at;
  const latencies: number[] = [];
  let failures = 0;
  let duringSweep = 0;
  const loads: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const running = await sweepRunning();
    const answers = await sendRound(Array.from({ length: CONCURRENT }, (_, i) => request(round * CONCURRENT + i)));
    if (running && (await sweepRunning())) duringSweep++;
    loads.push(os.loadavg()[0]!);
    for (const answer of answers) {
      latencies.push(answer.ms);
      if (!answer.ok) failures++;
    }
    await sleep(500);
  }
  const viewsOpened = slack.callsTo("views.open").filter((c) => c.response && (c.response as { ok?: boolean }).ok);
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.ceil(p * latencies.length) - 1)]!;
  const totals = sweepId === "none" ? undefined : await findSweepTotals(db.prisma, sweepId);
  const where = sweepInBot ? "in the bot's process" : "in the worker process the bot started";
  console.log(
    `\nAck latency: ${ROUNDS} rounds of ${CONCURRENT} concurrent requests (${onlyHelp ? "/poolpatrol help only" : 'half /poolpatrol status, half "View evidence" clicks'}) sent by the local Slack to the bot in its own process (built CLI, HTTP mode), timed from each request written to the first byte of its answer, ${sweepId === "none" ? "with no sweep running" : `while it sweeps ${where}`} (${SIZE + 18} vanpools) (${os.cpus().length} cores, load average ${Math.max(...loads).toFixed(2)} at most during the rounds)`,
  );
  console.log("requests  failed   p50 ms   p95 ms   p99 ms   max ms  evidence modals opened  rounds during the sweep");
  console.log(
    [
      String(latencies.length).padStart(8),
      String(failures).padStart(7),
      at(0.5).toFixed(0).padStart(8),
      at(0.95).toFixed(0).padStart(8),
      at(0.99).toFixed(0).padStart(8),
      latencies.at(-1)!.toFixed(0).padStart(8),
      `${String(viewsOpened.length).padStart(12)} of ${onlyHelp ? 0 : (ROUNDS * CONCURRENT) / 2}`,
      totals
        ? `  ${duringSweep} of ${ROUNDS} (sweep ${totals.pages_done}/${totals.pages} pages done at the end)`
        : "  no sweep",
    ].join(" "),
  );
  await db.prisma.$disconnect();
  await db.pool.end();
} finally {
  for (const child of children.reverse()) await stopChild(child);
  if (fs.existsSync(probeFile)) console.log(probeSummary(JSON.parse(fs.readFileSync(probeFile, "utf8"))));
  await slack.close();
  await server.stop();
  if (process.env.BENCH_KEEP_LOGS)
    fs.copyFileSync(path.join(dataDir, "start.log"), path.join(process.env.BENCH_KEEP_LOGS, "start.log"));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
// A timer of the embedded server keeps the event loop alive: exit once the output is written.
process.stdout.write("", () => process.exit(0));
