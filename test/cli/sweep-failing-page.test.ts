// A sweep page that fails on every try for a reason no single vanpool explains (here the database
// refuses every new case, so the page's transaction never commits) must not leave its sweep waiting
// forever: after its last try the page is finished with each of its vanpools counted as not checked,
// the sweep ends and says so, and the next sweep is not stuck behind it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JOB_SCHEMA } from "../../src/data/job-repository.js";
import { SWEEP_QUEUES } from "../../src/workers/sweep-jobs.js";
import { runCli } from "../support/cli.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";

let db: TestDatabase;
let env: Record<string, string>;
beforeAll(async () => {
  db = await createTestDatabase();
  // Retries at once rather than after 5 s doubling (31 to 62 s even from 1 s): the same five tries, sooner.
  env = { DATABASE_URL: db.url, POOLPATROL_SWEEP_RETRY_DELAY_SECONDS: "0" };
  const seeded = await runCli(["db", "seed"], env);
  expect(seeded.code, seeded.stderr).toBe(0);
  await db.pool.query(`CREATE FUNCTION refuse_cases() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
      RAISE EXCEPTION 'injected fault: no new case'; END $$`);
  await db.pool.query(
    "CREATE TRIGGER refuse_cases BEFORE INSERT ON cases FOR EACH ROW EXECUTE FUNCTION refuse_cases()",
  );
});
afterAll(async () => {
  await db.drop();
});

describe("a sweep whose page fails on every try", () => {
  it("finishes with the page's vanpools counted as not checked, and the next sweep starts", async () => {
    const first = await runCli(["audit", "--all"], env);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/0 of 17 vanpools checked/);
    expect(first.stdout).toMatch(
      /errors\s+17\n\s+VP-101 could not be checked: its page of the sweep failed on every try \(.*injected fault: no new case/,
    );
    expect(await db.prisma.sweep.count({ where: { finishedAt: null } })).toBe(0);
    // Its first try and all five retries ran before the page was given up.
    const { rows } = await db.pool.query(`SELECT retry_count FROM ${JOB_SCHEMA}.job WHERE name = $1`, [
      SWEEP_QUEUES.page,
    ]);
    expect(rows).toEqual([{ retry_count: 5 }]);

    await db.pool.query("DROP TRIGGER refuse_cases ON cases");
    const second = await runCli(["audit", "--all"], env);
    expect(second.code, second.stderr).toBe(0);
    expect(`${second.stdout}${second.stderr}`).not.toMatch(/waiting for it/);
    expect(second.stdout).toMatch(/17 of 17 vanpools checked/);
  }, 180_000);
});
