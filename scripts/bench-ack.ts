// `npm run bench`, ack section: the sandbox (the real bot, signed HTTP requests from the
// local Slack) on a throwaway embedded PostgreSQL holding the mock data and synthetic
// vanpools. While a sweep of every vanpool runs, rounds of 50 concurrent requests (slash
// commands `/poolpatrol status CASE-…` and clicks on "View evidence" under case alerts) are
// sent; the latency of each HTTP answer (what Slack waits for: Bolt answers at the listener's
// ack) is printed. Asserts nothing. `… bench-ack.ts 20000` sets the size. BENCH_SWEEP_WORKER=1
// starts the bot with POOLPATROL_SWEEP_IN_BOT=false and one `poolpatrol worker` process beside it.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { openContext } from "../src/cli/context.js";
import { PROJECT_ROOT, parseSettings } from "../src/config/settings.js";
import { listCases } from "../src/data/case-repository.js";
import { ensureDatabaseExists } from "../src/data/database.js";
import { startEmbeddedPostgres } from "../src/data/embedded-postgres.js";
import { readFixtureDir } from "../src/data/fixtures.js";
import { migrateDatabase } from "../src/data/migrations.js";
import { createDataClients } from "../src/data/prisma.js";
import { insertFixturesInBulk, seedFixtures } from "../src/data/seed.js";
import { findSweepTotals } from "../src/data/sweep-repository.js";
import { generateSyntheticFixtures } from "../src/data/synthetic.js";
import { requestManualSweep } from "../src/jobs/sweep-jobs.js";
import { SANDBOX_PEOPLE, startSandbox } from "../src/sandbox/sandbox.js";
import { postSigned } from "../src/sandbox/slack/local-slack.js";

const SIZE = Number(process.argv[2] ?? 3000);
const CONCURRENT = 50;
const ROUNDS = 6;
const channel = SANDBOX_PEOPLE.channel.id;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "poolpatrol-bench-ack-"));
fs.chmodSync(dataDir, 0o755);
const server = await startEmbeddedPostgres({ dataDir: path.join(dataDir, "pg") });
try {
  await ensureDatabaseExists(server.serverUrl, "bench_ack");
  const url = server.urlFor("bench_ack");
  await migrateDatabase(url);
  const clients = createDataClients(url);
  await seedFixtures(clients.prisma, readFixtureDir(path.join(PROJECT_ROOT, "mock")), { inbound: false });
  await insertFixturesInBulk(clients.prisma, generateSyntheticFixtures(SIZE));
  await clients.prisma.$disconnect();
  await clients.pool.end();

  const separateWorker = Boolean(process.env.BENCH_SWEEP_WORKER);
  const env = {
    ...process.env,
    DATABASE_URL: url,
    POOLPATROL_DATA_DIR: path.join(dataDir, "app"),
    POOLPATROL_SWEEP_IN_BOT: String(!separateWorker),
  };
  const settings = parseSettings(env);
  const worker = separateWorker
    ? spawn(process.execPath, ["--import", "tsx", path.join(PROJECT_ROOT, "scripts", "bench-worker.ts")], {
        env,
        stdio: "ignore",
      })
    : undefined;
  const workerExited = worker ? new Promise((resolve) => worker.once("exit", resolve)) : Promise.resolve();
  const ctx = await openContext(settings, () => {}, { jobs: "bot" });
  const sandbox = await startSandbox(ctx, { port: 0 });
  try {
    const cases = await listCases(ctx.db.prisma);
    // The alerts of the open mock cases are posted by jobs as the bot starts.
    let alerts = sandbox.slack
      .messages(channel)
      .filter((m) => JSON.stringify(m.blocks ?? []).includes("view_evidence"));
    for (let waited = 0; alerts.length < 3 && waited < 60_000; waited += 250) {
      await sleep(250);
      alerts = sandbox.slack.messages(channel).filter((m) => JSON.stringify(m.blocks ?? []).includes("view_evidence"));
    }
    // BENCH_NO_SWEEP=1 measures the same requests with no sweep running, for comparison on the same machine.
    const sweepId = process.env.BENCH_NO_SWEEP
      ? "none"
      : (await requestManualSweep(ctx.jobs!, ctx.db.prisma, { trigger: "bench", now: new Date() })).sweepId;
    for (let totals = await findSweepTotals(ctx.db.prisma, sweepId); !totals && sweepId !== "none"; await sleep(100))
      totals = await findSweepTotals(ctx.db.prisma, sweepId);

    const request = (i: number): string => {
      if (i % 2 === 0 || alerts.length === 0)
        return sandbox.slack.slashCommandBody({
          command: "/poolpatrol",
          text: `status ${cases[i % cases.length]!.case_id}`,
          user_id: "U0ALEX",
          channel_id: channel,
        });
      const alert = alerts[i % alerts.length]!;
      const caseId = /CASE-[0-9A-Z]+/.exec(alert.text ?? "")?.[0] ?? "";
      return sandbox.slack.blockActionPayload({
        user: "U0ALEX",
        channel,
        message: alert,
        action: { action_id: "view_evidence", value: caseId },
      });
    };
    const latencies: number[] = [];
    let failures = 0;
    let duringSweep = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const running = sweepId !== "none" && !(await findSweepTotals(ctx.db.prisma, sweepId))?.finished_at;
      const times = await Promise.all(
        Array.from({ length: CONCURRENT }, async (_, i) => {
          const body = request(round * CONCURRENT + i);
          const started = performance.now();
          const response = await postSigned(sandbox.appUrl, sandbox.signingSecret, body);
          await response.arrayBuffer();
          if (!response.ok) failures++;
          return performance.now() - started;
        }),
      );
      if (running && !(await findSweepTotals(ctx.db.prisma, sweepId))?.finished_at) duringSweep++;
      latencies.push(...times);
      await sleep(500);
    }
    latencies.sort((a, b) => a - b);
    const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.ceil(p * latencies.length) - 1)]!;
    const totals = await findSweepTotals(ctx.db.prisma, sweepId);
    const where = separateWorker ? "in a separate worker process" : "in the bot's process";
    console.log(
      `\nAck latency: ${ROUNDS} rounds of ${CONCURRENT} concurrent requests (half /poolpatrol status, half "View evidence" clicks) against the sandbox bot ${sweepId === "none" ? "with no sweep running" : `while it sweeps ${where}`} (${SIZE + 18} vanpools) (${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(2)})`,
    );
    console.log("requests  failed   p50 ms   p95 ms   p99 ms   max ms  rounds during the sweep");
    console.log(
      [
        String(latencies.length).padStart(8),
        String(failures).padStart(7),
        at(0.5).toFixed(0).padStart(8),
        at(0.95).toFixed(0).padStart(8),
        at(0.99).toFixed(0).padStart(8),
        latencies.at(-1)!.toFixed(0).padStart(8),
        totals
          ? `  ${duringSweep} of ${ROUNDS} (sweep ${totals.pages_done}/${totals.pages} pages done at the end)`
          : "  no sweep",
      ].join(" "),
    );
  } finally {
    worker?.kill("SIGTERM");
    await workerExited;
    await sandbox.close();
    await ctx.close();
  }
} finally {
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
// A timer of the stopped engine keeps the event loop alive: exit once the output is written.
process.stdout.write("", () => process.exit(0));
