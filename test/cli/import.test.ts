// `poolpatrol import employees` and `poolpatrol history employee` through the compiled CLI, on a
// database seeded with `db seed`, with the HRIS export and mapping of docs/examples/.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../src/config/settings.js";
import { runCli } from "../support/cli.js";
import { createTestDatabase, type TestDatabase, tableCounts } from "../support/database.js";
import {
  diegoMoved,
  HRIS_EXAMPLE as EXAMPLE,
  HRIS,
  hrisFile,
  HRIS_MAPPING as MAPPING,
  hrisRow as row,
} from "../support/hris.js";

async function seeded(): Promise<{ db: TestDatabase; env: Record<string, string> }> {
  const db = await createTestDatabase();
  const env = { DATABASE_URL: db.url };
  const seed = await runCli(["db", "seed"], env);
  expect(seed.code, seed.stderr).toBe(0);
  return { db, env };
}

/** Diego (EMP-1083) moved, EMP-2001 joined, EMP-1002 (Trung Nguyen) is gone from the export. */
const movedJoinedLeft = () =>
  hrisFile((rows) => {
    diegoMoved(rows);
    rows.push([
      "EMP-2001",
      "Ana",
      "Lopez",
      "ana.lopez@northwind.example",
      "San Jose HQ",
      "12 Elm St",
      "San Jose",
      "California",
      "95112",
      "SHIFT_DAY",
      "Part time",
      "Marisol Ortega",
      "Active",
      "12/24/2026;12/31/2026",
    ]);
    rows.splice(
      rows.findIndex((r) => r[0] === "EMP-1002"),
      1,
    );
  });

