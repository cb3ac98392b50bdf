// `npm run bench:import`: `poolpatrol import` of a synthetic program from CSV: 100,000 employees
// (BENCH_IMPORT_EMPLOYEES) and 20,000 vanpools (BENCH_IMPORT_VANPOOLS) into an empty database, their
// riders, then a re-import of the employees with 1% of them changed (half move to another ZIP, half only
// get another street address, which no check reads), with a case open on every tenth vanpool: re-checks
// are queued (in the job engine, which no worker reads here; counted afterwards) for just the vanpools of
// the riders who moved. Prints seconds, the process's peak resident memory per step and how much it grew
// during the step (run it at 25,000 and 50,000 employees to see it flat in the file's size), the
// process's CPU time and the load average. Asserts nothing.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { stringify } from "csv-stringify/sync";
import { importFiles } from "../src/cases/import-records.js";
import { prismaBulk, writeShifts } from "../src/data/seed.js";
import { generateSyntheticFixtures } from "../src/data/synthetic.js";
import { employeeKind } from "../src/domain/employee-import.js";
import type { ImportKind } from "../src/domain/record-import.js";
import { riderKind } from "../src/domain/rider-import.js";
import { vanpoolKind } from "../src/domain/vanpool-import.js";
import { startJobEngine } from "../src/queue/engine.js";
import { QUEUE_OPTIONS, QUEUES } from "../src/queue/queues.js";
import { withBenchDatabase } from "./bench-database.js";

const EMPLOYEES = Number(process.env.BENCH_IMPORT_EMPLOYEES ?? 100_000);
const VANPOOLS = Number(process.env.BENCH_IMPORT_VANPOOLS ?? 20_000);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "poolpatrol-bench-import-"));

function csv<R, F extends string>(kind: ImportKind<R, F>, records: R[], name: string): string {
  const file = path.join(dir, name);
  const rows = records.map((r) => {
    const text = kind.text(r);
    return kind.fields.map((f) => text[f] ?? "");
  });
  fs.writeFileSync(file, stringify([kind.fields as readonly string[] as string[], ...rows]));
  return file;
}

/**
 * The program's CSV files, written once; nothing else of the generated program stays in memory, so
 * the peak resident memory measured is the import's.
 */
function writeFiles() {
  const program = generateSyntheticFixtures(VANPOOLS);
  // The synthetic program has riders only; more employees (not riding) make up the workforce.
  const extra = Array.from({ length: Math.max(0, EMPLOYEES - program.employees.length) }, (_, i) => {
    const base = program.employees[i % program.employees.length]!;
    const id = `EMP-${9_000_000 + i}`;
    return { ...base, employee_id: id, email: `${id.toLowerCase()}@bench.example` };
  });
  const employees = [...program.employees, ...extra].slice(0, EMPLOYEES);
  const kept = new Set(employees.map((e) => e.employee_id));
  // A coordinator left out of the employees would be refused (no such employee).
  const vanpools = program.vanpools.map((v) =>
    v.coordinator_id && !kept.has(v.coordinator_id) ? { ...v, coordinator_id: null } : v,
  );
  const employeesCsv = csv(employeeKind, employees, "employees.csv");
  const vanpoolsCsv = csv(vanpoolKind, vanpools, "vanpools.csv");
  const riders = program.vanpools.flatMap((v) =>
    v.riders
      .filter((r) => kept.has(r.employee_id))
      .map((r) => ({
        participant_id: r.participant_id,
        vanpool_id: v.vanpool_id,
        employee_id: r.employee_id,
        status: "active" as const,
      })),
  );
  const ridersCsv = csv(riderKind, riders, "riders.csv");
  // Every 100th employee changes: every 200th moves (a ZIP a check reads), the others only change street.
  const moved = (i: number) => i % 200 === 0;
  const changed = employees.map((e, i) =>
    i % 100 !== 0
      ? e
      : moved(i)
        ? { ...e, home_address: `${i} Changed Way`, home_zip: e.home_zip === "95814" ? "95815" : "95814" }
        : { ...e, home_address: `${i} Changed Way` },
  );
  const changedCsv = csv(employeeKind, changed, "employees-1pct.csv");
  // Re-checks are due on the vanpools of the riders who moved, case or not.
  const withCase = new Set(vanpools.filter((_, i) => i % 10 === 0).map((v) => v.vanpool_id));
  const movedIds = new Set(employees.filter((_, i) => moved(i)).map((e) => e.employee_id));
  const due = new Set(riders.filter((r) => movedIds.has(r.employee_id)).map((r) => r.vanpool_id));
  return {
    shifts: program.shifts,
    employees: employees.length,
    vanpools: vanpools.length,
    files: { employeesCsv, vanpoolsCsv, ridersCsv, changedCsv },
    withCase,
    due,
  };
}

