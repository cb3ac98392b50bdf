import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { helpText } from "../../scripts/readme-usage.js";
import { createProgram } from "../../src/cli/program.js";
import { PROJECT_ROOT } from "../../src/config/settings.js";
import { SEED_TRIGGER } from "../../src/verification/seeded-case-audits.js";
import { runCli } from "../support/cli.js";
import { createTestDatabase, type TestDatabase, tableCounts } from "../support/database.js";
import { copyMockDir } from "../support/fixtures.js";

let db: TestDatabase;
let env: Record<string, string>;
let seeded: Awaited<ReturnType<typeof runCli>>;
beforeAll(async () => {
  db = await createTestDatabase();
  env = { DATABASE_URL: db.url };
  seeded = await runCli(["db", "seed"], env);
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
    expect(await db.prisma.verificationRun.count()).toBe(before + 3);
  });

  it("sweeps every active vanpool, opens a case for each failing one, and counts them again as still failing", async () => {
    const result = await runCli(["audit", "--all"], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/17 of 17 vanpools checked/);
    const open = await db.prisma.case.count({ where: { status: { notIn: ["resolved", "cancelled"] } } });
    expect(open).toBeGreaterThanOrEqual(7);
    const opened = Number(/new cases\s+(\d+)/.exec(result.stdout)![1]);
    const stillFailing = Number(/still failing\s+(\d+)/.exec(result.stdout)![1]);
    expect(opened + stillFailing).toBe(open);
    expect(result.stdout).toMatch(/errors\s+0/);

    const json = await runCli(["audit", "--all", "--json"], env);
    const again = JSON.parse(json.stdout);
    expect(again).toMatchObject({ checked: 17, new_cases: [], still_failing: open });
  }, 120_000);

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

