// `poolpatrol`: runs one command and turns its outcome into an exit code: 0 done, 1 failure or
// bad settings, 2 bad arguments or unknown id (nothing stored).
import v8 from "node:v8";
import { type Command, CommanderError } from "commander";
import { log } from "../app/log.js";
import { cleanText } from "../domain/clean-text.js";
import { AppError } from "../errors.js";
import { UsageError } from "./command-kit.js";
import { botDatabaseProblem, databaseProblem } from "./database-problem.js";
import { createProgram } from "./program.js";

/** Commands that keep running; every other command does its work and exits. */
const LONG_RUNNING = new Set(["start", "sandbox", "worker"]);

export async function main(rawArgv: string[]): Promise<number> {
  const argv = rawArgv.map(cleanText);
  // Prisma compiles each query in WebAssembly; V8's optimising tier for it costs a short command
  // more than it saves (the first query ~0.4 s instead of ~0.1 s). A server keeps the default.
  if (!LONG_RUNNING.has(argv[0] ?? "")) v8.setFlagsFromString("--liftoff-only");
  const program = createProgram();
  let running: Command = program;
  program.hook("preAction", (_root, command) => {
    running = command;
  });
  if (argv.length === 0) {
    program.outputHelp();
    return 0;
  }
  try {
    await program.parseAsync(argv, { from: "user" });
    return 0;
  } catch (error) {
    // Loaded only now: `--help` and commands that succeed do not pay for them.
    const [{ SettingsError }, { FixtureError }, { BOT_DATABASE_ENV }, { isDatabaseUnreachable }] = await Promise.all([
      import("../config/settings.js"),
      import("../data/fixtures.js"),
      import("../app/worker-processes.js"),
      import("../data/pg-pool.js"),
    ]);
    if (error instanceof CommanderError) {
      // Commander has printed the help, or the parse error and the command's usage.
      return error.exitCode === 0 ? 0 : 2;
    }
    if (error instanceof UsageError || error instanceof AppError) {
      log(`poolpatrol: ${error.message}`);
      // A refused import lists its problems; the usage would only bury them.
      if (!(error instanceof FixtureError)) log(`\n${running.helpInformation()}`);
      return 2;
    }
    if (error instanceof SettingsError) {
      log(`poolpatrol: ${error.message}\nFix the variable(s) above (see .env.example) and try again.`);
      return 1;
    }
    // A bot's worker on the bot's embedded server: DATABASE_URL is how the bot passed it, not the person's setting.
    if (process.env[BOT_DATABASE_ENV] === "embedded" && isDatabaseUnreachable(error)) {
      log(`poolpatrol: ${botDatabaseProblem(process.env.DATABASE_URL)}`);
      return 1;
    }
    const problem = databaseProblem(error, process.env.DATABASE_URL?.trim());
    if (problem) {
      log(`poolpatrol: ${problem}`);
      return 1;
    }
    log(`poolpatrol: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return 1;
  }
}