describe("importing an HRIS export", { shuffle: false }, () => {
  let db: TestDatabase;
  let env: Record<string, string>;
  let file: string;
  beforeAll(async () => {
    ({ db, env } = await seeded());
    file = movedJoinedLeft();
    // VP-111 (Diego's and Trung's van) gets an open case.
    const audit = await runCli(["audit", "VP-111"], env);
    expect(audit.code, audit.stderr).toBe(0);
    expect(await db.prisma.case.count({ where: { vanpoolId: "VP-111", status: "pending_reply" } })).toBe(1);
  });
  /** Re-audits an import queued (the bot's audit worker runs them). */
  const reauditJobs = () =>
    db.prisma.$queryRaw<{ data: { vanpoolId: string; userId: string; answer: unknown } }[]>`
      SELECT data FROM pgboss.job WHERE name = 'audit-vanpool' ORDER BY created_on`;
  afterAll(async () => {
    await db.drop();
  });

  it("the unchanged example export, mapped, says nothing would change", async () => {
    const result = await runCli(["import", "employees", EXAMPLE, "--mapping", MAPPING, "--dry-run"], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^hris-workers\.csv: nothing would change; 102 employees are as stored\./);
  });

  it("a dry run prints the diff field by field, with counts, and changes nothing", async () => {
    const before = await tableCounts(db.prisma);
    const diegoBefore = await db.prisma.employee.findUniqueOrThrow({ where: { id: "EMP-1083" } });
    const result = await runCli(["import", "employees", file, "--mapping", MAPPING, "--dry-run"], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^Dry run of workers\.csv: .*nothing was changed\./);
    expect(result.stdout).toMatch(/added +1\n +changed +1\n +unchanged +100\n +leaving +1 .*deactivated/);
    expect(result.stdout).toContain(
      [
        "  EMP-1083 Diego Fuentes",
        '    home_address: "7260 Foothill Blvd, Apt 19B" -> "41 Mowry Ave"',
        '    home_city: "Salinas" -> "Fremont"',
        '    home_zip: "93901" -> "94538"',
      ].join("\n"),
    );
    expect(result.stdout).toContain("Added:\n  EMP-2001 Ana Lopez");
    expect(result.stdout).toContain('Leaving:\n  EMP-1002 Trung Nguyen\n    status: "active" -> "terminated"');
    expect(result.stdout).toContain(
      "Would re-check (a rider's home, shift, PTO, work site or employment changed): VP-111",
    );
    expect(await reauditJobs()).toEqual([]);
    expect(await tableCounts(db.prisma)).toEqual(before);
    expect(await db.prisma.employee.findUniqueOrThrow({ where: { id: "EMP-1083" } })).toEqual(diegoBefore);
  });

  it("applying it moves Diego, adds the new employee, deactivates (never deletes) the one gone from the file", async () => {
    const result = await runCli(["import", "employees", file, "--mapping", MAPPING, "--as", "hr-sync"], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^Imported workers\.csv as cli:hr-sync: these changes were applied/);
    expect(result.stdout).toMatch(/added +1\n +changed +1\n +unchanged +100\n +leaving +1/);
    expect(await db.prisma.employee.findUniqueOrThrow({ where: { id: "EMP-1083" } })).toMatchObject({
      homeAddress: "41 Mowry Ave",
      homeCity: "Fremont",
      homeZip: "94538",
      homeState: "CA",
    });
    expect(await db.prisma.employee.findUniqueOrThrow({ where: { id: "EMP-2001" } })).toMatchObject({
      firstName: "Ana",
      homeState: "CA",
      timeType: "part_time",
      ptoDates: ["2026-12-24", "2026-12-31"],
      status: "active",
    });
    expect(await db.prisma.employee.findUniqueOrThrow({ where: { id: "EMP-1002" } })).toMatchObject({
      status: "terminated",
    });
    // Diego (moved) and Trung (terminated) ride VP-111: its re-check is queued, once.
    expect(result.stdout).toContain(
      "Re-checks queued for (a rider's home, shift, PTO, work site or employment changed): VP-111",
    );
    expect(await reauditJobs()).toEqual([
      {
        data: {
          vanpoolId: "VP-111",
          userId: "cli:hr-sync",
          answer: { via: "import", source: "workers.csv", importId: expect.stringMatching(/^IMP-/) },
        },
      },
    ]);
  });

  it("history answers when Diego's address changed, from which file and by whom", async () => {
    const result = await runCli(["history", "employee", "EMP-1083"], env);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trim().split("\n");
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/UTC {2}added {2}\(employees\.json, by seed\)$/);
    expect(lines[1]).toMatch(
      /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC {2}home_address: "7260 Foothill Blvd, Apt 19B" -> "41 Mowry Ave" {2}\(workers\.csv, by cli:hr-sync\)$/,
    );
    const left = await runCli(["history", "employee", "EMP-1002"], env);
    expect(left.stdout).toMatch(/status: "active" -> "terminated" {2}\(workers\.csv, by cli:hr-sync\)/);
    const joined = await runCli(["history", "employee", "EMP-2001"], env);
    expect(joined.stdout).toMatch(/UTC {2}added {2}\(workers\.csv, by cli:hr-sync\)/);
  });

  it("importing the same file again changes nothing and says so", async () => {
    const before = await tableCounts(db.prisma);
    const stamps = await db.prisma.employee.findMany({ select: { id: true, updatedAt: true }, orderBy: { id: "asc" } });
    const result = await runCli(["import", "employees", file, "--mapping", MAPPING], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^workers\.csv: nothing changed; 102 employees are as stored\./);
    expect(result.stdout).toMatch(/leaving +0/);
    expect(result.stdout).not.toContain("Re-audit");
    expect(await reauditJobs()).toHaveLength(1);
    expect(await tableCounts(db.prisma)).toEqual(before);
    expect(
      await db.prisma.employee.findMany({ select: { id: true, updatedAt: true }, orderBy: { id: "asc" } }),
    ).toEqual(stamps);
  });
});

