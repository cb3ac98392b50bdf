import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../src/config/settings.js";
import { runCli } from "../support/cli.js";
import { createTestDatabase, type TestDatabase, tableCounts } from "../support/database.js";
import { copyMockDir } from "../support/fixtures.js";

let db: TestDatabase;
let env: Record<string, string>;
beforeAll(async () => {
  db = await createTestDatabase();
  env = { DATABASE_URL: db.url };
  const seeded = await runCli(["db", "seed"], env);
  expect(seeded.code, seeded.stderr).toBe(0);
});
afterAll(async () => {
  await db.drop();
});

describe("poolpatrol audit", () => {
  it("prints the verdict, each check's reasoning and evidence, and the flagged riders", async () => {
    const result = await runCli(["audit", "VP-115"], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^VP-115: FAIL/);
    expect(result.stdout).toMatch(/Location: FAIL\s+confidence \d\/5/);
    expect(result.stdout).toMatch(/Shift: FAIL/);
    expect(result.stdout).toMatch(/mi \(haversine\) vs limit 50 mi -> fail/);
    expect(result.stdout).toMatch(/Flagged riders: EMP-\d+, EMP-\d+/);
  });

  it("prints the structured result with --json and stores one run per check", async () => {
    const before = await db.prisma.verificationRun.count();
    const result = await runCli(["audit", "VP-103", "--json"], env);
    const audit = JSON.parse(result.stdout);
    expect(audit).toMatchObject({
      vanpool_id: "VP-103",
      verdict: "fail",
      location: { verdict: "pass" },
      shift: { verdict: "fail" },
      case: { vanpool_id: "VP-103" },
    });
    expect(audit.shift.flagged).toHaveLength(1);
    expect(await db.prisma.verificationRun.count()).toBe(before + 2);
  });

  it("audits every active vanpool with a summary table", async () => {
    const result = await runCli(["audit", "--all"], env);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Audited 17 active vanpools/);
    expect(result.stdout).toMatch(/FAIL\s+7/);
    expect(result.stdout).toMatch(/VP-115\s+fail\s+location\+shift/);
  });

  it.each([
    [["audit", "VP-999"], /No vanpool VP-999/],
    [["audit", "bogus"], /"bogus" is not a vanpool id/],
    [["audit"], /Give one vanpool id/],
    [["audit", "VP-101", "--color"], /Unknown option '--color'/],
    [["frobnicate"], /Unknown command 'frobnicate'/],
  ])("refuses %j with one line and the usage, exit 2, nothing stored", async (args, message) => {
    const before = await tableCounts(db.prisma);
    const result = await runCli(args, env);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr.split("\n")[0]).toMatch(message);
    expect(result.stderr).toContain("Usage: poolpatrol");
    expect(await tableCounts(db.prisma)).toEqual(before);
  });
});

describe("poolpatrol db seed --from", () => {
  it("refuses a folder with a bad record and leaves the database unchanged", async () => {
    const before = await tableCounts(db.prisma);
    const dir = copyMockDir((files) => {
      files["vanpools.json"]![0].capacity = "big";
    });
    const result = await runCli(["db", "seed", "--from", dir], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/vanpools\.json: record #1 \(VP-101\): field "capacity"/);
    expect(await tableCounts(db.prisma)).toEqual(before);
  });
});

describe("settings", () => {
  it.each([
    [{ POOLPATROL_MAX_DISTANCE_MILES: "fifty" }, /POOLPATROL_MAX_DISTANCE_MILES: must be a number/],
    [{ DATABASE_URL: "mysql://nope" }, /DATABASE_URL: must be a URL like postgresql:/],
    [{ POOLPATROL_TIMEZONE: "Mars/Olympus" }, /POOLPATROL_TIMEZONE: must be an IANA time zone/],
  ])("stop start-up and name the variable: %j", async (bad, message) => {
    const result = await runCli(["audit", "--all"], { ...env, ...bad });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);
  });
});

describe("poolpatrol eval", () => {
  it("prints the JSON contract for a dataset", async () => {
    const result = await runCli([
      "eval",
      "--dataset",
      path.join(PROJECT_ROOT, "evals/datasets/location.jsonl"),
      "--json",
    ]);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.dataset).toBe("location.jsonl");
    expect(report.metrics.accuracy).toBe(1);
    expect(report.results[0]).toEqual(
      expect.objectContaining({
        id: expect.any(String),
        pass: true,
        expected: expect.any(Object),
        actual: expect.objectContaining({ verdict: expect.any(String), flagged: expect.any(Array) }),
      }),
    );
  });

  it("exits 0 with failures listed when the engine disagrees with a dataset", async () => {
    const result = await runCli(["eval", "--dataset", path.join(PROJECT_ROOT, "evals/datasets/location.jsonl")], {
      POOLPATROL_MAX_DISTANCE_MILES: "200",
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Failing examples \(\d+\):/);
  });
});
