// `npm run bench:cli`: start-up time of the compiled CLI's read-only commands, with the embedded
// PostgreSQL already up (as when the bot runs beside it) and the mock data loaded. Each command runs
// BENCH_CLI_RUNS times (10) as a fresh process; prints the median and range of wall-clock seconds.
// BENCH_CLI_NODE picks another Node binary for the commands (e.g. Node 24 from the npm `node` package).
// Asserts nothing.
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

const server = await startEmbeddedPostgres({ dataDir });
try {
  await poolpatrol(["db", "seed"]);
  const { stdout: cases } = await poolpatrol(["cases"]);
  const caseId = /CASE-[0-9A-F]+/.exec(cases)?.[0];
  const { stdout: version } = await run(NODE, ["-v"]);
  console.log(`poolpatrol start-up, embedded PostgreSQL up, mock data (Node ${version.trim()}, ${RUNS} runs each)`);
  console.log(`Load average before: ${loadAverage()}`);
  console.log(`${"command".padEnd(28)} median s   min s   max s`);
  const commands = [["--help"], ["cases"], ["approvals"], ["jobs"], ["quarantine", "list"]];
  if (caseId) commands.push(["case", "show", caseId]);
  for (const args of commands) {
    const seconds: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now();
      await poolpatrol(args);
      seconds.push((performance.now() - started) / 1000);
    }
    seconds.sort((a, b) => a - b);
    const median = (seconds[Math.floor((RUNS - 1) / 2)]! + seconds[Math.ceil((RUNS - 1) / 2)]!) / 2;
    console.log(
      `${args.join(" ").padEnd(28)} ${median.toFixed(2).padStart(8)} ${seconds[0]!.toFixed(2).padStart(7)} ${seconds.at(-1)!.toFixed(2).padStart(7)}`,
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
