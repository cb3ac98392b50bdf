// Smoke test of `npm start` (node bin/poolpatrol.js start) on whatever Node runs this script:
// starts it on a free port with a fresh embedded database, waits for the sandbox's page, stops
// it with SIGTERM and expects a clean exit. Plain JavaScript, so it needs no build or tsx.
// Used by .ci/run under Node 24: npx -y -p node@24 node scripts/smoke-start.mjs
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const started = Date.now();
const seconds = () => ((Date.now() - started) / 1000).toFixed(1);
const fail = (message) => {
  console.error(`smoke: ${message}`);
  process.exitCode = 1;
};

const port = await new Promise((resolve) => {
  const server = net.createServer().listen(0, "127.0.0.1", () => {
    const { port } = server.address();
    server.close(() => resolve(port));
  });
});
const dataDir = path.join(root, ".poolpatrol", `smoke-${process.pid}`);
const app = spawn(process.execPath, [path.join(root, "bin", "poolpatrol.js"), "start"], {
  cwd: root,
  env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(port), POOLPATROL_DATA_DIR: dataDir },
  stdio: ["ignore", "inherit", "inherit"],
});
const exited = new Promise((resolve) => app.on("exit", (code, signal) => resolve({ code, signal })));

let page = "";
for (let tries = 0; tries < 240 && !page && app.exitCode === null; tries++) {
  page = await fetch(`http://127.0.0.1:${port}/`)
    .then((response) => (response.ok ? response.text() : ""))
    .catch(() => new Promise((resolve) => setTimeout(() => resolve(""), 500)));
}
if (!page.includes("<html")) fail(`no page on port ${port} after ${seconds()} s`);
else console.log(`smoke: Node ${process.version}: the sandbox page answered on port ${port} after ${seconds()} s`);

app.kill("SIGTERM");
const timer = setTimeout(() => app.kill("SIGKILL"), 30_000);
const { code, signal } = await exited;
clearTimeout(timer);
if (code !== 0) fail(`npm start ended with ${signal ?? `code ${code}`} after SIGTERM`);
else console.log(`smoke: stopped cleanly after ${seconds()} s`);
fs.rmSync(dataDir, { recursive: true, force: true });
