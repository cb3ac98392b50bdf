// `poolpatrol import shifts|vanpools|riders` through the compiled CLI, on a database seeded with
// `db seed`, with the example exports of docs/examples/ edited by each test. Every validation rule
// the import names is shown with a bad file that changes nothing.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../src/config/settings.js";
import { runCli } from "../support/cli.js";
import { createTestDatabase, type TestDatabase, tableCounts } from "../support/database.js";

const example = (kind: string) => path.join(PROJECT_ROOT, "docs/examples", `${kind}.csv`);

/** The example export of `kind` edited by `edit` (rows after the header, as objects), written as `name`. */
function exportFile(kind: string, edit: (rows: Record<string, string>[]) => void, name = `${kind}.csv`): string {
  const text = fs.readFileSync(example(kind), "utf8");
  const [header] = parse(text, { to_line: 1 }) as string[][];
  const rows = parse(text, { columns: true }) as Record<string, string>[];
  edit(rows);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "poolpatrol-roster-"));
  const file = path.join(dir, name);
  fs.writeFileSync(file, stringify([header!, ...rows.map((r) => header!.map((h) => r[h] ?? ""))]));
  return file;
}

let db: TestDatabase;
let env: Record<string, string>;
beforeAll(async () => {
  db = await createTestDatabase();
  env = { DATABASE_URL: db.url };
  const seed = await runCli(["db", "seed"], env);
  expect(seed.code, seed.stderr).toBe(0);
});
afterAll(async () => {
  await db.drop();
});

/** Runs an import that must be refused: exit 2, these problems, and not one row changed. */
async function refused(args: string[], problems: string[]) {
  const before = await tableCounts(db.prisma);
  const stamps = await db.prisma.$queryRaw`
    SELECT (SELECT max(updated_at) FROM vanpools) AS v, (SELECT max(updated_at) FROM shifts) AS s,
           (SELECT count(*) FROM riders WHERE status = 'active') AS r`;
  const result = await runCli(["import", ...args], env);
  expect(result.code, result.stdout).toBe(2);
  expect(result.stderr).toContain(`Refused to import: ${problems.length} problem`);
  for (const p of problems) expect(result.stderr).toContain(p);
  expect(await tableCounts(db.prisma)).toEqual(before);
  expect(
    await db.prisma.$queryRaw`
    SELECT (SELECT max(updated_at) FROM vanpools) AS v, (SELECT max(updated_at) FROM shifts) AS s,
           (SELECT count(*) FROM riders WHERE status = 'active') AS r`,
  ).toEqual(stamps);
}

describe("the example exports of the seeded program", () => {
  it.each(["shifts", "vanpools", "riders"])(
    "%s: the example export (12-hour times, day ranges) reads as stored; nothing would change",
    async (kind) => {
      const result = await runCli(["import", kind, example(kind), "--dry-run"], env);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toMatch(new RegExp(`^${kind}\\.csv: nothing would change; \\d+ ${kind} are as stored\\.`));
    },
  );
});

