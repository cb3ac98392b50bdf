// `npm run bench:import`: `poolpatrol import` of a synthetic program from CSV: 100,000 employees
// (BENCH_IMPORT_EMPLOYEES) and 20,000 vanpools (BENCH_IMPORT_VANPOOLS) into an empty database, then a
// re-import of the employees with 1% of them changed (a new home address). Prints seconds and the
// process's peak resident memory per step, with the load average. Asserts nothing.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { stringify } from "csv-stringify/sync";
import { importFiles } from "../src/cases/import-records.js";
import { writeShifts } from "../src/data/seed.js";
import { generateSyntheticFixtures } from "../src/data/synthetic.js";
import { employeeKind } from "../src/domain/employee-import.js";
import type { ImportKind } from "../src/domain/record-import.js";
import { vanpoolKind } from "../src/domain/vanpool-import.js";
import { withBenchDatabase } from "./bench-database.js";

const EMPLOYEES = Number(process.env.BENCH_IMPORT_EMPLOYEES ?? 100_000);
const VANPOOLS = Number(process.env.BENCH_IMPORT_VANPOOLS ?? 20_000);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "poolpatrol-bench-import-"));
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

function csv<R, F extends string>(kind: ImportKind<R, F>, records: R[], name: string): string {
  const file = path.join(dir, name);
  const rows = records.map((r) => {
    const text = kind.text(r);
    return kind.fields.map((f) => text[f] ?? "");
  });
  fs.writeFileSync(file, stringify([kind.fields as readonly string[] as string[], ...rows]));
  return file;
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

await withBenchDatabase("import", async ({ clients }) => {
  const { prisma } = clients;
  await prisma.$transaction((tx) => writeShifts(tx, program.shifts, "skip"));
  const employeesCsv = csv(employeeKind, employees, "employees.csv");
  const vanpoolsCsv = csv(vanpoolKind, vanpools, "vanpools.csv");
  const changed = employees.map((e, i) => (i % 100 === 0 ? { ...e, home_address: `${i} Changed Way` } : e));
  const changedCsv = csv(employeeKind, changed, "employees-1pct.csv");
  console.log(
    `poolpatrol import from CSV (${employees.length} employees, ${vanpools.length} vanpools; ${os.cpus().length} cores)`,
  );
  console.log(`Load average before: ${load()}`);
  const step = async (label: string, kind: "employees" | "vanpools", file: string) => {
    peak = process.memoryUsage().rss;
    const started = performance.now();
    const result = await importFiles(prisma, { kind, files: [file], dryRun: false, actor: "bench" });
    const seconds = (performance.now() - started) / 1000;
    const size = fs.statSync(file).size;
    console.log(
      `${label.padEnd(34)} ${seconds.toFixed(2).padStart(6)} s  added ${result.added.length}, changed ${result.changed.length}, unchanged ${result.unchanged}  file ${mb(size)}, peak RSS ${mb(peak)}`,
    );
  };
  await step("employees, empty database", "employees", employeesCsv);
  await step("vanpools, empty database", "vanpools", vanpoolsCsv);
  await step("employees again, 1% changed", "employees", changedCsv);
  console.log(`Load average after: ${load()}`);
});
clearInterval(sampler);
fs.rmSync(dir, { recursive: true, force: true });
