// Commands that move a case on through the workflow: `approve`/`reject`/`edit`, `reply` and `tick`.
// Each works the case jobs it queues before it exits, so no bot needs to be running.

import { loadSettings, withContext } from "../app/context.js";
import type { CaseManagerResult } from "../cases/case-manager-run.js";
import { type CaseWorkflow, createCaseWorkflow } from "../cases/case-workflow.js";
import { createInboundEmail } from "../cases/inbound-reply.js";
import { getApproval } from "../data/approval-repository.js";
import { findThread } from "../data/email-repository.js";
import { isExceptionReason } from "../domain/exceptions.js";
import { isId } from "../domain/ids.js";
import { invalidInput, notFound } from "../errors.js";
import { deliverLocally } from "../integrations/email/inbound/local-delivery.js";
import { localInboxDir, localMailbox } from "../integrations/email/inbound/mailbox.js";
import { wasWrittenTo } from "../integrations/email/inbound/thread-matcher.js";
import { webhookSecret } from "../integrations/email/inbound/webhook-secret.js";
import { out, UsageError } from "./command-kit.js";

export function formatWorkflowResult(r: Partial<CaseManagerResult>): string {
  const lines = [
    r.case_id
      ? `${r.case_id} (${r.vanpool_id}): ${r.status}${r.outcome ? `, outcome ${r.outcome}` : ""}`
      : `${r.vanpool_id}: no case, outcome ${r.outcome}`,
  ];
  if (r.reasoning) lines.push(`  ${r.reasoning}`);
  if (r.tools_used?.length) lines.push(`  tools: ${r.tools_used.join(", ")}`);
  if (r.approval_id)
    lines.push(`  waiting for a decision: ${r.approval_id} (poolpatrol approve|reject ${r.approval_id} --as YOU)`);
  return lines.join("\n");
}

export async function tickText(workflow: CaseWorkflow, now: Date): Promise<string> {
  const { applied, timeouts } = await workflow.tick(now);
  const lines = [
    ...applied.map((d) => `carried out ${d.approval.approval_id} (${d.approval.status}): ${d.note}`),
    ...timeouts.map((t) => `timeout ${formatWorkflowResult(t)}`),
  ];
  return lines.length ? lines.join("\n") : "Nothing due.";
}

export async function decideCommand(
  decision: "approve" | "reject" | "edit",
  value: string,
  options: { as: string; body?: string; reason?: string; keptBecause?: string; days?: string },
): Promise<void> {
  const approvalId = value.toUpperCase();
  if (!isId("approval", approvalId))
    throw new UsageError(`"${value}" is not an approval id; they look like APR-1A2B3C4D5E6F7A8B.`);
  const days = options.days === undefined ? undefined : Number(options.days);
  if (days !== undefined && !(Number.isInteger(days) && days >= 1))
    throw new UsageError(`--days must be a whole number of days, 1 or more; "${options.days}" is not.`);
  await withContext(
    loadSettings(),
    async (ctx) => {
      const result = await createCaseWorkflow(ctx.agentDeps).decide(approvalId, decision, options.as, {
        body: options.body,
        reason: options.reason,
        exception:
          options.keptBecause && isExceptionReason(options.keptBecause)
            ? { reason: options.keptBecause, note: options.reason ?? "", days }
            : undefined,
      });
      // The decision is carried out by its job: wait for it, then tell what it did.
      await ctx.settle();
      const approval = await getApproval(ctx.db.prisma, approvalId);
      out(
        `${approval.approval_id} ${approval.status} by ${approval.decided_by}: ${approval.result_note ?? result.note}\n`,
      );
    },
    { jobs: "worker" },
  );
}

export async function replyCommand(
  threadId: string,
  options: { from: string; body: string; subject?: string },
): Promise<void> {
  await withContext(
    loadSettings(),
    async (ctx) => {
      // The same path as a reply through Resend: the local inbox, a signed email.received, the webhook handler.
      const secret = webhookSecret(ctx.settings);
      const inbound = createInboundEmail(ctx.agentDeps, {
        workflow: createCaseWorkflow(ctx.agentDeps),
        mailbox: localMailbox(localInboxDir(ctx.settings)),
        secret: () => secret,
      });
      const reply = {
        threadId: threadId.toUpperCase(),
        from: options.from,
        body: options.body,
        subject: options.subject,
      };
      // An unknown thread or sender is a bad argument here (exit 2, nothing stored), not mail to quarantine.
      const thread = await findThread(ctx.db.prisma, reply.threadId);
      if (!thread) throw notFound(`No email thread ${reply.threadId}.`);
      if (!wasWrittenTo(thread, options.from))
        throw invalidInput(`${options.from} was not written to on ${reply.threadId}.`);
      const { rawBody, headers } = deliverLocally(ctx.settings, reply, secret);
      const { body: answer } = await inbound.handleWebhook({ rawBody, headers });
      if ("error" in answer) throw new Error(answer.error);
      out(`${answer.message_id} recorded. ${answer.outcome}\n`);
    },
    { jobs: "worker" },
  );
}

export async function tickCommand(options: { now?: string }): Promise<void> {
  const now = options.now ? new Date(options.now) : new Date();
  if (Number.isNaN(now.getTime()))
    throw new UsageError(`--now "${options.now}" is not a date; use ISO 8601 like 2026-12-01T09:00:00Z.`);
  await withContext(loadSettings(), async (ctx) => out(`${await tickText(createCaseWorkflow(ctx.agentDeps), now)}\n`), {
    now: () => now,
    jobs: "worker",
  });
}