describe("a bad file is refused naming file, line, column and rule, and changes nothing", () => {
  it("shifts: a time like 25:00, weekdays that are not, a duplicate id", async () => {
    const file = exportFile("shifts", (rows) => {
      rows[0]!.start_time = "25:00";
      rows[1]!.days = "Mon-Fro";
      rows.push({ ...rows[2]! });
    });
    await refused(
      ["shifts", file],
      [
        'shifts.csv: line 2, column "start_time": must be a time like 07:30 (24-hour), got "25:00"',
        'shifts.csv: line 3, column "days": must be weekdays like "Mon-Fri" or "Mon;Wed;Fri", got "Mon-Fro"',
        'shifts.csv: line 11, column "shift_id": duplicate id SHIFT_DAY_FLEX (also on line 4)',
      ],
    );
  });

  it("vanpools: coordinates out of range, a time zone that is not IANA, a coordinator who does not exist", async () => {
    const file = exportFile("vanpools", (rows) => {
      rows[0]!.work_site_lat = "97.4";
      rows[1]!.time_zone = "Pacific Time";
      rows[2]!.coordinator_id = "EMP-9999";
      rows[3]!.days = "Mon-Fri";
      rows[3]!.start_time = "7:00 PM";
      rows[3]!.end_time = "3:30";
    });
    await refused(
      ["vanpools", file],
      [
        'vanpools.csv: line 2, column "work_site_lat": latitude must be between -90 and 90',
        'vanpools.csv: line 3, column "time_zone": must be an IANA time zone such as America/Los_Angeles, got "Pacific Time"',
        'vanpools.csv: line 4, column "coordinator_id": no employee "EMP-9999" is stored',
        // 7:00 PM is read as 19:00; "3:30" is read as 03:30: a valid overnight run, not a problem.
      ],
    );
  });

  it("riders: a missing vanpool or employee, a rider on two active vans, an id in two files", async () => {
    const file = exportFile("riders", (rows) => {
      rows.push({ participant_id: "P-20010", vanpool_id: "VP-999", employee_id: "EMP-1007" });
      rows.push({ participant_id: "P-20011", vanpool_id: "VP-104", employee_id: "EMP-9999" });
      // EMP-1083 rides VP-111; listed again on VP-104 with a new seat.
      rows.push({ participant_id: "P-20001", vanpool_id: "VP-104", employee_id: "EMP-1083" });
    });
    const second = exportFile("riders", (rows) => rows.splice(0, rows.length, { ...rows[5]! }), "riders-late.csv");
    await refused(
      ["riders", file, second],
      [
        'riders.csv: line 99, column "vanpool_id": no vanpool "VP-999" is stored',
        'riders.csv: line 100, column "employee_id": no employee "EMP-9999" is stored',
        'riders.csv: line 101, column "employee_id": EMP-1083 would ride two active vans (VP-111 and VP-104)',
        'riders-late.csv: line 2, column "participant_id": duplicate id P-10006 (also on line 7 of riders.csv)',
      ],
    );
  });
});

describe("applying a roster", { shuffle: false }, () => {
  it("a rider absent from the roster leaves the van (kept, status removed); a new rider joins and is audited", async () => {
    const file = exportFile("riders", (rows) => {
      rows.splice(
        rows.findIndex((r) => r.employee_id === "EMP-1083"),
        1,
      );
      rows.push({ participant_id: "P-20002", vanpool_id: "VP-104", employee_id: "EMP-1007" });
    });
    const result = await runCli(["import", "riders", file, "--as", "provider-sync"], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/added +1\n +changed +0\n +unchanged +96\n +leaving +1 .*status set to removed/);
    expect(result.stdout).toContain('Leaving:\n  P-10061 (EMP-1083 on VP-111)\n    status: "active" -> "removed"');
    expect(result.stdout).toContain("Re-checks queued for (a rider joined, or left a van with a case open): VP-104");
    expect(await db.prisma.rider.findUniqueOrThrow({ where: { participantId: "P-10061" } })).toMatchObject({
      status: "removed",
      removedReason: "absent from the roster riders.csv",
    });
    expect(await db.prisma.rider.findUniqueOrThrow({ where: { participantId: "P-20002" } })).toMatchObject({
      status: "active",
      employeeId: "EMP-1007",
    });
    const jobs = await db.prisma.$queryRaw<{ data: { vanpoolId: string } }[]>`
      SELECT data FROM pgboss.job WHERE name = 'audit-vanpool' ORDER BY created_on`;
    expect(jobs.map((j) => j.data.vanpoolId)).toEqual(["VP-104"]);
    const history = await runCli(["history", "rider", "P-10061"], env);
    expect(history.stdout).toMatch(/status: "active" -> "removed" {2}\(riders\.csv, by cli:provider-sync\)/);
    const again = await runCli(["import", "riders", file], env);
    expect(again.stdout).toMatch(/^riders\.csv: nothing changed; 97 riders are as stored\./);
  });

  it("a vanpool absent from the provider's list is deactivated, never deleted", async () => {
    const file = exportFile("vanpools", (rows) => {
      rows.splice(
        rows.findIndex((r) => r.vanpool_id === "VP-117"),
        1,
      );
    });
    const result = await runCli(["import", "vanpools", file], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("Leaving:\n  VP-117");
    expect(result.stdout).toContain('    status: "active" -> "inactive"');
    expect(await db.prisma.vanpool.findUniqueOrThrow({ where: { id: "VP-117" } })).toMatchObject({
      status: "inactive",
    });
  });
});
