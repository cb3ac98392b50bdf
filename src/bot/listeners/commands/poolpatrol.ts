// /poolpatrol: acks at once (Slack allows 3 seconds). An audit is queued as a job before
// the ack, so an acknowledged audit is never lost; its job answers through the response
// URL; so is the digest asked for here. A database that is down or not answering is said
// so in the ack, in time (before-ack.ts). `status` and `cases` ack first and answer through
// the response URL: their queries and the alert's permalink (a Slack call) wait for no ack.
// What a person typed is echoed back at most 100 characters long.
import type { App } from "@slack/bolt";
import { keptRidersOf } from "../../../agents/case-manager/kept-riders.js";
import { findCase, findOpenCase, listCases } from "../../../data/case-repository.js";
import { DatabaseTimeout, within } from "../../../data/pg-pool.js";
import { findCaseAlertLocation } from "../../../data/slack-location-repository.js";
import { vanpoolExists } from "../../../data/vanpool-repository.js";
import { createSignInLink, SIGN_IN_LINK_MINUTES } from "../../../data/web-session-repository.js";
import { isClosed } from "../../../domain/case-lifecycle.js";
import { isId } from "../../../domain/ids.js";
import { parsePeriod, periodHelp } from "../../../domain/report-period.js";
import { plural } from "../../../domain/specialist-result.js";
import { keptLine } from "../../../slack/blocks/exceptions.js";
import { age, REASON_WORDS, type SlackMessage, STATUS_LABEL, truncate } from "../../../slack/blocks/format.js";
import { CASE_FILTER_WORDS, COMMAND_USAGE, parseCaseFilter } from "../../../slack/blocks/help.js";
import type { CaseMessages } from "../../../slack/case-messages.js";
import { auditJobs } from "../../../workers/audit-jobs.js";
import type { SlackContext } from "../../slack-context.js";
import { exceptionsAnswer } from "../actions/exception-actions.js";
import { afterAck } from "../after-ack.js";
import { ackDeadline, databaseTrouble } from "../before-ack.js";
import { queueSlackAction } from "../slack-actions.js";

export const COMMAND = "/poolpatrol";
const ECHO_LIMIT = 100;

export interface CommandDeps {
  ctx: SlackContext;
  messages: CaseMessages;
  isApprover(userId: string): Promise<boolean>;
  permalink(channel: string, ts: string): Promise<string>;
  /** Starts (or joins) the audit of every vanpool; absent where no job engine runs. */
  startSweep?(userId: string): Promise<{ joined: boolean }>;
}

/** What someone typed, quoted back safely: at most 100 characters, no formatting. */
const usage = (problem: string) => `${problem}\n\n${COMMAND_USAGE}`;

export const echo = (typed: string) => `\`${truncate(typed.replace(/[`<>&]/g, ""), ECHO_LIMIT)}\``;

