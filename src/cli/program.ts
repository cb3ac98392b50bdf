// The `poolpatrol` commands, their arguments and help: the one source of the usage text (the
// README quotes `poolpatrol --help`). Building this program loads nothing heavy: each action
// imports its implementation when it runs, so `--help` and read-only commands start fast.
//
// To add a command: add a `.command(...)` block below whose action is
// `async (...) => (await import("./your-command.js")).yourCommand(...)`. Throw `UsageError` for bad
// arguments (exit 2, with the command's usage) or an `AppError`; write results with `out`.
import { Command, Option } from "commander";
import { EXCEPTION_REASON_KEYS } from "../domain/exceptions.js";

const EXAMPLES = `
Examples:
  poolpatrol audit VP-103 --json
  poolpatrol cases --status pending_reply
  poolpatrol case show CASE-1A2B3C4D5E6F7A8B
  poolpatrol reply THREAD-1A2B3C4D5E6F7A8B --from rider@example.com --body "I moved last month"
  poolpatrol approve APR-1A2B3C4D5E6F7A8B --as alice
  poolpatrol edit APR-1A2B3C4D5E6F7A8B --as alice --body "Hi Sam, ..."
  poolpatrol reject APR-1A2B3C4D5E6F7A8B --as alice --reason "moving closer next month" --kept-because moving_soon
  poolpatrol exceptions revoke EXC-1A2B3C4D5E6F7A8B --as alice
  poolpatrol tick --now 2026-12-01T09:00:00Z
  poolpatrol token create reporting --scope read
  poolpatrol db seed --synthetic 1000
  poolpatrol import employees workers.csv --mapping docs/examples/hris-mapping.json --dry-run
  poolpatrol history employee EMP-1083
  poolpatrol report --period "last month" --csv register.csv
  poolpatrol eval --dataset evals/datasets/shift.jsonl --json

Exit codes: 0 done, 1 failure or bad settings, 2 bad arguments or unknown id (nothing stored).
<command> --help shows a command's options.`;