describe("poolpatrol db seed", () => {
  it("audits the open seeded cases' vanpools, so a seeded case carries its checks' results", async () => {
    expect(seeded.stderr).toMatch(/Audited the vanpools of 5 open cases\./);
    const runs = await db.prisma.verificationRun.findMany({
      where: { trigger: SEED_TRIGGER },
      include: { results: true },
      orderBy: { vanpoolId: "asc" },
    });
    expect(runs.map((r) => r.vanpoolId)).toEqual(["VP-102", "VP-103", "VP-113", "VP-114", "VP-115"]);
    const vp103 = runs.find((r) => r.vanpoolId === "VP-103")!;
    expect(vp103.results.map((r) => [r.check, r.verdict, r.flagged, r.model]).sort()).toEqual([
      ["employment", "pass", [], "rules"],
      ["location", "pass", [], "rules"],
      ["shift", "fail", ["EMP-1062"], "rules"],
    ]);
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
    expect(result.stderr).toMatch(/vanpools\.json: record #1, column "capacity": must be a number, got "big"/);
    expect(await tableCounts(db.prisma)).toEqual(before);
  });

  // VP-101's second rider is EMP-1071 (P-10002), not its coordinator; VP-102 has room.
  it.each([
    [
      "a participant id given to another employee",
      // biome-ignore lint/suspicious/noExplicitAny: a record of the copied folder
      (files: Record<string, any[]>) => {
        files["employees.json"]!.push({ ...files["employees.json"]![0], employee_id: "EMP-9001", email: "new@x.test" });
        files["vanpools.json"]![0].riders[1].employee_id = "EMP-9001";
      },
      /riders\[1\], column "participant_id": P-10002 is EMP-1071 on VP-101; a participant id is never reused/,
    ],
    [
      "a rider moved to another vanpool under the same participant id",
      // biome-ignore lint/suspicious/noExplicitAny: a record of the copied folder
      (files: Record<string, any[]>) => {
        files["vanpools.json"]![1].riders.push(files["vanpools.json"]![0].riders.splice(1, 1)[0]);
      },
      /riders\[\d+\], column "participant_id": P-10002 is EMP-1071 on VP-101; a participant id is never reused/,
    ],
  ])("refuses %s, with a clear message, and changes nothing", async (_what, edit, message) => {
    const before = await tableCounts(db.prisma);
    const riders = await db.prisma.rider.findMany({ orderBy: { participantId: "asc" } });
    const result = await runCli(["db", "seed", "--from", copyMockDir(edit)], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/Refused to import: \d+ problems? found, nothing was changed/);
    expect(result.stderr).toMatch(message);
    expect(await tableCounts(db.prisma)).toEqual(before);
    expect(await db.prisma.rider.findMany({ orderBy: { participantId: "asc" } })).toEqual(riders);
  });

  it("accepts the same folder again: riders stay where they are", async () => {
    const riders = await db.prisma.rider.findMany({ orderBy: { participantId: "asc" } });
    const result = await runCli(["db", "seed", "--from", copyMockDir()], env);
    expect(result.code, result.stderr).toBe(0);
    expect(await db.prisma.rider.findMany({ orderBy: { participantId: "asc" } })).toEqual(riders);
  });

  // As the roster import reads it: the rider left VP-101's roster and joined VP-102's under a new seat.
  it("moves a rider to another vanpool under a new participant id, ending the old seat", async () => {
    const dir = copyMockDir((files) => {
      files["vanpools.json"]![0].riders.splice(1, 1);
      files["vanpools.json"]![1].riders.push({ participant_id: "P-90001", employee_id: "EMP-1071" });
    });
    const result = await runCli(["db", "seed", "--from", dir], env);
    expect(result.code, result.stderr).toBe(0);
    const seats = await db.prisma.rider.findMany({
      where: { employeeId: "EMP-1071" },
      orderBy: { participantId: "asc" },
    });
    expect(seats.map((r) => [r.participantId, r.vanpoolId, r.status])).toEqual([
      ["P-10002", "VP-101", "removed"],
      ["P-90001", "VP-102", "active"],
    ]);
  });
});

describe("poolpatrol jobs", () => {
  it("reports without starting the job engine, and counts the jobs a command ran", async () => {
    const fresh = await createTestDatabase();
    try {
      const freshEnv = { DATABASE_URL: fresh.url };
      const before = await runCli(["jobs"], freshEnv);
      expect(before.code, before.stderr).toBe(0);
      expect(before.stdout).toMatch(/No jobs yet/);
      // Read-only: the report did not create the job engine's tables.
      const [schema] = await fresh.prisma.$queryRaw<
        { found: string | null }[]
      >`SELECT to_regclass('pgboss.job')::text AS found`;
      expect(schema?.found).toBeNull();

      expect((await runCli(["db", "seed"], freshEnv)).code).toBe(0);
      const audited = await runCli(["audit", "VP-115"], freshEnv);
      expect(audited.code, audited.stderr).toBe(0);
      const after = await runCli(["jobs"], freshEnv);
      expect(after.code, after.stderr).toBe(0);
      expect(after.stdout).toMatch(/^queue\s+created\s+retry\s+active\s+completed\s+failed\s+cancelled/);
      expect(after.stdout).toMatch(/No failed jobs\./);
    } finally {
      await fresh.drop();
    }
    // Four CLI processes, two of which seed and audit.
  }, 120_000);
});

describe("poolpatrol --help", () => {
  const commandNames = (command: Command, prefix: string[] = []): string[][] =>
    command.commands
      .filter((c) => c.name() !== "help")
      .flatMap((c) => [[...prefix, c.name()], ...commandNames(c, [...prefix, c.name()])]);

  it("prints the usage, exit 0, with no command, with --help and with help", async () => {
    for (const args of [[], ["--help"], ["help"]]) {
      const result = await runCli(args);
      expect(result.code, args.join(" ")).toBe(0);
      expect(result.stdout).toBe(helpText());
    }
  });

  it.each(commandNames(createProgram()))(
    "describes `%s` with --help, exit 0, before any setting is read",
    async (...names) => {
      // A broken setting would stop any command that ran: --help must not get that far.
      const result = await runCli([...names, "--help"], { POOLPATROL_MAX_DISTANCE_MILES: "fifty" });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toMatch(new RegExp(`^Usage: poolpatrol ${names.join(" ")} `));
      expect(result.stderr).toBe("");
    },
  );
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

describe("output on a pipe", () => {
  it("reaches a slow reader whole: `eval --json | jq` gets the entire 700 KB report", async () => {
    const dataset = path.join(PROJECT_ROOT, "evals/datasets/shift.jsonl");
    // The reader takes 64 KiB at a time with pauses, so the pipe stays full while the CLI finishes.
    const slowReader = `process.stdin.on("data", (c) => { process.stdout.write(c); process.stdin.pause(); setTimeout(() => process.stdin.resume(), 20); });`;
    const bin = path.join(PROJECT_ROOT, "bin", "poolpatrol.js");
    const { text, code } = await new Promise<{ text: string; code: number | null }>((resolve) => {
      const cli = spawn(process.execPath, [bin, "eval", "--dataset", dataset, "--json"], {
        stdio: ["ignore", "pipe", "inherit"],
      });
      const reader = spawn(process.execPath, ["-e", slowReader], { stdio: ["pipe", "pipe", "inherit"] });
      cli.stdout.pipe(reader.stdin);
      let received = "";
      reader.stdout.on("data", (chunk) => (received += chunk));
      let exitCode: number | null = null;
      cli.on("exit", (c) => (exitCode = c));
      reader.on("close", () => resolve({ text: received, code: exitCode }));
    });
    expect(code).toBe(0);
    expect(Buffer.byteLength(text)).toBeGreaterThan(256 * 1024);
    const examples = fs.readFileSync(dataset, "utf8").trim().split("\n").length;
    expect(JSON.parse(text).results).toHaveLength(examples);
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