let peak = 0;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 20);
const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;
const load = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(" ");

await withBenchDatabase("import", async ({ clients, url, serverCpu }) => {
  const { prisma } = clients;
  const { shifts, files, withCase, due, ...counts } = writeFiles();
  const { employeesCsv, vanpoolsCsv, ridersCsv, changedCsv } = files;
  await prisma.$transaction((tx) => writeShifts(prismaBulk(tx), shifts, "skip"));
  // With --expose-gc: each step starts from what is live, not from the generated program's garbage.
  const collect = (globalThis as { gc?: () => void }).gc ?? (() => {});
  const jobs = await startJobEngine({ databaseUrl: url, log: () => {}, supervise: false, queues: QUEUE_OPTIONS });
  const queued = async () =>
    (
      await clients.pool.query<{ vanpool_id: string }>(
        "SELECT data->>'vanpoolId' AS vanpool_id FROM pgboss.job WHERE name = $1",
        [QUEUES.auditVanpool],
      )
    ).rows.map((r) => r.vanpool_id);
  console.log(
    `poolpatrol import from CSV (${counts.employees} employees, ${counts.vanpools} vanpools; ${os.cpus().length} cores)`,
  );
  console.log(`Load average before: ${load()}`);
  const step = async (label: string, kind: "employees" | "vanpools" | "riders", file: string) => {
    collect();
    const start = process.memoryUsage().rss;
    peak = start;
    const cpu = process.cpuUsage();
    const dbCpu = serverCpu();
    const started = performance.now();
    const result = await importFiles(clients, { kind, files: [file], dryRun: false, actor: "bench", jobs });
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    const dbUsed = serverCpu() - dbCpu;
    const size = fs.statSync(file).size;
    console.log(
      `${label.padEnd(30)} ${seconds.toFixed(2).padStart(6)} s (CPU: import ${((used.user + used.system) / 1e6).toFixed(1)} s, database ${dbUsed.toFixed(1)} s)  added ${result.added.length}, changed ${result.changed.length}, unchanged ${result.unchanged}  file ${mb(size)}, peak RSS ${mb(peak)} (+${mb(peak - start)})`,
    );
  };
  await step("employees, empty database", "employees", employeesCsv);
  await step("vanpools, empty database", "vanpools", vanpoolsCsv);
  await step("riders, empty database", "riders", ridersCsv);
  // A case open on every tenth vanpool, written directly (no audit ran).
  await clients.pool.query(
    `INSERT INTO cases (id, vanpool_id, status, reason, failed_checks, updated_at)
     SELECT 'CASE-BENCH' || v, v, 'pending_reply', 'location_mismatch', '{location}', now() FROM unnest($1::text[]) AS v`,
    [[...withCase]],
  );
  await clients.pool.query("DELETE FROM pgboss.job WHERE name = $1", [QUEUES.auditVanpool]);
  await step("employees again, 1% changed", "employees", changedCsv);
  const rechecks = await queued();
  const exact = rechecks.length === due.size && rechecks.every((v) => due.has(v));
  console.log(
    `Re-checks queued: ${rechecks.length} (${exact ? "exactly" : "NOT"} the ${due.size} vanpools of a rider who moved)`,
  );
  await jobs.stop();
  console.log(`Load average after: ${load()}`);
});
clearInterval(sampler);
fs.rmSync(dir, { recursive: true, force: true });
