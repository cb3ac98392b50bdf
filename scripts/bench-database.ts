// What the benchmarks that need a database share: a throwaway embedded PostgreSQL with a migrated
// database and an email outbox folder, both removed when the benchmark ends, and a synthetic program
// with a case open on every tenth vanpool.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openCase } from "../src/data/case-repository.js";
import { ensureDatabaseExists } from "../src/data/database.js";
import { startEmbeddedPostgres } from "../src/data/embedded-postgres.js";
import { migrateDatabase } from "../src/data/migrations.js";
import { createDataClients, type DataClients, type PrismaClient } from "../src/data/prisma.js";
import { insertFixturesInBulk } from "../src/data/seed.js";
import { generateSyntheticFixtures } from "../src/data/synthetic.js";

export interface BenchDatabase {
  clients: DataClients;
  /** Its connection string, for a child process of the benchmark. */
  url: string;
  /** CPU seconds the database server has used so far (its processes and those that ended), from /proc. */
  serverCpu(): number;
  /** A folder the app's email outbox can write to. */
  outbox: string;
}

/** Runs `bench` on a fresh database `bench_<name>`, then stops the server and removes its files. */
export async function withBenchDatabase(name: string, bench: (db: BenchDatabase) => Promise<void>): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `poolpatrol-bench-${name}-`));
  fs.chmodSync(dataDir, 0o755);
  const outbox = fs.mkdtempSync(path.join(os.tmpdir(), `poolpatrol-bench-${name}-outbox-`));
  const server = await startEmbeddedPostgres({ dataDir });
  try {
    const database = `bench_${name}`;
    await ensureDatabaseExists(server.serverUrl, database);
    const url = server.urlFor(database);
    await migrateDatabase(url);
    const clients = createDataClients(url);
    // The server process that started this connection's backend.
    const backend = (await clients.pool.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
    const postmaster = Number(fs.readFileSync(`/proc/${backend}/stat`, "utf8").split(") ")[1]!.split(" ")[1]);
    try {
      await bench({ clients, url, outbox, serverCpu: () => serverCpu(postmaster) });
    } finally {
      await clients.prisma.$disconnect();
      await clients.pool.end();
    }
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(outbox, { recursive: true, force: true });
  }
}

const serverCpu = (postmaster: number) => {
  const ticks = (pid: number, children: boolean) => {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return [11, 12, ...(children ? [13, 14] : [])].reduce((sum, i) => sum + Number(fields[i]), 0);
  };
  let total = ticks(postmaster, true);
  for (const pid of fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      if (Number(stat.split(") ")[1]!.split(" ")[1]) === postmaster) total += ticks(Number(pid), false);
    } catch {
      // gone meanwhile
    }
  }
  return total / 100;
};

/** `size` synthetic vanpools, with a case opened directly (no audit ran) on every tenth. */
export async function syntheticProgram(
  prisma: PrismaClient,
  size: number,
): Promise<{ vanpools: { id: string }[]; caseIds: string[] }> {
  await insertFixturesInBulk(prisma, generateSyntheticFixtures(size));
  const vanpools = await prisma.vanpool.findMany({ select: { id: true }, orderBy: { id: "asc" } });
  const caseIds: string[] = [];
  for (const [i, { id }] of vanpools.entries()) {
    if (i % 10 !== 0) continue;
    const opened = await openCase(prisma, {
      vanpool_id: id,
      status: "pending_reply",
      reason: "location_mismatch",
      failed_checks: ["location"],
      flagged: [],
      details: "opened for the benchmark",
      actor: "bench",
      now: new Date(),
    });
    caseIds.push(opened.case_id);
  }
  return { vanpools, caseIds };
}

/** "2 cores, Node v20…, load average 1.20, 2.40, 2.60": beside every figure a benchmark prints. */
export const machine = () =>
  `${os.cpus().length} cores, Node ${process.version}, load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(", ")}`;
