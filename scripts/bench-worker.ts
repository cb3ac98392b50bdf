// Child of scripts/bench-ack.ts: `poolpatrol worker` against DATABASE_URL until SIGTERM.
import { workerCommand } from "../src/cli/run-commands.js";

await workerCommand();
// A timer of the stopped engine keeps the event loop alive.
process.exit(0);
