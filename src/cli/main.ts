// `poolpatrol`: the command line. Exit codes: 0 done, 1 failure or bad settings,
// 2 bad arguments or unknown id (nothing stored).
import path from "node:path";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { PROJECT_ROOT, SettingsError, type Settings } from "../config/settings.js";
import { FixtureError, readFixtureDir } from "../data/fixtures.js";
import { insertFixturesInBulk, seedFixtures } from "../data/seed.js";
import { generateSyntheticFixtures } from "../data/synthetic.js";
import { AppError, invalidInput } from "../errors.js";
import { auditAllVanpools, auditOneVanpool } from "../verification/audit-service.js";
import { runEvalCommand } from "../../evals/runner.js";
import { loadSettings, openContext, type CliContext } from "./context.js";
import { formatAudit, formatSummary, progressBar } from "./format.js";

export const USAGE = `Usage: poolpatrol <command>

  start                         migrate, seed the mock data if the database is empty, audit every vanpool
  audit VP-101 [--json]         audit one vanpool: verdict, each check's reasoning and evidence
  audit --all [--json]          audit every active vanpool, with a summary table
  db migrate                    apply database migrations
  db seed [--from DIR | --synthetic N]
                                load mock/ (or DIR, same JSON shapes), or N generated vanpools
  eval --dataset FILE [--json] [--langsmith]
                                score the engine on a JSONL dataset
  help                          show this text`;

const log = (line: string) => process.stderr.write(`${line}\n`);

class UsageError extends Error {}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case "audit": return await audit(rest);
      case "db": return await db(rest);
      case "eval": return await runEvalCommand(rest, { settings: loadSettings(), out: (t) => process.stdout.write(t) });
      case "start": return await start(rest);
      case undefined: case "help": case "--help": case "-h":
        process.stdout.write(`${USAGE}\n`);
        return 0;
      default:
        throw new UsageError(`Unknown command "${command}".`);
    }
  } catch (error) {
    if (error instanceof UsageError || error instanceof AppError) {
      log(`poolpatrol: ${error.message}`);
      if (!(error instanceof FixtureError)) log(`\n${USAGE}`);
      return 2;
    }
    if (error instanceof SettingsError) {
      log(`poolpatrol: ${error.message}\nFix the variable(s) above (see .env.example) and try again.`);
      return 1;
    }
    log(`poolpatrol: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
    return 1;
  }
}

function parse<O extends NonNullable<ParseArgsConfig["options"]>>(args: string[], options: O) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true } as const);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

async function withContext<T>(settings: Settings, fn: (ctx: CliContext) => Promise<T>): Promise<T> {
  const ctx = await openContext(settings, log);
  try {
    return await fn(ctx);
  } finally {
    await ctx.db.close();
  }
}

async function audit(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, { all: { type: "boolean" }, json: { type: "boolean" } });
  const id = positionals[0];
  if (values.all ? positionals.length > 0 : positionals.length !== 1) {
    throw new UsageError(values.all ? "`audit --all` takes no vanpool id." : "Give one vanpool id (like VP-101) or --all.");
  }
  if (id && !/^VP-\d+$/i.test(id)) throw new UsageError(`"${id}" is not a vanpool id; they look like VP-101.`);
  const settings = loadSettings();
  return withContext(settings, async ({ auditDeps }) => {
    if (values.all) {
      const summary = await auditAllVanpools(auditDeps, { trigger: "cli_audit_all", onProgress: values.json ? undefined : progressBar() });
      process.stdout.write(values.json ? `${JSON.stringify(summary, null, 2)}\n` : `${formatSummary(summary)}\n`);
      return 0;
    }
    const result = await auditOneVanpool(auditDeps, id!.toUpperCase(), { trigger: "cli_audit" });
    process.stdout.write(values.json ? `${JSON.stringify(result, null, 2)}\n` : `${formatAudit(result)}\n`);
    return 0;
  });
}

async function db(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  const settings = loadSettings();
  if (sub === "migrate") {
    parse(rest, {});
    return withContext(settings, async () => {
      // openContext has already applied anything pending.
      log("Database is up to date.");
      return 0;
    });
  }
  if (sub === "seed") {
    const { values, positionals } = parse(rest, { from: { type: "string" }, synthetic: { type: "string" } });
    if (positionals.length > 0) throw new UsageError(`Unexpected argument "${positionals[0]}".`);
    if (values.from && values.synthetic) throw new UsageError("Use --from or --synthetic, not both.");
    if (values.synthetic !== undefined) {
      const count = Number(values.synthetic);
      if (!Number.isInteger(count) || count < 1 || count > 100_000) throw invalidInput("--synthetic takes a whole number of vanpools between 1 and 100000.");
      return withContext(settings, async ({ db }) => {
        const started = Date.now();
        const fixtures = generateSyntheticFixtures(count);
        await insertFixturesInBulk(db.prisma, fixtures);
        log(`Seeded ${count} synthetic vanpools (${fixtures.employees.length} riders) in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
        return 0;
      });
    }
    const dir = path.resolve(values.from ?? path.join(PROJECT_ROOT, "mock"));
    const fixtures = readFixtureDir(dir);
    return withContext(settings, async ({ db }) => {
      const counts = await seedFixtures(db.prisma, fixtures);
      log(`Seeded from ${dir}: ${Object.entries(counts).map(([k, v]) => `${v} ${k}`).join(", ")}.`);
      return 0;
    });
  }
  throw new UsageError(sub ? `Unknown db command "${sub}".` : "db needs a command: migrate or seed.");
}

async function start(args: string[]): Promise<number> {
  parse(args, {});
  const settings = loadSettings();
  return withContext(settings, async ({ db, auditDeps }) => {
    log(`Pool Patrol on ${db.kind === "embedded" ? `the embedded PostgreSQL (${settings.dataDir})` : "the PostgreSQL at DATABASE_URL"}.`);
    if ((await db.prisma.vanpool.count()) === 0) {
      const counts = await seedFixtures(db.prisma, readFixtureDir(path.join(PROJECT_ROOT, "mock")));
      log(`Empty database: loaded the mock data (${counts.vanpools} vanpools, ${counts.employees} employees).`);
    }
    const summary = await auditAllVanpools(auditDeps, { trigger: "startup_audit", onProgress: progressBar() });
    process.stdout.write(`${formatSummary(summary)}\n\nDetails: npx poolpatrol audit VP-101 (any id above), or --json for the structured result.\n`);
    return 0;
  });
}
