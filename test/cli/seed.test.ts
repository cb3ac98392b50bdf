// `poolpatrol db seed --from DIR` through the compiled CLI: the folder goes through the import (its
// rules and messages, one transaction, history kept as "seed"), so a bad time zone or a message id
// used twice is refused naming the file and record and stores nothing, a good folder is taken in,
// seeding it again changes nothing and says so, and 50,000 employees are seeded well within time.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { createTestDatabase, type TestDatabase, tableCounts } from "../support/database.js";
import { copyMockDir } from "../support/fixtures.js";

describe("db seed --from", { shuffle: false }, () => {
  let db: TestDatabase;
  let env: Record<string, string>;
  let good: string;
  beforeAll(async () => {
    db = await createTestDatabase();
    env = { DATABASE_URL: db.url };
    // A program of its own: mock/ with a renamed shift, so a refused folder that moved anything shows it.
    good = copyMockDir((files) => {
      files["shifts.json"]![0].name = "Day Shift (seeded)";
    });
  });
  afterAll(async () => {
    await db.drop();
  });

  /** The folder refused with exit code 2 and `message`; nothing in the database differs. */
  async function refused(dir: string, message: RegExp): Promise<void> {
    const before = await tableCounts(db.prisma);
    const shift = await db.prisma.shift.findUniqueOrThrow({ where: { id: "SHIFT_DAY" } });
    const result = await runCli(["db", "seed", "--from", dir], env);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(/Refused to import: \d+ problems? found, nothing was changed\./);
    expect(result.stderr).toMatch(message);
    expect(await tableCounts(db.prisma)).toEqual(before);
    expect(await db.prisma.shift.findUniqueOrThrow({ where: { id: "SHIFT_DAY" } })).toEqual(shift);
  }

  it("takes in a good folder, with every record in the history as seeded", async () => {
    const result = await runCli(["db", "seed", "--from", good], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/Seeded from .* in \d+\.\d s; the changes are kept in the history as "seed":/);
    expect(result.stderr).toMatch(/^ {2}employees: 102 added$/m);
    expect(result.stderr).toMatch(/^ {2}vanpools: 18 added$/m);
    expect(result.stderr).toMatch(/^ {2}riders: 97 added$/m);
    expect(result.stderr).toMatch(/^ {2}cases: 6 added$/m);
    expect(await db.prisma.shift.findUniqueOrThrow({ where: { id: "SHIFT_DAY" } })).toMatchObject({
      name: "Day Shift (seeded)",
    });
    const history = await runCli(["history", "employee", "EMP-1083"], env);
    expect(history.stdout.trim()).toMatch(/^\S+ \S+ UTC {2}added {2}\(employees\.json, by seed\)$/);
    expect(await db.prisma.changeHistory.count({ where: { actor: { not: "seed" } } })).toBe(0);
  }, 120_000);

  it("seeding the same folder again changes nothing and says so", async () => {
    const before = await tableCounts(db.prisma);
    const stamps = await db.prisma.employee.findMany({ select: { id: true, updatedAt: true }, orderBy: { id: "asc" } });
    const cases = await db.prisma.case.findMany({ orderBy: { id: "asc" } });
    const result = await runCli(["db", "seed", "--from", good], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/nothing changed, every record is as stored/);
    expect(await tableCounts(db.prisma)).toEqual(before);
    expect(
      await db.prisma.employee.findMany({ select: { id: true, updatedAt: true }, orderBy: { id: "asc" } }),
    ).toEqual(stamps);
    expect(await db.prisma.case.findMany({ orderBy: { id: "asc" } })).toEqual(cases);
  }, 120_000);

  it("refuses a time zone that is not an IANA zone, naming the file, record and field", async () => {
    const dir = copyMockDir((files) => {
      files["shifts.json"]![0].name = "Renamed by a refused seed";
      files["vanpools.json"]![1].time_zone = "Pacific";
    });
    await refused(
      dir,
      /vanpools\.json: record #2, column "time_zone": must be an IANA time zone such as America\/Los_Angeles, got "Pacific"/,
    );
  }, 120_000);

  it("refuses a message id used twice, and moves no email", async () => {
    const dir = copyMockDir((files) => {
      files["shifts.json"]![0].name = "Renamed by a refused seed";
      const threads = files["email_threads.json"]!;
      // The second thread's first message given the first thread's message id: seeding it would move that email.
      threads[1].messages[0].message_id = threads[0].messages[0].message_id;
    });
    const moved = await db.prisma.message.findMany({ orderBy: { id: "asc" } });
    await refused(
      dir,
      /email_threads\.json: record #2 \(THREAD-[0-9A-F]+\): field "messages\[0\]\.message_id": MSG-[0-9A-F]+ is already a message of THREAD-[0-9A-F]+/,
    );
    expect(await db.prisma.message.findMany({ orderBy: { id: "asc" } })).toEqual(moved);
  }, 120_000);

  it("refuses a message id twice in one thread", async () => {
    const dir = copyMockDir((files) => {
      const thread = files["email_threads.json"]!.find((t) => t.messages.length > 1);
      thread.messages[1].message_id = thread.messages[0].message_id;
    });
    await refused(dir, /field "messages\[1\]\.message_id": MSG-[0-9A-F]+ appears twice in this thread/);
  }, 120_000);

  it("refuses an employee with a bad ZIP, storing none of the folder (not even its new employee)", async () => {
    const dir = copyMockDir((files) => {
      files["employees.json"]!.push({ ...files["employees.json"]![0], employee_id: "EMP-7001", email: "n@x.example" });
      files["employees.json"]![3].home_zip = "9581";
    });
    await refused(dir, /employees\.json: record #4, column "home_zip": /);
    expect(await db.prisma.employee.findUnique({ where: { id: "EMP-7001" } })).toBeNull();
  }, 120_000);
});

it("seeds 50,000 employees well within two minutes", async () => {
  const db = await createTestDatabase();
  try {
    const dir = copyMockDir((files) => {
      const employees = files["employees.json"]!;
      const template = employees[0];
      for (let i = 0; employees.length < 50_000; i++)
        employees.push({ ...template, employee_id: `EMP-${900_000 + i}`, email: `bulk${i}@example.com` });
    });
    const started = Date.now();
    const result = await runCli(["db", "seed", "--from", dir], { DATABASE_URL: db.url });
    const seconds = (Date.now() - started) / 1000;
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/employees: 50000 added/);
    expect(await db.prisma.employee.count()).toBe(50_000);
    console.log(
      `db seed --from with 50,000 employees: ${seconds.toFixed(1)} s (the command's own count: ${/in (\d+\.\d) s/.exec(result.stderr)?.[1]} s)`,
    );
    expect(seconds).toBeLessThan(60);
  } finally {
    await db.drop();
  }
}, 180_000);
