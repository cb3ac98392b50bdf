// `npm run bench`: seeds synthetic vanpools into a throwaway embedded PostgreSQL and times a
// full sweep (audit, then case opening from the stored results) at each size, with one and
// with two worker processes (each a child, so its peak memory is its own). Prints numbers;
// asserts nothing. `npm run bench -- 10000` picks the sizes.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { PROJECT_ROOT } from "../src/config/settings.js";
import { ensureDatabaseExists } from "../src/data/database.js";
import { startEmbeddedPostgres } from "../src/data/embedded-postgres.js";
import { migrateDatabase } from "../src/data/migrations.js";
import { createDataClients } from "../src/data/prisma.js";
import { insertFixturesInBulk } from "../src/data/seed.js";
import { generateSyntheticFixtures } from "../src/data/synthetic.js";

const run = promisify(execFile);
const sizes = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);
const SIZES = sizes.length > 0 ? sizes : [10_000, 100_000];
/** BENCH_WORKERS=2 runs only the two-worker sweeps. */
const WORKERS = process.env.BENCH_WORKERS ? [Number(process.env.BENCH_WORKERS)] : [1, 2];

interface WorkerReport {
  checked: number;
  newCases: number;
  stillFailing: number;
  errors: number;
  firstError: string | null;
  seconds: number;
  emailSeconds: number;
  emailsSent: number;
  maxRssMb: number;
  /** The largest JavaScript heap seen (sampled every second): what the sweep itself holds, apart from the process's base. */
  maxHeapMb: number;
  /** The largest heap left live after a full garbage collection: flat if the sweep keeps nothing per vanpool. */
  maxLiveHeapMb: number;
  cpuSeconds: number;
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "poolpatrol-bench-"));
fs.chmodSync(dataDir, 0o755);
const server = await startEmbeddedPostgres({ dataDir });
try {
  console.log(
    `Pool Patrol benchmark: full sweep on synthetic vanpools (${os.cpus().length} cores, Node ${process.version})`,
  );
  console.log(
    `Load average before: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(", ")}`,
  );
  console.log(
    [
      "Each database is fresh. 'sweep s' is from the sweep's start to its finish: every vanpool audited and its",
      "results stored, open cases resolved or counted, new cases opened (committed, with their first-email jobs",
      "queued). 'emails s' is from the start until those jobs have sent every first email (to the local outbox,",
      "not a network provider). Slack posts (the summary, alerts in its thread) are not included: no bot runs here.\n",
    ].join("\n"),
  );
  console.log(
    "vanpools  workers   seed s  sweep s  vanpools/s  cases opened  cases/s  errors  emails s  emails sent" +
      "  peak RSS / heap / live heap MB, CPU s (per worker)  load avg",
  );
  for (const size of SIZES) {
    for (const workers of WORKERS) {
      const url = await freshDatabase(`bench_${size}_${workers}`);
      const seedStarted = performance.now();
      const { prisma, pool } = createDataClients(url);
      await insertFixturesInBulk(prisma, generateSyntheticFixtures(size));
      await prisma.$disconnect();
      await pool.end();
      const seedSeconds = (performance.now() - seedStarted) / 1000;
      const reports = await Promise.all(
        Array.from({ length: workers }, (_, i) => sweepWorker(url, `bench-${size}-${workers}`, i === 0)),
      );
      const [first] = reports as [WorkerReport];
      console.log(
        [
          String(size).padStart(8),
          String(workers).padStart(8),
          seedSeconds.toFixed(1).padStart(8),
          first.seconds.toFixed(1).padStart(8),
          (first.checked / first.seconds).toFixed(0).padStart(11),
          String(first.newCases).padStart(13),
          (first.newCases / first.seconds).toFixed(0).padStart(8),
          String(first.errors).padStart(7),
          first.emailSeconds.toFixed(1).padStart(9),
          String(first.emailsSent).padStart(12),
          `  ${reports.map((r) => `${r.maxRssMb.toFixed(0)} / ${r.maxHeapMb.toFixed(0)} / ${r.maxLiveHeapMb.toFixed(0)} MB, ${r.cpuSeconds.toFixed(0)} s`).join(", ")}`.padEnd(
            44,
          ),
          os.loadavg()[0]!.toFixed(1).padStart(9),
        ].join(" "),
      );
      if (first.firstError) console.log(`  first error: ${first.firstError}`);
    }
  }
} finally {
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

async function freshDatabase(name: string): Promise<string> {
  await ensureDatabaseExists(server.serverUrl, name);
  const url = server.urlFor(name);
  await migrateDatabase(url);
  return url;
}

async function sweepWorker(url: string, sweepId: string, starts: boolean): Promise<WorkerReport> {
  const worker = run(
    process.execPath,
    [
      // BENCH_CPU_PROF=folder writes a CPU profile of each worker there (open it in Chrome DevTools).
      ...(process.env.BENCH_CPU_PROF ? ["--cpu-prof", "--cpu-prof-dir", process.env.BENCH_CPU_PROF] : []),
      "--import",
      "tsx",
      path.join(PROJECT_ROOT, "scripts", "bench-sweep.ts"),
    ],
    {
      env: {
        ...process.env,
        DATABASE_URL: url,
        POOLPATROL_DATA_DIR: path.join(dataDir, "app"),
        BENCH_SWEEP_ID: sweepId,
        BENCH_START: starts ? "1" : "0",
      },
      maxBuffer: 1 << 26,
    },
  );
  // The first worker's progress lines, so a long run shows where it is.
  if (starts) worker.child.stderr?.pipe(process.stderr);
  const { stdout } = await worker;
  return JSON.parse(stdout.trim().split("\n").at(-1)!) as WorkerReport;
}
