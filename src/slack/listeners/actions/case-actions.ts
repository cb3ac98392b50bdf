// Buttons on a case alert: "View evidence" opens the full cited evidence; "Re-audit"
// re-runs the checks (approvers only when audits are restricted) and updates the alert.
import type { App, BlockAction, ButtonAction } from "@slack/bolt";
import { findCase } from "../../../data/case-repository.js";
import { findLatestResults } from "../../../data/verification-repository.js";
import { CASE_ACTIONS } from "../../blocks/case-alert.js";
import { evidenceModal } from "../../blocks/modals.js";
import type { CaseMessages } from "../../case-messages.js";
import type { SlackContext } from "../../slack-context.js";
import { tellClicker } from "../../tell-clicker.js";

export function registerCaseActions(
  app: App,
  deps: { ctx: SlackContext; messages: CaseMessages; isApprover(userId: string): Promise<boolean> },
): void {
  const { ctx } = deps;
  const tell = (body: BlockAction, text: string) => tellClicker(ctx.client, body, text);

  app.action<BlockAction<ButtonAction>>(CASE_ACTIONS.viewEvidence, async ({ ack, body, action }) => {
    await ack();
    const record = await findCase(ctx.deps.prisma, action.value ?? "");
    if (!record) return void (await tell(body, "That case no longer exists."));
    const results = await findLatestResults(ctx.deps.prisma, record.vanpool_id);
    await ctx.client.views.open({ trigger_id: body.trigger_id, view: evidenceModal(record, results) } as never);
  });

  app.action<BlockAction<ButtonAction>>(CASE_ACTIONS.reaudit, async ({ ack, body, action }) => {
    await ack();
    const record = await findCase(ctx.deps.prisma, action.value ?? "");
    if (!record) return void (await tell(body, "That case no longer exists."));
    if (ctx.slack.restrictAudits && !(await deps.isApprover(body.user.id)))
      return void (await tell(body, "Only approvers can re-audit. Nothing was changed."));
    await tell(body, `Re-auditing ${record.vanpool_id}…`);
    ctx.background(`re-audit ${record.vanpool_id}`, async () => {
      const result = await ctx.workflow.auditVanpool(record.vanpool_id);
      await deps.messages.syncCase(record.case_id);
      await deps.messages.postInThread(
        record.case_id,
        `🔁 <@${body.user.id}> re-audited ${record.vanpool_id}: ${result.reasoning}`,
      );
    });
  });
}