describe("a file with a bad row", () => {
  let db: TestDatabase;
  let env: Record<string, string>;
  beforeAll(async () => {
    ({ db, env } = await seeded());
  });
  afterAll(async () => {
    await db.drop();
  });

  // Line 7 is the sixth employee (line 1 is the header): EMP-1006, Ernesto Vargas.
  const badZipOnLine7 = () =>
    hrisFile((rows) => {
      rows[5]![HRIS.HOME_ZIP] = "9581";
      row(rows, "EMP-1083")[HRIS.HOME_ADDRESS] = "41 Mowry Ave";
    });

  it("is refused naming the file, line, column and rule, and nothing changes", async () => {
    const before = await tableCounts(db.prisma);
    const diego = await db.prisma.employee.findUniqueOrThrow({ where: { id: "EMP-1083" } });
    const result = await runCli(["import", "employees", badZipOnLine7(), "--mapping", MAPPING], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("Refused to import: 1 problem found, nothing was changed.");
    expect(result.stderr).toContain(
      'workers.csv: line 7, column "Home Postal Code" (home_zip): must be a 5-digit ZIP, got "9581"',
    );
    expect(await tableCounts(db.prisma)).toEqual(before);
    expect(await db.prisma.employee.findUniqueOrThrow({ where: { id: "EMP-1083" } })).toEqual(diego);
  });

  it("names a date that does not exist, an unknown shift and a duplicate id the same way", async () => {
    const before = await tableCounts(db.prisma);
    const file = hrisFile((rows) => {
      rows[0]![HRIS.PTO] = "02/30/2026";
      rows[1]![HRIS.SHIFT] = "SHIFT_LUNAR";
      rows.push([...rows[2]!]);
    });
    const result = await runCli(["import", "employees", file, "--mapping", MAPPING], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'workers.csv: line 2, column "Approved PTO Dates" (pto_dates): is not a day of the calendar, got "2026-02-30"',
    );
    expect(result.stderr).toContain(
      'workers.csv: line 3, column "Shift Code" (shift_id): unknown shift id "SHIFT_LUNAR"',
    );
    expect(result.stderr).toContain(
      'workers.csv: line 104, column "Worker ID" (employee_id): duplicate id EMP-1003 (also on line 4)',
    );
    expect(await tableCounts(db.prisma)).toEqual(before);
  });

  it("with --skip-invalid applies the good rows and writes the rejected one with its reason", async () => {
    const rejects = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "poolpatrol-rejects-")), "rejects.csv");
    const result = await runCli(
      ["import", "employees", badZipOnLine7(), "--mapping", MAPPING, "--skip-invalid", rejects],
      env,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/changed +1\n +unchanged +100\n +leaving +0[^\n]*\n +rejected +1 \(written to /);
    expect(result.stdout).toContain(
      'Rejected:\n  workers.csv: line 7, column "Home Postal Code" (home_zip): must be a 5-digit ZIP, got "9581"',
    );
    expect(await db.prisma.employee.findUniqueOrThrow({ where: { id: "EMP-1083" } })).toMatchObject({
      homeAddress: "41 Mowry Ave",
    });
    // The rejected employee is in the file: kept as stored, not deactivated.
    expect(await db.prisma.employee.findUniqueOrThrow({ where: { id: "EMP-1006" } })).toMatchObject({
      homeZip: "95818",
      status: "active",
    });
    const [header, rejected, ...more] = parse(fs.readFileSync(rejects, "utf8")) as string[][];
    expect(more).toEqual([]);
    expect(header![0]).toBe("line");
    expect(header!.at(-1)).toBe("reasons");
    expect(rejected![0]).toBe("line 7");
    expect(rejected![1]).toBe("EMP-1006");
    expect(rejected!.at(-1)).toContain('column "Home Postal Code" (home_zip): must be a 5-digit ZIP, got "9581"');
  });
  it("reads a JSON array in Pool Patrol's own field names, naming a bad record by its number", async () => {
    const before = await tableCounts(db.prisma);
    const employees = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, "mock/employees.json"), "utf8"));
    employees[0].home_city = "Gilroy";
    const emp1040 = employees.find((e: { employee_id: string }) => e.employee_id === "EMP-1040");
    const lat1040 = emp1040.home_coords.lat;
    emp1040.home_coords.lat = 37.5;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "poolpatrol-import-"));
    const good = path.join(dir, "employees.json");
    fs.writeFileSync(good, JSON.stringify(employees));
    const dryRun = await runCli(["import", "employees", good, "--dry-run"], env);
    expect(dryRun.code, dryRun.stderr).toBe(0);
    expect(dryRun.stdout).toContain('  EMP-1001 Brian McAllister\n    home_city: "Morgan Hill" -> "Gilroy"');
    // Coordinates in db seed's shape (home_coords) are compared as their two fields.
    expect(dryRun.stdout).toMatch(new RegExp(`EMP-1040 [^\\n]+\\n    home_lat: "${lat1040}" -> "37.5"\\n`));
    expect(dryRun.stdout).not.toContain("EMP-1069");

    employees[2].home_lat = 91.5;
    employees[2].home_lng = -121.9;
    const bad = path.join(dir, "bad.json");
    fs.writeFileSync(bad, JSON.stringify(employees));
    const refused = await runCli(["import", "employees", bad], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('bad.json: record #3, column "home_lat": latitude must be between -90 and 90');
    expect(await tableCounts(db.prisma)).toEqual(before);
  });
  it("refuses a mapping that names no Pool Patrol field, saying which fields there are", async () => {
    const before = await tableCounts(db.prisma);
    const mapping = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "poolpatrol-mapping-")), "mapping.json");
    fs.writeFileSync(mapping, JSON.stringify({ columns: { home_zipcode: "Home Postal Code" } }));
    const result = await runCli(["import", "employees", hrisFile(), "--mapping", mapping], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'mapping.json: field "columns": Unrecognized key: "home_zipcode" (Pool Patrol\'s employee fields: employee_id, first_name,',
    );
    expect(await tableCounts(db.prisma)).toEqual(before);
  });
});
