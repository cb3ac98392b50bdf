// `npm run bench:cli`: start-up time of the compiled CLI's read-only commands, with the embedded
// PostgreSQL already up (as when the bot runs beside it) and the mock data loaded. Each command runs
// BENCH_CLI_RUNS times (10) as a fresh process; prints the median and range of wall-clock seconds.
// BENCH_CLI_NODE picks another Node binary for the commands (e.g. Node 24 from the npm `node` package).
// With GNU time installed it also prints the median CPU seconds (user + system), which a busy machine
// inflates far less than wall-clock time. Asserts nothing.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { PROJECT_ROOT } from "../src/config/settings.js";
import { startEmbeddedPostgres } from "../src/data/embedded-postgres.js";

const run = promisify(execFile);
const RUNS = Number(process.env.BENCH_CLI_RUNS ?? 10);
const NODE = process.env.BENCH_CLI_NODE ?? process.execPath;
const CLI = path.join(PROJECT_ROOT, "bin", "poolpatrol.js");

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "poolpatrol-bench-cli-"));
fs.chmodSync(dataDir, 0o755);
const env = { PATH: process.env.PATH, HOME: process.env.HOME, POOLPATROL_DATA_DIR: dataDir };
const poolpatrol = (args: string[]) => run(NODE, [CLI, ...args], { cwd: PROJECT_ROOT, env });
const GNU_TIME = "/usr/bin/time";
const timed = fs.existsSync(GNU_TIME);

/** Wall-clock and (with GNU time) CPU seconds of one run. */
async function measure(args: string[]): Promise<{ wall: number; cpu: number }> {
  const started = performance.now();
  if (!timed) {
    await poolpatrol(args);
    return { wall: (performance.now() - started) / 1000, cpu: Number.NaN };
  }
  const { stderr } = await run(GNU_TIME, ["-f", "cpu %U %S", NODE, CLI, ...args], { cwd: PROJECT_ROOT, env });
  const wall = (performance.now() - started) / 1000;
  const [, user, system] = /cpu ([\d.]+) ([\d.]+)\s*$/.exec(stderr) ?? [];
  return { wall, cpu: Number(user) + Number(system) };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return (sorted[Math.floor((sorted.length - 1) / 2)]! + sorted[Math.ceil((sorted.length - 1) / 2)]!) / 2;
}

const server = await startEmbeddedPostgres({ dataDir });
try {
  await poolpatrol(["db", "seed"]);
  const { stdout: cases } = await poolpatrol(["cases"]);
  const caseId = /CASE-[0-9A-F]+/.exec(cases)?.[0];
  const { stdout: version } = await run(NODE, ["-v"]);
  console.log(`poolpatrol start-up, embedded PostgreSQL up, mock data (Node ${version.trim()}, ${RUNS} runs each)`);
  console.log(`Load average before: ${loadAverage()}`);
  console.log(`${"command".padEnd(28)} median s   min s   max s  median CPU s`);
  const commands = [["--help"], ["cases"], ["approvals"], ["jobs"], ["quarantine", "list"]];
  if (caseId) commands.push(["case", "show", caseId]);
  for (const args of commands) {
    const runs: { wall: number; cpu: number }[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await measure(args));
    const wall = runs.map((r) => r.wall);
    console.log(
      [
        args.join(" ").padEnd(28),
        median(wall).toFixed(2).padStart(8),
        Math.min(...wall)
          .toFixed(2)
          .padStart(7),
        Math.max(...wall)
          .toFixed(2)
          .padStart(7),
        timed
          ? median(runs.map((r) => r.cpu))
              .toFixed(2)
              .padStart(13)
          : "",
      ].join(" "),
    );
  }
  console.log(`Load average after: ${loadAverage()}`);
} finally {
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

function loadAverage(): string {
  return os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(", ");
}
