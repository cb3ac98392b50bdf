// `poolpatrol`: the command line. Exit codes: 0 done, 1 failure or bad settings,
// 2 bad arguments or unknown id (nothing stored).
import path from "node:path";
import { type ParseArgsConfig, parseArgs } from "node:util";
import { runEvalCommand } from "../../evals/runner.js";
import type { AgentDeps } from "../agents/deps.js";
import { type CaseManagerResult, createCaseWorkflow } from "../cases/case-workflow.js";
import { PROJECT_ROOT, type Settings, SettingsError } from "../config/settings.js";
import { getApproval } from "../data/approval-repository.js";
import { findOpenCase } from "../data/case-repository.js";
import { FixtureError, readFixtureDir } from "../data/fixtures.js";
import { insertFixturesInBulk, seedFixtures } from "../data/seed.js";
import { generateSyntheticFixtures } from "../data/synthetic.js";
import { isId } from "../domain/ids.js";
import { AppError, invalidInput, notFound } from "../errors.js";
import { createInboundEmail } from "../integrations/email/inbound/inbound-email.js";
import { deliverLocally, localSigningSecret } from "../integrations/email/inbound/local-delivery.js";
import { localInboxDir, localMailbox } from "../integrations/email/inbound/mailbox.js";
import { processSeededReplies } from "../integrations/email/inbound/seeded-replies.js";
import { startBotJobs } from "../jobs/runtime.js";
import { startSweepEngine } from "../jobs/sweep-runtime.js";
import { startSandbox } from "../sandbox/sandbox.js";
import { createSlackApp } from "../slack/app.js";
import type { AuditSummary } from "../verification/audit-service.js";
import { auditAllVanpools, latestAudit } from "../verification/audit-service.js";
import {
  formatWorkflowResult,
  listApprovalsText,
  listCasesText,
  parseStatus,
  showCase,
  tickText,
} from "./case-commands.js";
import { type CliContext, loadSettings, openContext } from "./context.js";
import { formatAudit, formatSummary, progressBar } from "./format.js";
import { JOBS_USAGE, jobsCommand } from "./jobs-command.js";
import { quarantineCommand } from "./quarantine-command.js";
import { formatSweep, runSweepAndWait } from "./sweep-command.js";

export const USAGE = `Usage: poolpatrol <command>

  start                         the Slack bot when Slack is configured, else the local Slack sandbox
  sandbox                       the local Slack sandbox in the browser (http://localhost:3000)
  audit-report                  seed if empty, audit every vanpool, open cases, print a summary
  audit VP-101 [--json]         audit one vanpool (evidence), then open or advance its case
  audit --all [--json]          audit every active vanpool, with a summary table, and open cases
  cases [--status S]            list cases
  case show CASE-XXXXXXXX       status, timeline, evidence, emails and approvals of a case
  approvals                     decisions waiting for a person
  approve|reject APR-XXXXXXXX --as USER [--reason R]
  edit APR-XXXXXXXX --as USER --body TEXT
                                decide an approval request (reject/edit: escalation replies)
  reply THREAD-XXXXXXXX --from EMAIL --body TEXT
                                take in a rider's email reply (through the same path as real email)
  quarantine list | assign MSG-XXXXXXXX THREAD-XXXXXXXX | discard MSG-XXXXXXXX
                                inbound email that matched no thread or sender
  tick [--now ISO]              run due reply timeouts and carry out pending decisions
${JOBS_USAGE}
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
      case "audit":
        return await audit(rest);
      case "db":
        return await db(rest);
      case "eval":
        return await runEvalCommand(rest, { settings: loadSettings(), out: (t) => process.stdout.write(t) });
      case "start":
        return await start(rest);
      case "sandbox":
        parse(rest, {});
        return await runSandbox(loadSettings());
      case "audit-report":
        return await auditReport(rest);
      case "cases":
        return await casesCommand(rest);
      case "case":
        return await caseCommand(rest);
      case "approvals":
        return await approvalsCommand(rest);
      case "approve":
      case "reject":
      case "edit":
        return await decideCommand(command, rest);
      case "reply":
        return await replyCommand(rest);
      case "quarantine":
        return await quarantine(rest);
      case "tick":
        return await tickCommand(rest);
      case "jobs":
        return await withContext(
          loadSettings(),
          async (ctx) => {
            process.stdout.write(`${await jobsCommand(ctx, rest)}\n`);
            return 0;
          },
          { jobs: "worker" },
        );
      case undefined:
      case "help":
      case "--help":
      case "-h":
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
    log(`poolpatrol: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
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

