// Runs the real `poolpatrol` command as a child process.
import { execFile } from "node:child_process";
import path from "node:path";
import { PROJECT_ROOT } from "../../src/config/settings.js";

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(PROJECT_ROOT, "bin", "poolpatrol.js"), ...args],
      {
        cwd: PROJECT_ROOT,
        env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NO_COLOR: "1", ...env },
        timeout: 60_000,
      },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr });
      },
    );
  });
}