export function registerPoolpatrolCommand(app: App, deps: CommandDeps): void {
  const { ctx } = deps;
  const { prisma } = ctx.deps;

  /** A link to the case alert, or nothing when Slack no longer has it. */
  async function alertLink(caseId: string, label: string): Promise<string> {
    const where = await findCaseAlertLocation(prisma, caseId);
    if (!where) return "";
    try {
      return ` · <${await deps.permalink(where.channel, where.ts)}|${label}>`;
    } catch (error) {
      ctx.log.warn(`no permalink for ${caseId}: ${(error as Error).message}`);
      return "";
    }
  }

  /** What `status` answers for a vanpool or case id already checked to be well formed. */
  async function statusAnswer(id: string): Promise<string> {
    const record = id.startsWith("CASE-") ? await findCase(prisma, id) : await findOpenCase(prisma, id);
    if (!record) {
      if (id.startsWith("CASE-")) return usage(`There is no case ${truncate(id, ECHO_LIMIT)}.`);
      if (!(await vanpoolExists(prisma, id))) return usage(`There is no vanpool ${truncate(id, ECHO_LIMIT)}.`);
      return `${id} has no open case.${await keptAnswer(id)}`;
    }
    const failed = record.failed_checks.length ? `${record.failed_checks.join(" and ")} failed` : "data missing";
    return `*${record.case_id}* (${record.vanpool_id}) is *${STATUS_LABEL[record.status]}*: ${failed}; ${plural(record.flagged.length, "rider")} flagged; ${record.re_audit_count === 0 ? "not re-audited yet" : `re-audited ${plural(record.re_audit_count, "time")}`}${await alertLink(record.case_id, "case alert")}${isClosed(record.status) ? "" : await keptAnswer(record.vanpool_id)}`;
  }

  /** Riders who fail but a person kept (docs/exceptions.md): "EMP-1028 … kept by @alex until May 26 (moving soon)". */
  async function keptAnswer(vanpoolId: string): Promise<string> {
    const kept = await keptRidersOf(prisma, vanpoolId, ctx.deps.now());
    return kept.length ? `\nFailing but kept: ${kept.map((k) => keptLine(k.exception)).join("; ")}.` : "";
  }

  /** What `cases` answers for a status filter already checked (none: every open case). */
  async function casesAnswer(status: ReturnType<typeof parseCaseFilter>): Promise<string> {
    const cases = (await listCases(prisma, { status })).filter((c) => status || !isClosed(c.status));
    const now = ctx.deps.now();
    const lines = cases
      .slice(0, 40)
      .map(
        (c) =>
          `• *${c.case_id}* ${c.vanpool_id} · ${STATUS_LABEL[c.status]} · ${REASON_WORDS[c.reason]} · opened ${age(c.created_at, now)} ago`,
      );
    const label = status ? STATUS_LABEL[status] : "Open";
    return lines.length
      ? `${status ? `Cases: ${label}` : "Open cases"} (${cases.length}):\n${lines.join("\n")}${cases.length > 40 ? "\n…" : ""}`
      : `No ${status ? `"${label}"` : "open"} cases.`;
  }

  app.command(COMMAND, async ({ command, ack: boltAck, respond }) => {
    let acked = false;
    const ack: typeof boltAck = (response) => {
      acked = true;
      return boltAck(response);
    };
    const [verb = "help", ...args] = command.text.trim().split(/\s+/).filter(Boolean);
    const refuse = (problem: string) => ack({ response_type: "ephemeral", text: usage(problem) });
    /** Acks now and answers through the response URL once `answer` is ready. */
    const answerLater = async (answer: () => Promise<string | SlackMessage>) => {
      await ack();
      await afterAck(async () => {
        try {
          const answered = await answer();
          await respond({
            response_type: "ephemeral",
            ...(typeof answered === "string" ? { text: answered } : answered),
          });
        } catch (error) {
          ctx.log.error(`/poolpatrol ${verb}: ${(error as Error).message}`);
          const text = databaseTrouble(error) ?? "Something went wrong looking that up; try again.";
          await respond({ response_type: "ephemeral", text });
        }
      });
    };

    // What runs before the ack has until the deadline; a database that fails or does not answer by
    // then is said so in the ack, and nothing it was asked to queue is queued later (before-ack.ts).
    const deadline = ackDeadline();
    try {
      return await handle();
    } catch (error) {
      const trouble = databaseTrouble(error);
      if (!trouble || acked) throw error;
      ctx.log.error(`/poolpatrol ${verb}: ${(error as Error).message}`);
      return ack({ response_type: "ephemeral", text: trouble });
    }

    async function handle() {
      switch (verb.toLowerCase()) {
        case "audit": {
          if (args[0]?.toLowerCase() === "all") {
            if (args.length !== 1) return refuse("`audit all` takes nothing more.");
            if (!(await deps.isApprover(command.user_id)))
              return refuse("Only approvers can audit every vanpool. Ask one of them, or use `/poolpatrol status`.");
            const startSweep = deps.startSweep;
            if (!startSweep) return refuse("Audits of every vanpool are not available in this setup.");
            // Starting a sweep only records it and queues its first job: quick enough to answer in the ack.
            const { joined } = await within(deadline, startSweep(command.user_id)).catch((error) => {
              // A sweep asked for may still start once the database answers: the ack says it may.
              throw error instanceof DatabaseTimeout ? new DatabaseTimeout(true) : error;
            });
            return ack({
              response_type: "ephemeral",
              text: joined
                ? "An audit of every vanpool is already under way; its summary will be posted in the audit channel."
                : "Auditing every vanpool. The summary will be posted in the audit channel, with new cases in its thread.",
            });
          }
          const vanpoolId = args[0]?.toUpperCase();
          if (!vanpoolId || args.length !== 1 || !/^VP-\d+$/.test(vanpoolId))
            return refuse(`\`audit\` needs one vanpool id, like \`/poolpatrol audit VP-101\`.`);
          if (ctx.slack.restrictAudits && !(await deps.isApprover(command.user_id)))
            return refuse("Only approvers can start audits. Ask one of them, or use `/poolpatrol status`.");
          if (!(await within(deadline, vanpoolExists(prisma, vanpoolId))))
            return refuse(`There is no vanpool ${truncate(vanpoolId, ECHO_LIMIT)}.`);
          const jobs = ctx.deps.jobs;
          if (!jobs) return refuse("Audits are not available in this setup (no job engine runs).");
          await auditJobs(jobs).audit(
            { vanpoolId, userId: command.user_id, answer: { via: "response_url", url: command.response_url } },
            deadline,
          );
          return ack({ response_type: "ephemeral", text: `Auditing ${vanpoolId}…` });
        }
        case "status": {
          const id = args[0]?.toUpperCase();
          if (!id || args.length !== 1 || !(/^VP-\d+$/.test(id) || isId("case", id)))
            return refuse("`status` needs a vanpool id (VP-101) or a case id (CASE-1A2B3C4D).");
          return answerLater(() => statusAnswer(id));
        }
        case "cases": {
          const words = args.join(" ");
          const status = words ? parseCaseFilter(words) : undefined;
          if (words && !status)
            return refuse(
              `I don't know the status ${echo(words)}. Try one of: ${Object.keys(CASE_FILTER_WORDS).join(", ")}.`,
            );
          return answerLater(() => casesAnswer(status));
        }
        case "digest":
          if (!(await deps.isApprover(command.user_id)))
            return refuse(
              "Only approvers can post the digest. It posts by itself on its schedule; App Home shows the same figures.",
            );
          await queueSlackAction(
            ctx,
            command.trigger_id,
            { kind: "digest", responseUrl: command.response_url, key: command.trigger_id },
            deadline,
          );
          return ack({ response_type: "ephemeral", text: "Posting the digest…" });
        case "report": {
          if (!(await deps.isApprover(command.user_id)))
            return refuse(
              "Only approvers can ask for a report: it posts the program's figures and the case register in the audit channel. The digest and App Home show the program's figures to everyone.",
            );
          const period = parsePeriod(args.join(" "), ctx.deps.now(), ctx.deps.settings.timeZone);
          if ("error" in period) return refuse(periodHelp(`${period.error} You wrote ${echo(args.join(" "))}.`));
          await queueSlackAction(
            ctx,
            command.trigger_id,
            {
              kind: "report",
              responseUrl: command.response_url,
              key: command.trigger_id,
              since: period.since.toISOString(),
              until: period.until.toISOString(),
              label: period.label,
            },
            deadline,
          );
          return ack({
            response_type: "ephemeral",
            text: `Preparing the report for ${period.label}; it will be posted in <#${ctx.slack.auditChannel}>.`,
          });
        }
        case "exceptions":
          if (args.length) return refuse("`exceptions` takes nothing more.");
          return answerLater(() => exceptionsAnswer(deps, command.user_id));
        case "web": {
          if (args.length) return refuse("`web` takes nothing more.");
          // The role is the person's now: an approver's pages show what only approvers see in Slack.
          const approver = await within(deadline, deps.isApprover(command.user_id));
          const secret = await within(
            deadline,
            createSignInLink(
              prisma,
              { userId: command.user_id, userName: command.user_name, role: approver ? "approver" : "member" },
              ctx.deps.now(),
            ),
          );
          return ack({
            response_type: "ephemeral",
            text: `<${ctx.slack.webUrl}/web/sign-in?token=${secret}|Sign in to Pool Patrol's web pages>: the link works once, within ${SIGN_IN_LINK_MINUTES} minutes, and only you can see it.`,
          });
        }
        case "help":
          return ack({ response_type: "ephemeral", text: COMMAND_USAGE });
        default:
          return refuse(`I don't know ${echo(verb)}.`);
      }
    }
  });
}