/** Commands that change cases pass `jobs: "worker"`: the jobs they queue (emails, decisions) run before they exit. */
async function withContext<T>(
  settings: Settings,
  fn: (ctx: CliContext) => Promise<T>,
  options: { now?: () => Date; jobs?: "worker" } = {},
): Promise<T> {
  const ctx = await openContext(settings, log, options);
  try {
    const result = await fn(ctx);
    reportUnfinished(await ctx.settle());
    return result;
  } finally {
    await ctx.close();
  }
}

function reportUnfinished(jobs: Awaited<ReturnType<CliContext["settle"]>>): void {
  for (const job of jobs)
    log(
      `poolpatrol: ${job.name} job ${job.id} ${job.state === "retry" ? "failed and will be retried" : job.state}${job.error ? `: ${job.error}` : ""}. \`poolpatrol jobs\` shows it.`,
    );
}

async function audit(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, { all: { type: "boolean" }, json: { type: "boolean" } });
  const id = positionals[0];
  if (values.all ? positionals.length > 0 : positionals.length !== 1) {
    throw new UsageError(
      values.all ? "`audit --all` takes no vanpool id." : "Give one vanpool id (like VP-101) or --all.",
    );
  }
  if (id && !/^VP-\d+$/i.test(id)) throw new UsageError(`"${id}" is not a vanpool id; they look like VP-101.`);
  const settings = loadSettings();
  return withContext(
    settings,
    async (ctx) => {
      const { agentDeps } = ctx;
      if (values.all) {
        const totals = await runSweepAndWait(ctx, { log, onProgress: values.json ? undefined : progressBar() });
        process.stdout.write(values.json ? `${JSON.stringify(totals, null, 2)}\n` : formatSweep(totals));
        return 0;
      }
      // The Case Manager runs both specialists (and stores their results), then opens or advances the case.
      const caseResult = await createCaseWorkflow(agentDeps).auditVanpool(id!.toUpperCase());
      const audit = await latestAudit(agentDeps.prisma, caseResult.vanpool_id);
      process.stdout.write(
        values.json
          ? `${JSON.stringify({ ...audit, case: caseResult }, null, 2)}\n`
          : `${formatAudit(audit)}\n\nCase: ${formatWorkflowResult(caseResult)}\n`,
      );
      return 0;
    },
    { jobs: "worker" },
  );
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
      if (!Number.isInteger(count) || count < 1 || count > 100_000)
        throw invalidInput("--synthetic takes a whole number of vanpools between 1 and 100000.");
      return withContext(settings, async ({ db }) => {
        const started = Date.now();
        const fixtures = generateSyntheticFixtures(count);
        await insertFixturesInBulk(db.prisma, fixtures);
        log(
          `Seeded ${count} synthetic vanpools (${fixtures.employees.length} riders) in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
        );
        return 0;
      });
    }
    const dir = path.resolve(values.from ?? path.join(PROJECT_ROOT, "mock"));
    const fixtures = readFixtureDir(dir);
    return withContext(settings, async ({ db }) => {
      const counts = await seedFixtures(db.prisma, fixtures);
      log(
        `Seeded from ${dir}: ${Object.entries(counts)
          .map(([k, v]) => `${v} ${k}`)
          .join(", ")}.`,
      );
      return 0;
    });
  }
  throw new UsageError(sub ? `Unknown db command "${sub}".` : "db needs a command: migrate or seed.");
}

async function start(args: string[]): Promise<number> {
  parse(args, {});
  const settings = loadSettings();
  if (settings.slack) return runBot(settings);
  log(
    `Slack is not configured (missing ${settings.slackMissing.join(", ")}), so Pool Patrol runs in its local Slack sandbox. See "Slack" in the README to connect a workspace.`,
  );
  return runSandbox(settings);
}

/** One audit of every vanpool, opening cases, printed as a table (`poolpatrol audit-report`). */
async function auditReport(args: string[]): Promise<number> {
  parse(args, {});
  const settings = loadSettings();
  return withContext(
    settings,
    async ({ db, auditDeps, agentDeps }) => {
      log(
        `Pool Patrol on ${db.kind === "embedded" ? `the embedded PostgreSQL (${settings.dataDir})` : "the PostgreSQL at DATABASE_URL"}.`,
      );
      await seedIfEmpty({ db, agentDeps });
      const summary = await auditAllVanpools(auditDeps, { trigger: "startup_audit", onProgress: progressBar() });
      const cases = await openCasesFor(agentDeps, summary);
      process.stdout.write(
        `${formatSummary(summary)}\n${formatCases(cases)}\nDetails: npx poolpatrol audit VP-101 (any id above), npx poolpatrol case show CASE-…, npx poolpatrol approvals.\n`,
      );
      return 0;
    },
    { jobs: "worker" },
  );
}

/** After a bulk audit, the Case Manager opens (or advances) a case for every vanpool that needs one. */
async function openCasesFor(deps: AgentDeps, summary: AuditSummary): Promise<CaseManagerResult[]> {
  const workflow = createCaseWorkflow(deps);
  const results: CaseManagerResult[] = [];
  for (const item of summary.attention) {
    const open = await findOpenCase(deps.prisma, item.vanpool_id);
    if (!open) results.push(await workflow.auditVanpool(item.vanpool_id));
  }
  return results;
}

function formatCases(cases: CaseManagerResult[]): string {
  if (cases.length === 0) return "";
  return `\nCases opened:\n${cases.map((c) => `  ${c.case_id ?? "-"}  ${c.vanpool_id.padEnd(8)} ${c.status ?? c.outcome}`).join("\n")}\n`;
}

async function casesCommand(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, { status: { type: "string" } });
  if (positionals.length > 0) throw new UsageError(`Unexpected argument "${positionals[0]}".`);
  const status = parseStatus(values.status);
  return withContext(loadSettings(), async (ctx) => {
    process.stdout.write(`${await listCasesText(ctx, status)}\n`);
    return 0;
  });
}

async function caseCommand(args: string[]): Promise<number> {
  const { positionals } = parse(args, {});
  if (positionals[0] !== "show" || positionals.length !== 2)
    throw new UsageError("Use: poolpatrol case show CASE-XXXXXXXX");
  const caseId = positionals[1]!.toUpperCase();
  if (!isId("case", caseId))
    throw new UsageError(`"${positionals[1]}" is not a case id; they look like CASE-1A2B3C4D.`);
  return withContext(loadSettings(), async (ctx) => {
    process.stdout.write(`${await showCase(ctx, caseId)}\n`);
    return 0;
  });
}

async function approvalsCommand(args: string[]): Promise<number> {
  parse(args, {});
  return withContext(loadSettings(), async (ctx) => {
    process.stdout.write(`${await listApprovalsText(ctx)}\n`);
    return 0;
  });
}

async function decideCommand(command: "approve" | "reject" | "edit", args: string[]): Promise<number> {
  const { values, positionals } = parse(args, {
    as: { type: "string" },
    reason: { type: "string" },
    body: { type: "string" },
  });
  const approvalId = positionals[0]?.toUpperCase();
  if (!approvalId || positionals.length !== 1 || !isId("approval", approvalId))
    throw new UsageError(`${command} needs one approval id, like APR-1A2B3C4D.`);
  if (!values.as) throw new UsageError(`${command} needs --as USER: every decision records who made it.`);
  if (command === "edit" && !values.body)
    throw new UsageError("edit needs --body TEXT: the email as it should be sent.");
  return withContext(
    loadSettings(),
    async (ctx) => {
      const workflow = createCaseWorkflow(ctx.agentDeps);
      const decision = command === "approve" ? "approve" : command === "reject" ? "reject" : "edit";
      const result = await workflow.decide(approvalId, decision, values.as!, {
        body: values.body,
        reason: values.reason,
      });
      reportUnfinished(await ctx.settle());
      const approval = await getApproval(ctx.db.prisma, approvalId);
      const note = approval.result_note ?? result.note;
      process.stdout.write(`${approval.approval_id} ${approval.status} by ${approval.decided_by}: ${note}\n`);
      return 0;
    },
    { jobs: "worker" },
  );
}

async function replyCommand(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, {
    from: { type: "string" },
    body: { type: "string" },
    subject: { type: "string" },
  });
  const threadId = positionals[0]?.toUpperCase();
  if (!threadId || positionals.length !== 1) throw new UsageError("reply needs one thread id, like THREAD-1A2B3C4D.");
  if (!values.from || !values.body) throw new UsageError("reply needs --from EMAIL and --body TEXT.");
  return withContext(
    loadSettings(),
    async (ctx) => {
      // The same path as a reply through Resend: the local inbox, a signed email.received, the webhook handler.
      const secret = localSigningSecret(ctx.settings);
      const inbound = createInboundEmail(ctx.agentDeps, {
        workflow: createCaseWorkflow(ctx.agentDeps),
        mailbox: localMailbox(localInboxDir(ctx.settings)),
        secret: () => secret,
      });
      const reply = { threadId, from: values.from!, body: values.body!, subject: values.subject };
      const { rawBody, headers } = deliverLocally(ctx.settings, reply, secret);
      const { body: answer } = await inbound.handleWebhook({ rawBody, headers });
      if ("error" in answer) throw new Error(answer.error);
      const kept = `The message was kept in quarantine (${answer.message_id}) for a person to look at.`;
      if (answer.quarantined === "unknown thread") throw notFound(`No email thread ${threadId}. ${kept}`);
      if (answer.quarantined) throw invalidInput(`${values.from} was not written to on ${threadId}. ${kept}`);
      process.stdout.write(`${answer.message_id} recorded. ${answer.outcome}\n`);
      return 0;
    },
    { jobs: "worker" },
  );
}

async function quarantine(args: string[]): Promise<number> {
  return withContext(
    loadSettings(),
    async (ctx) => {
      const deps = { prisma: ctx.db.prisma, workflow: createCaseWorkflow(ctx.agentDeps), now: ctx.agentDeps.now };
      process.stdout.write(`${await quarantineCommand(deps, args)}\n`);
      return 0;
    },
    { jobs: "worker" },
  );
}

async function tickCommand(args: string[]): Promise<number> {
  const { values } = parse(args, { now: { type: "string" } });
  const now = values.now ? new Date(values.now) : new Date();
  if (Number.isNaN(now.getTime()))
    throw new UsageError(`--now "${values.now}" is not a date; use ISO 8601 like 2026-12-01T09:00:00Z.`);
  return withContext(
    loadSettings(),
    async (ctx) => {
      process.stdout.write(`${await tickText(createCaseWorkflow(ctx.agentDeps), now)}\n`);
      return 0;
    },
    { now: () => now, jobs: "worker" },
  );
}

/** The Slack bot and its job workers, in one process, until SIGINT/SIGTERM. */
async function runBot(settings: Settings): Promise<number> {
  const ctx = await openContext(settings, log, { jobs: "bot" });
  const slack = settings.slack!;
  await seedIfEmpty(ctx);
  const sweeps = await startSweepEngine({ databaseUrl: ctx.db.url, agent: ctx.agentDeps, settings, log });
  const bot = await createSlackApp({
    slack,
    deps: ctx.agentDeps,
    jobs: ctx.jobs,
    timeoutMs: settings.httpTimeoutMs,
    startSweep: sweeps.startSweep,
  });
  await sweeps.attach(bot, slack.auditChannel);
  await bot.app.start(slack.port);
  const clock = await startBotJobs(bot, ctx.jobs!, settings);
  log(
    `Pool Patrol is running in Slack (${bot.socketMode ? "Socket Mode" : `HTTP mode on port ${slack.port}, POST /slack/events`}), alerts in ${slack.auditChannel}; database ${ctx.db.kind}. Ctrl-C stops it.`,
  );
  await untilStopped();
  clock.stop();
  await sweeps.stop();
  await bot.app.stop();
  await bot.idle();
  await ctx.close();
  return 0;
}

/** The local Slack sandbox with the real bot, until SIGINT/SIGTERM. */
async function runSandbox(settings: Settings): Promise<number> {
  const ctx = await openContext(settings, log, { jobs: "bot" });
  await seedIfEmpty(ctx);
  const sandbox = await startSandbox(ctx, { port: settings.port });
  log(
    `Pool Patrol sandbox: open ${sandbox.url} (a local Slack workspace with the real bot; database ${ctx.db.kind}). Ctrl-C stops it.`,
  );
  await untilStopped();
  await sandbox.close();
  await ctx.close();
  return 0;
}

/** First start: the mock data, with the riders' replies taken in as email so cases stand where replies put them. */
async function seedIfEmpty(ctx: Pick<CliContext, "db" | "agentDeps">): Promise<void> {
  if ((await ctx.db.prisma.vanpool.count()) > 0) return;
  const fixtures = readFixtureDir(path.join(PROJECT_ROOT, "mock"));
  const counts = await seedFixtures(ctx.db.prisma, fixtures, { inbound: false });
  const replies = await processSeededReplies(ctx.agentDeps, createCaseWorkflow(ctx.agentDeps), fixtures);
  log(
    `Empty database: loaded the mock data (${counts.vanpools} vanpools, ${counts.employees} employees, ${replies.length} riders' replies taken in as email).`,
  );
}

function untilStopped(): Promise<void> {
  return new Promise((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
}
