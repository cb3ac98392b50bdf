// One vanpool whose checks cannot run (a time zone no runtime knows, written straight into the
// database, since `db seed` now refuses it) must not stop a sweep: the others are checked and
// stored, the bad one is counted among the errors, and the next sweep starts instead of waiting.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";

let db: TestDatabase;
let env: Record<string, string>;
beforeAll(async () => {
  db = await createTestDatabase();
  env = { DATABASE_URL: db.url };
  const seeded = await runCli(["db", "seed"], env);
  expect(seeded.code, seeded.stderr).toBe(0);
  await db.pool.query(`UPDATE vanpools SET time_zone = 'Mars/Olympus_Mons' WHERE id = 'VP-102'`);
});
afterAll(async () => {
  await db.drop();
});

const sweepRuns = (vanpoolId: string) =>
  db.prisma.verificationRun.count({ where: { vanpoolId, trigger: { startsWith: "sweep:" } } });

describe("a sweep with one vanpool whose checks cannot run", () => {
  it("checks every other vanpool, counts the bad one as an error, and finishes", async () => {
    const first = await runCli(["audit", "--all"], env);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/16 of 17 vanpools checked/);
    expect(first.stdout).toMatch(/errors\s+1\n\s+VP-102 could not be checked: unknown time zone "Mars\/Olympus_Mons"/);
    expect(await sweepRuns("VP-101")).toBe(1);
    expect(await sweepRuns("VP-102")).toBe(0);
    expect(await db.prisma.sweep.count({ where: { finishedAt: null } })).toBe(0);

    // The next sweep starts (nothing left to wait for) and counts the same error again.
    const second = await runCli(["audit", "--all"], env);
    expect(second.code, second.stderr).toBe(0);
    expect(`${second.stdout}${second.stderr}`).not.toMatch(/waiting for it/);
    expect(second.stdout).toMatch(/16 of 17 vanpools checked/);
    expect(await db.prisma.sweep.count()).toBe(2);

    const report = await runCli(["audit-report"], env);
    expect(report.code, report.stderr).toBe(0);
    expect(report.stdout).toMatch(/Audited 16 of 17 active vanpools/);
    expect(report.stdout).toMatch(/Not checked \(1\):\n\s+VP-102 could not be checked: unknown time zone/);
  }, 180_000);
});
