// /poolpatrol: acks at once (Slack allows 3 seconds), then does the work in the
// background and answers through the response URL.
import type { App, RespondFn } from "@slack/bolt";
import { findCase, findOpenCase, listCases } from "../../../data/case-repository.js";
import { CASE_STATUSES, isCaseStatus } from "../../../domain/case-lifecycle.js";
import { isId } from "../../../domain/ids.js";
import { STATUS_LABEL } from "../../blocks/format.js";
import { COMMAND_USAGE } from "../../blocks/help.js";
import type { CaseMessages } from "../../case-messages.js";
import type { SlackContext } from "../../slack-context.js";

export const COMMAND = "/poolpatrol";

export interface CommandDeps {
  ctx: SlackContext;
  messages: CaseMessages;
  isApprover(userId: string): Promise<boolean>;
  postDigest(force: boolean): Promise<string>;
  permalink(channel: string, ts: string): Promise<string>;
  /** Starts (or joins) the audit of every vanpool; absent where no job engine runs. */
  startSweep?(userId: string): Promise<{ joined: boolean }>;
}

export function registerPoolpatrolCommand(app: App, deps: CommandDeps): void {
  const { ctx } = deps;
  app.command(COMMAND, async ({ command, ack, respond }) => {
    const [verb = "help", ...args] = command.text.trim().split(/\s+/).filter(Boolean);
    const refuse = (problem: string) => ack({ response_type: "ephemeral", text: `${problem}\n\n${COMMAND_USAGE}` });

    switch (verb.toLowerCase()) {
      case "audit": {
        if (args[0]?.toLowerCase() === "all") {
          if (args.length !== 1) return refuse("`audit all` takes nothing more.");
          if (!(await deps.isApprover(command.user_id)))
            return refuse("Only approvers can audit every vanpool. Ask one of them, or use `/poolpatrol status`.");
          const startSweep = deps.startSweep;
          if (!startSweep) return refuse("Audits of every vanpool are not available in this setup.");
          await ack({ response_type: "ephemeral", text: "Starting an audit of every vanpool…" });
          ctx.background("audit all", async () => {
            const { joined } = await startSweep(command.user_id);
            await respond({
              response_type: "ephemeral",
              text: joined
                ? "An audit of every vanpool is already under way; its summary will be posted in the audit channel."
                : "Auditing every vanpool. The summary will be posted in the audit channel, with new cases in its thread.",
            });
          });
          return;
        }
        const vanpoolId = args[0]?.toUpperCase();
        if (!vanpoolId || args.length !== 1 || !/^VP-\d+$/.test(vanpoolId))
          return refuse(`\`audit\` needs one vanpool id, like \`/poolpatrol audit VP-101\`.`);
        if (ctx.slack.restrictAudits && !(await deps.isApprover(command.user_id)))
          return refuse("Only approvers can start audits. Ask one of them, or use `/poolpatrol status`.");
        if (!(await ctx.deps.prisma.vanpool.findUnique({ where: { id: vanpoolId }, select: { id: true } })))
          return refuse(`There is no vanpool ${vanpoolId}.`);
        await ack({ response_type: "ephemeral", text: `Auditing ${vanpoolId}…` });
        ctx.background(`audit ${vanpoolId}`, () => auditAndReport(deps, vanpoolId, command.user_id, respond));
        return;
      }
      case "status": {
        const id = args[0]?.toUpperCase();
        if (!id || args.length !== 1 || !(/^VP-\d+$/.test(id) || isId("case", id)))
          return refuse("`status` needs a vanpool id (VP-101) or a case id (CASE-1A2B3C4D).");
        const record = id.startsWith("CASE-")
          ? await findCase(ctx.deps.prisma, id)
          : await findOpenCase(ctx.deps.prisma, id);
        if (!record) {
          if (id.startsWith("CASE-")) return refuse(`There is no case ${id}.`);
          if (!(await ctx.deps.prisma.vanpool.findUnique({ where: { id }, select: { id: true } })))
            return refuse(`There is no vanpool ${id}.`);
          return ack({ response_type: "ephemeral", text: `${id} has no open case.` });
        }
        const where = await ctx.deps.prisma.case.findUnique({
          where: { id: record.case_id },
          select: { slackChannel: true, slackTs: true },
        });
        const link =
          where?.slackChannel && where.slackTs
            ? ` · <${await deps.permalink(where.slackChannel, where.slackTs)}|case alert>`
            : "";
        return ack({
          response_type: "ephemeral",
          text: `*${record.case_id}* (${record.vanpool_id}): ${STATUS_LABEL[record.status]}. Failed: ${record.failed_checks.join(", ") || "none"}. Flagged: ${record.flagged.join(", ") || "none"}. Re-audits: ${record.re_audit_count}${link}`,
        });
      }
      case "cases": {
        const status = args[0];
        if (args.length > 1 || (status && !isCaseStatus(status)))
          return refuse(`\`cases\` takes an optional status: ${CASE_STATUSES.join(", ")}.`);
        const cases = (
          await listCases(ctx.deps.prisma, { status: status && isCaseStatus(status) ? status : undefined })
        ).filter((c) => status || !["resolved", "cancelled"].includes(c.status));
        const lines = cases
          .slice(0, 40)
          .map(
            (c) =>
              `• *${c.case_id}* ${c.vanpool_id} · ${STATUS_LABEL[c.status]} · ${c.reason.replace("_", " ")}${c.flagged.length ? ` · ${c.flagged.join(", ")}` : ""}`,
          );
        return ack({
          response_type: "ephemeral",
          text: lines.length
            ? `${status ? `Cases in ${status}` : "Open cases"} (${cases.length}):\n${lines.join("\n")}${cases.length > 40 ? "\n…" : ""}`
            : `No ${status ?? "open"} cases.`,
        });
      }
      case "digest":
        await ack({ response_type: "ephemeral", text: "Posting the digest…" });
        ctx.background("digest", async () =>
          respond({ response_type: "ephemeral", text: await deps.postDigest(true) }),
        );
        return;
      case "help":
        return ack({ response_type: "ephemeral", text: COMMAND_USAGE });
      default:
        return refuse(`I don't know \`${verb}\`.`);
    }
  });
}

async function auditAndReport(deps: CommandDeps, vanpoolId: string, userId: string, respond: RespondFn): Promise<void> {
  const result = await deps.ctx.workflow.auditVanpool(vanpoolId);
  if (!result.case_id) {
    await respond({ response_type: "ephemeral", text: `${vanpoolId} passes both checks; no case needed.` });
    return;
  }
  await deps.messages.syncCase(result.case_id);
  const where = await deps.ctx.deps.prisma.case.findUniqueOrThrow({
    where: { id: result.case_id },
    select: { slackChannel: true, slackTs: true },
  });
  const link = await deps.permalink(where.slackChannel!, where.slackTs!);
  await respond({
    response_type: "ephemeral",
    text: `${vanpoolId}: ${result.case_id} is ${STATUS_LABEL[result.status ?? ""] ?? result.status}. See the <${link}|case alert> in <#${where.slackChannel}>.`,
  });
  deps.ctx.log.info(`audit ${vanpoolId} by ${userId}: ${result.case_id} ${result.status}`);
}