/** The whole command line, without running anything. */
export function createProgram(): Command {
  const program = new Command("poolpatrol")
    .description("Pool Patrol: vanpool audits, cases, outreach and human approvals in Slack.")
    .configureHelp({ helpWidth: 100, sortSubcommands: false })
    .showHelpAfterError()
    .exitOverride()
    .addHelpText("after", EXAMPLES);
  // Subcommands inherit these settings: a parse error prints one line, then the command's usage.
  program.configureOutput({ outputError: (message, write) => write(`poolpatrol: ${sentence(message)}`) });

  program
    .command("start")
    .description("the Slack bot when Slack is configured, else the local Slack sandbox")
    .action(async () => (await import("../app/run.js")).startCommand());

  program
    .command("sandbox")
    .description("the local Slack sandbox in the browser, on http://localhost:PORT (3000)")
    .action(async () => (await import("../app/run.js")).sandboxCommand());

  program
    .command("worker")
    .description("audit sweep pages and send emails (a bot starts POOLPATROL_WORKER_PROCESSES of these)")
    .action(async () => (await import("../app/run.js")).workerCommand());

  program
    .command("audit-report")
    .description("seed if empty, audit every vanpool, open cases, print a summary")
    .action(async () => (await import("./audit-commands.js")).auditReportCommand());

  program
    .command("audit")
    .description("audit one vanpool (or --all) and open or advance its case")
    .argument("[vanpool]", "a vanpool id like VP-101")
    .option("--all", "audit every active vanpool, with a summary table, and open cases")
    .option("--json", "print the structured result")
    .action(async (vanpool: string | undefined, options: { all?: boolean; json?: boolean }) =>
      (await import("./audit-commands.js")).auditCommand(vanpool, options),
    );

  program
    .command("cases")
    .description("list cases")
    .option("--status <status>", "only cases in this status (pending_reply, hitl_review, pre_cancel, …)")
    .action(async (options: { status?: string }) => (await import("./case-commands.js")).casesCommand(options));

  program
    .command("case")
    .description("case show CASE-…: status, timeline, evidence, emails and approvals")
    .command("show")
    .description("status, timeline, evidence, emails and approvals of a case")
    .argument("<case>", "a case id like CASE-1A2B3C4D5E6F7A8B")
    .action(async (caseId: string) => (await import("./case-commands.js")).showCaseCommand(caseId));

  program
    .command("approvals")
    .description("decisions waiting for a person")
    .action(async () => (await import("./case-commands.js")).approvalsCommand());

  for (const decision of ["approve", "reject", "edit"] as const) {
    const command = program
      .command(decision)
      .description(
        decision === "edit"
          ? "send an escalation reply as you rewrote it"
          : `${decision} an approval request (an escalation reply or a cancellation)`,
      )
      .argument("<approval>", "an approval id like APR-1A2B3C4D5E6F7A8B")
      .addOption(new Option("--as <user>", "who decides (recorded with the decision)").makeOptionMandatory());
    if (decision === "edit")
      command.addOption(new Option("--body <text>", "the email as it should be sent").makeOptionMandatory());
    else command.option("--reason <text>", "why (kept with the decision)");
    if (decision === "reject")
      command
        .addOption(
          new Option(
            "--kept-because <reason>",
            "rejecting a cancellation keeps its riders with an exception: why (the --reason is its note)",
          ).choices(EXCEPTION_REASON_KEYS),
        )
        .option("--days <n>", "how long the exception holds (at most POOLPATROL_EXCEPTION_DAYS)");
    command.action(
      async (
        approvalId: string,
        options: { as: string; body?: string; reason?: string; keptBecause?: string; days?: string },
      ) => (await import("./decision-commands.js")).decideCommand(decision, approvalId, options),
    );
  }

  program
    .command("reply")
    .description("take in a rider's email reply")
    .argument("<thread>", "the email thread id, like THREAD-1A2B3C4D5E6F7A8B")
    .addOption(new Option("--from <email>", "the sender").makeOptionMandatory())
    .addOption(new Option("--body <text>", "the reply's text").makeOptionMandatory())
    .option("--subject <text>", "the reply's subject")
    .action(async (threadId: string, options: { from: string; body: string; subject?: string }) =>
      (await import("./decision-commands.js")).replyCommand(threadId, options),
    );

  program
    .command("tick")
    .description("run due reply timeouts and carry out pending decisions")
    .option("--now <iso>", "the time to act as, ISO 8601 (default: now)")
    .action(async (options: { now?: string }) => (await import("./decision-commands.js")).tickCommand(options));

  program
    .command("exceptions")
    .description("riders kept while they fail a check: list (with expiry), revoke EXC-… --as NAME")
    .argument("[action]", "list | revoke", "list")
    .argument("[exception]", "with revoke: the exception id, like EXC-1A2B3C4D5E6F7A8B")
    .option("--as <user>", "who revokes it (recorded)")
    .action(async (action: string, id: string | undefined, options: { as?: string }) =>
      (await import("./exceptions-command.js")).exceptionsCommand(action, id, options),
    );

  program
    .command("report")
    .description("the program's figures for a period, and its case register as a CSV file with --csv")
    .option(
      "--period <period>",
      "this week, last week, this month, last month, 30d, 2026-11, 2026-11-01..2026-11-27",
      "7d",
    )
    .option("--csv <file>", "write the period's case register (one row per case and rider) to this file")
    .action(async (options: { period?: string; csv?: string }) =>
      (await import("./report-command.js")).reportCommand(options),
    );

  program
    .command("quarantine")
    .description("inbound email that matched no thread or sender: list, assign MSG THREAD, discard MSG")
    .argument("<action>", "list | assign | discard")
    .argument("[message]", "the quarantined message id, like MSG-1A2B3C4D5E6F7A8B")
    .argument("[thread]", "with assign: the thread it belongs to, like THREAD-1A2B3C4D5E6F7A8B")
    .action(async (action: string, message?: string, thread?: string) =>
      (await import("./run-jobs-commands.js")).quarantine([action, message, thread]),
    );

  program
    .command("jobs")
    .description("queues, jobs counted by state and failed jobs with their error; `jobs retry ID` runs one again")
    .argument("[action]", "retry")
    .argument("[id]", "the failed job's id")
    .action(async (action?: string, id?: string) => (await import("./run-jobs-commands.js")).jobs([action, id]));

  const token = program
    .command("token")
    .description("REST API tokens: token create NAME --scope read|write [--scope pii], token list, token revoke NAME");
  token
    .command("create")
    .description("make a token and print it once (only its hash is kept)")
    .argument("<name>", "who or what uses it, recorded with every write it makes")
    .option(
      "--scope <scope>",
      "read or write (write includes read); add pii to see home addresses, emails and coordinates",
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .action(async (name: string, options: { scope?: string[] }) =>
      (await import("./token-commands.js")).tokenCreateCommand(name, options),
    );
  token
    .command("list")
    .description("every token with its scopes, and when it was made or revoked")
    .action(async () => (await import("./token-commands.js")).tokenListCommand());
  token
    .command("revoke")
    .description("refuse a token from now on")
    .argument("<name>", "the token's name")
    .action(async (name: string) => (await import("./token-commands.js")).tokenRevokeCommand(name));

  program
    .command("import")
    .description(
      "import employees|shifts|vanpools|riders FILE...: load an export (CSV or JSON), show or apply what it changes",
    )
    .argument("<kind>", "employees, shifts, vanpools or riders")
    .argument(
      "<files...>",
      "CSV files with a header row (UTF-8, with or without BOM) or JSON arrays; several are one import",
    )
    .option("--mapping <file>", "a JSON mapping of the source's columns and values (docs/import.md)")
    .option("--dry-run", "print what would change and change nothing")
    .option("--skip-invalid <rejects>", "apply the good rows and write the rejected ones, with reasons, to this CSV")
    .option("--as <name>", "who imports it, kept with every change (default: your user name)")
    .action(
      async (
        kind: string,
        files: string[],
        options: { mapping?: string; dryRun?: boolean; skipInvalid?: string; as?: string },
      ) => (await import("./import-command.js")).importCommand(kind, files, options),
    );

  program
    .command("history")
    .description("history employee|shift|vanpool|rider ID: every change an import made to it, oldest first")
    .argument("<entity>", "employee, shift, vanpool or rider")
    .argument("<id>", "its id, like EMP-1028, SHIFT_DAY, VP-111 or a participant id")
    .action(async (entity: string, id: string) => (await import("./import-command.js")).historyCommand(entity, id));

  const db = program.command("db").description("db migrate | db seed: the database");
  db.command("migrate")
    .description("apply database migrations (also done on every start)")
    .action(async () => (await import("./db-commands.js")).migrateCommand());
  db.command("seed")
    .description(
      "load mock/ (its story moved to end today), or DIR as written (same JSON shapes), or N generated vanpools",
    )
    .option("--from <dir>", "a folder with the same JSON files as mock/")
    .option("--as-written", "keep mock/'s dates as its files write them")
    .option("--synthetic <n>", "generate N realistic vanpools for load work")
    .action(async (options: { from?: string; synthetic?: string; asWritten?: boolean }) =>
      (await import("./db-commands.js")).seedCommand(options),
    );

  const evals = program
    .command("eval")
    .description("score the engine on a JSONL dataset; eval export-feedback writes auditors' corrections as one")
    .option("--dataset <file>", "a dataset such as evals/datasets/shift.jsonl (required)")
    .option("--json", "print { dataset, metrics, results }")
    .option("--langsmith", "also record a LangSmith experiment (needs LANGSMITH_API_KEY)")
    .action(async (options: { dataset?: string; json?: boolean; langsmith?: boolean }) =>
      (await import("./eval-command.js")).evalCommand(options),
    );
  evals
    .command("export-feedback")
    .description("auditors' corrections of answers (👎 in Slack) as a question dataset, to stdout or --out")
    .option("--out <file>", "write the JSONL here")
    .action(async (options: { out?: string }) =>
      (await import("./feedback-command.js")).exportFeedbackCommand(options),
    );

  return program;
}

/** Commander's "error: unknown option '--x'" as "Unknown option '--x'". */
function sentence(message: string): string {
  const text = message.replace(/^error: /, "");
  return text.charAt(0).toUpperCase() + text.slice(1);
}
