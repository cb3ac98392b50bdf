// `npm run bench`: seeds synthetic vanpools into a throwaway embedded PostgreSQL and
// times `audit --all` at each size, in a child process so its peak memory is its own.
// Prints numbers; asserts nothing.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PROJECT_ROOT } from "../src/config/settings.js";
import { ensureDatabaseExists } from "../src/data/database.js";
import { startEmbeddedPostgres } from "../src/data/embedded-postgres.js";
import { migrateDatabase } from "../src/data/migrations.js";
import { createDataClients } from "../src/data/prisma.js";
import { insertFixturesInBulk } from "../src/data/seed.js";
import { generateSyntheticFixtures } from "../src/data/synthetic.js";

const sizes = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);
const SIZES = sizes.length > 0 ? sizes : [1_000, 10_000];

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "poolpatrol-bench-"));
fs.chmodSync(dataDir, 0o755);
const server = await startEmbeddedPostgres({ dataDir });
try {
  console.log(
    `Pool Patrol benchmark: audit --all on synthetic vanpools (${os.cpus().length} cores, Node ${process.version})\n`,
  );
  console.log("vanpools   riders    seed s   audit s   vanpools/s   peak RSS MB");
  for (const size of SIZES) {
    const database = `bench_${size}`;
    await ensureDatabaseExists(server.serverUrl, database);
    const url = server.urlFor(database);
    await migrateDatabase(url);
    const { prisma, pool } = createDataClients(url);
    const seedStarted = performance.now();
    const fixtures = generateSyntheticFixtures(size);
    await insertFixturesInBulk(prisma, fixtures);
    const riders = fixtures.employees.length;
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    await prisma.$disconnect();
    await pool.end();
    const out = execFileSync(
      process.execPath,
      ["--import", "tsx", path.join(PROJECT_ROOT, "scripts", "bench-audit.ts")],
      {
        env: { ...process.env, DATABASE_URL: url },
        encoding: "utf8",
        maxBuffer: 1 << 26,
      },
    );
    const { total, seconds, maxRssMb } = JSON.parse(out.trim().split("\n").at(-1)!);
    console.log(
      `${String(total).padStart(8)} ${String(riders).padStart(8)} ${seedSeconds.toFixed(1).padStart(9)} ${seconds.toFixed(2).padStart(9)} ${(total / seconds).toFixed(0).padStart(12)} ${maxRssMb.toFixed(0).padStart(13)}`,
    );
  }
} finally {
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
