// kill -9 during an import: the importing process dies while its transaction is writing. Nothing of
// it is left (no rows, no history, no import record), and running it again applies it once.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { stringify } from "csv-stringify/sync";
import { afterAll, beforeAll, expect, it } from "vitest";
import { seedFolder } from "../../src/cases/seed-folder.js";
import { PROJECT_ROOT } from "../../src/config/settings.js";
import { employeeKind } from "../../src/domain/employee-import.js";
import { runCli } from "../support/cli.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";
import { MOCK_DIR } from "../support/fixtures.js";
import { waitFor } from "../support/wait.js";

const ROWS = 20_000;
let db: TestDatabase;
let file: string;
/** History rows of imports, apart from those of the seed that loaded the mock program. */
const importedHistory = () => db.prisma.changeHistory.count({ where: { actor: { not: "seed" } } });

beforeAll(async () => {
  db = await createTestDatabase();
  await seedFolder(db, MOCK_DIR);
  // The stored employees plus ROWS new ones: a whole workforce, as an HR export lists it.
  const stored = await db.prisma.employee.findMany({ orderBy: { id: "asc" } });
  // The columns an employee export must have, in the import's own order.
  const header = [...employeeKind.required];
  const rows = [
    ...stored.map((e) => [
      e.id,
      e.firstName,
      e.lastName,
      e.email,
      e.workSite,
      e.homeAddress,
      e.homeCity,
      e.homeState,
      e.homeZip,
      e.timeType,
    ]),
    ...Array.from({ length: ROWS }, (_, i) => [
      `EMP-${900000 + i}`,
      "Sam",
      `Tester${i}`,
      `sam.tester${i}@northwind.example`,
      "San Jose HQ",
      `${i} Main St`,
      "San Jose",
      "CA",
      "95112",
      "full_time",
    ]),
  ];
  file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "poolpatrol-kill-")), "employees.csv");
  fs.writeFileSync(file, stringify([header, ...rows]));
}, 120_000);
afterAll(async () => {
  await db?.drop();
});

/** The backend holding the import's lock while it writes (its statement an INSERT), if any. */
const writingBackend = async () =>
  (
    await db.pool.query<{ pid: number }>(
      `SELECT a.pid FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
       WHERE l.locktype = 'advisory' AND l.granted AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
         AND l.objid = ((hashtext('poolpatrol import')::bigint) & 4294967295)::oid
         AND a.query ILIKE '%INSERT%'`,
    )
  ).rows[0]?.pid;

it("a kill -9 while the import writes leaves nothing; the import then applies once", async () => {
  const before = await db.prisma.employee.count();
  const child = spawn(
    process.execPath,
    [path.join(PROJECT_ROOT, "bin", "poolpatrol.js"), "import", "employees", file],
    {
      cwd: PROJECT_ROOT,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NO_COLOR: "1", DATABASE_URL: db.url },
      stdio: "ignore",
    },
  );
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on("exit", (_code, signal) => resolve(signal)));
  const pid = await waitFor("the import to be writing inside its transaction", writingBackend, {
    timeoutMs: 90_000,
    everyMs: 20,
  });
  child.kill("SIGKILL");
  expect(await exited).toBe("SIGKILL");
  // PostgreSQL rolls the transaction back once it sees its client gone.
  await waitFor(
    "the killed import's session to end",
    async () => {
      const left = await db.pool.query("SELECT 1 FROM pg_stat_activity WHERE pid = $1", [pid]);
      return left.rowCount === 0;
    },
    { timeoutMs: 60_000 },
  );

  expect(await db.prisma.employee.count()).toBe(before);
  expect(await importedHistory()).toBe(0);
  expect(await db.prisma.dataImport.count()).toBe(0);

  const again = await runCli(["import", "employees", file], { DATABASE_URL: db.url });
  expect(again.code, again.stderr).toBe(0);
  expect(again.stdout).toMatch(new RegExp(`added\\s+${ROWS}\\b`));
  expect(await db.prisma.employee.count()).toBe(before + ROWS);
  expect(await importedHistory()).toBe(ROWS);
  expect(await db.prisma.dataImport.count()).toBe(1);

  const third = await runCli(["import", "employees", file], { DATABASE_URL: db.url });
  expect(third.stdout).toMatch(/nothing changed/);
  expect(await importedHistory()).toBe(ROWS);
}, 300_000);
