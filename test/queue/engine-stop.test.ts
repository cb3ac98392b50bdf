// A process that starts and stops the job engine ends by itself: stop() leaves no timer or
// connection behind (the CLI used to need process.exit to end).
import { spawn } from "node:child_process";
import { afterAll, beforeAll, expect, it } from "vitest";
import { compiledChild } from "../support/compiled-child.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());

it("lets a process that started and stopped the job engine exit on its own", { timeout: 60_000 }, async () => {
  const child = spawn(process.execPath, [compiledChild("engine-stop-child")], {
    env: { ...process.env, ENGINE_DATABASE_URL: db.url },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const started = Date.now();
  const code = await new Promise<number | null>((resolve) => {
    const hang = setTimeout(() => child.kill("SIGKILL"), 20_000);
    child.on("exit", (exitCode) => {
      clearTimeout(hang);
      resolve(exitCode);
    });
  });
  expect(output).toMatch(/^stopped/);
  expect(code, output).toBe(0);
  // Stopped: the process ends within seconds, not after a 20 s kill.
  expect(Date.now() - started).toBeLessThan(15_000);
});
