// Buttons on a case alert: "View evidence" opens the evidence the case stands on;
// "Re-audit" re-runs the checks (approvers only when audits are restricted). A closed
// case is never changed: a re-audit of its vanpool opens a new case if one is needed.
import type { App, BlockAction, ButtonAction } from "@slack/bolt";
import { findCaseCardData } from "../../../data/case-card-repository.js";
import { isClosed } from "../../../domain/case-lifecycle.js";
import { auditJobs } from "../../../jobs/audit-jobs.js";
import { firstNames } from "../../blocks/card-facts.js";
import { CASE_ACTIONS } from "../../blocks/case-alert.js";
import { evidenceModal } from "../../blocks/modals.js";
import type { CaseMessages } from "../../case-messages.js";
import type { SlackContext } from "../../slack-context.js";
import { clickPlace, tellClicker } from "../../tell-clicker.js";

export function registerCaseActions(
  app: App,
  deps: { ctx: SlackContext; messages: CaseMessages; isApprover(userId: string): Promise<boolean> },
): void {
  const { ctx } = deps;
  const { prisma } = ctx.deps;
  const tell = (body: BlockAction, text: string) => tellClicker(ctx.client, clickPlace(body), text);
  const caseData = (caseId: string) => findCaseCardData(prisma, caseId).catch(() => undefined);

  app.action<BlockAction<ButtonAction>>(CASE_ACTIONS.viewEvidence, async ({ ack, body, action }) => {
    await ack();
    const data = await caseData(action.value ?? "");
    if (!data) return void (await tell(body, "That case no longer exists."));
    await ctx.client.views.open({
      trigger_id: body.trigger_id,
      view: evidenceModal(data.record, data.evidence, firstNames(data)),
    });
  });

  app.action<BlockAction<ButtonAction>>(CASE_ACTIONS.reaudit, async ({ ack, body, action }) => {
    await ack();
    if (ctx.slack.restrictAudits && !(await deps.isApprover(body.user.id)))
      return void (await tell(body, "Only approvers can re-audit. Nothing was changed."));
    const data = await caseData(action.value ?? "");
    if (!data) return void (await tell(body, "That case no longer exists."));
    const { record } = data;
    const closed = isClosed(record.status);
    const jobs = ctx.deps.jobs;
    if (!jobs) return void (await tell(body, "Audits are not available in this setup. Nothing was changed."));
    await auditJobs(jobs).audit({
      vanpoolId: record.vanpool_id,
      userId: body.user.id,
      answer: { via: "click", place: clickPlace(body), caseId: record.case_id, closed },
    });
    await tell(
      body,
      closed
        ? `${record.case_id} is closed and stays as decided. Auditing ${record.vanpool_id} again; a new case opens if needed…`
        : `Re-auditing ${record.vanpool_id}…`,
    );
  });
}
