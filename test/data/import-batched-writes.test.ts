// An import writes its added records a batch at a time while it still reads the file. These tests
// pin that this changes nothing a user can see: a file refused after some batches were written, or a
// database that fails a batch, leaves nothing stored, and the next import runs on a clean slate.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { stringify } from "csv-stringify/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importFiles } from "../../src/cases/import-records.js";
import { FixtureError } from "../../src/data/fixtures.js";
import { createTestDatabase, type TestDatabase, tableCounts } from "../support/database.js";

const ROWS = 12_000; // more than two batches
const header = [
  "employee_id",
  "first_name",
  "last_name",
  "email",
  "work_site",
  "home_address",
  "home_city",
  "home_state",
  "home_zip",
  "time_type",
];
const employee = (i: number) => [
  `EMP-${100_000 + i}`,
  "Ana",
  "Lopez",
  `ana.${i}@example.com`,
  "San Jose HQ",
  `${i} Elm St`,
  "San Jose",
  "CA",
  "95112",
  "full_time",
];

let db: TestDatabase;
let dir: string;
const file = (name: string, rows: string[][]) => {
  const at = path.join(dir, name);
  fs.writeFileSync(at, stringify([header, ...rows]));
  return at;
};
const rows = Array.from({ length: ROWS }, (_, i) => employee(i));
const importing = (files: string[], rejectsFile?: string) =>
  importFiles(db, { kind: "employees", files, dryRun: false, actor: "test", ...(rejectsFile ? { rejectsFile } : {}) });

beforeAll(async () => {
  db = await createTestDatabase();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "poolpatrol-batched-"));
});
afterAll(async () => {
  await db.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("an import that adds more records than a batch", { shuffle: false }, () => {
  it("refused by its last row stores nothing, naming that row", async () => {
    const before = await tableCounts(db.prisma);
    const bad = [...rows, [...employee(ROWS).slice(0, 8), "9511", "full_time"]];
    const refused = await importing([file("bad-last.csv", bad)]).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(FixtureError);
    expect((refused as FixtureError).problems).toEqual([
      `bad-last.csv: line ${ROWS + 2}, column "home_zip": must be a 5-digit ZIP, got "9511"`,
    ]);
    expect(await tableCounts(db.prisma)).toEqual(before);
  });

  it("whose database fails a batch stores nothing, and the next import applies the file whole", async () => {
    const before = await tableCounts(db.prisma);
    // A fault in the database: the 7,001st employee (in the second batch) cannot be written.
    await db.pool.query(`
      CREATE FUNCTION refuse_one() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.id = 'EMP-107000' THEN RAISE EXCEPTION 'injected fault'; END IF; RETURN NEW; END $$;
      CREATE TRIGGER refuse_one BEFORE INSERT ON employees FOR EACH ROW EXECUTE FUNCTION refuse_one();`);
    const failed = await importing([file("good.csv", rows)]).catch((e: unknown) => e);
    expect((failed as Error).message).toContain("injected fault");
    expect(await tableCounts(db.prisma)).toEqual(before);

    await db.pool.query("DROP TRIGGER refuse_one ON employees; DROP FUNCTION refuse_one()");
    const result = await importing([file("good.csv", rows)]);
    expect(result.added).toHaveLength(ROWS);
    const stored = await db.pool.query<{ employees: number; added: number }>(
      `SELECT (SELECT count(*)::int FROM employees) AS employees,
              (SELECT count(*)::int FROM change_history WHERE entity = 'employee' AND field = '(record)') AS added`,
    );
    expect(stored.rows[0]).toEqual({ employees: ROWS, added: ROWS });
  });

  it("with --skip-invalid keeps the first of two rows with one id and writes the later one to the rejects", async () => {
    const late = [
      ...rows.map((r) => [...r]),
      employee(ROWS + 1),
      [...employee(ROWS + 1).slice(0, 5), "9 Other St", ...employee(0).slice(6)],
    ];
    const rejects = path.join(dir, "rejects.csv");
    const result = await importing([file("again.csv", late)], rejects);
    expect(result.added.length).toBe(1);
    expect(result.rejected.map((r) => r.row.at)).toEqual([`line ${ROWS + 3}`]);
    const stored = await db.pool.query<{ home_address: string }>("SELECT home_address FROM employees WHERE id = $1", [
      `EMP-${100_000 + ROWS + 1}`,
    ]);
    expect(stored.rows).toEqual([{ home_address: `${ROWS + 1} Elm St` }]);
    expect(fs.readFileSync(rejects, "utf8")).toContain(`duplicate id EMP-${100_000 + ROWS + 1}`);
  });
});
