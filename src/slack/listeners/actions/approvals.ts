// Approval buttons and the modals behind Edit and Reject. Only approvers decide;
// anyone else gets an ephemeral refusal and an audit event. A click on a decided
// card (a second click, a stale card, the slower of two approvers) changes nothing
// and says who decided first.
import type { App, BlockAction, ButtonAction } from "@slack/bolt";
import { AlreadyDecidedError, type Decision, findApproval } from "../../../data/approval-repository.js";
import { recordEvent } from "../../../data/audit-log.js";
import { AppError } from "../../../errors.js";
import { APPROVAL_ACTIONS, approvalAction } from "../../blocks/approval-card.js";
import { editReplyModal, INPUTS, rejectModal, VIEW_CALLBACKS } from "../../blocks/modals.js";
import type { CaseMessages } from "../../case-messages.js";
import type { SlackContext } from "../../slack-context.js";
import { tellClicker } from "../../tell-clicker.js";

export interface ApprovalDeps {
  ctx: SlackContext;
  messages: CaseMessages;
  isApprover(userId: string): Promise<boolean>;
}

export function registerApprovalActions(app: App, deps: ApprovalDeps): void {
  const { ctx } = deps;

  const tell = (body: BlockAction, text: string) => tellClicker(ctx.client, body, text);

  /** The request behind a button, if the clicker may decide it and it is still open; otherwise says why not. */
  async function decidable(body: BlockAction, approvalId: string) {
    if (!(await deps.isApprover(body.user.id))) {
      const approval = await findApproval(ctx.deps.prisma, approvalId);
      if (approval)
        await recordEvent(ctx.deps.prisma, {
          actor: `slack:${body.user.id}`,
          action: "approval.refused_not_approver",
          subjectType: "case",
          subjectId: approval.case_id,
          details: { approval_id: approvalId },
        });
      await tell(body, "Only approvers can decide this. Nothing was changed.");
      return undefined;
    }
    const approval = await findApproval(ctx.deps.prisma, approvalId);
    if (!approval) {
      await tell(body, `That request (${approvalId.slice(0, 40)}) does not exist. Nothing was changed.`);
      return undefined;
    }
    if (approval.status !== "pending") {
      await tell(body, new AlreadyDecidedError(approval).message.replace(/ by ([UW][A-Z0-9]+)/, " by <@$1>"));
      return undefined;
    }
    return approval;
  }

  async function decide(
    body: BlockAction,
    approvalId: string,
    decision: Decision,
    extra: { body?: string; reason?: string } = {},
  ) {
    try {
      const result = await ctx.workflow.decide(approvalId, decision, body.user.id, extra);
      if (result.queued) return; // its job updates the card and writes the outcome in the thread
      await deps.messages.syncCase(result.approval.case_id);
      await deps.messages.postInThread(
        result.approval.case_id,
        `${result.approval.status === "rejected" ? "❌" : "✅"} <@${body.user.id}> ${result.approval.status} ${result.approval.approval_id}: ${result.note}`,
      );
    } catch (error) {
      if (error instanceof AppError) await tell(body, error.message.replace(/ by ([UW][A-Z0-9]+)/, " by <@$1>"));
      else throw error;
    }
  }

  for (const [actionId, decision] of [
    [APPROVAL_ACTIONS.approveReply, "approve"],
    [APPROVAL_ACTIONS.approveCancellation, "approve"],
    [APPROVAL_ACTIONS.rejectCancellation, "reject-modal"],
    [APPROVAL_ACTIONS.rejectReply, "reject-modal"],
    [APPROVAL_ACTIONS.editReply, "edit-modal"],
  ] as const) {
    app.action<BlockAction<ButtonAction>>(approvalAction(actionId), async ({ ack, body, action }) => {
      await ack();
      const approval = await decidable(body, action.value ?? "");
      if (!approval) return;
      if (decision === "approve") {
        ctx.background(`approve ${approval.approval_id}`, () => decide(body, approval.approval_id, "approve"));
        return;
      }
      // Opened right after the ack, while the trigger id is fresh.
      await ctx.client.views.open({
        trigger_id: body.trigger_id,
        view: decision === "edit-modal" ? editReplyModal(approval) : rejectModal(approval),
      } as never);
    });
  }

  app.view(VIEW_CALLBACKS.editReply, async ({ ack, body, view }) => {
    const text = view.state.values[INPUTS.body.block]?.[INPUTS.body.action]?.value?.trim() ?? "";
    if (text.length < 20)
      return ack({
        response_action: "errors",
        errors: { [INPUTS.body.block]: "Write the email as it should be sent (at least 20 characters)." },
      });
    await ack();
    ctx.background(`edit ${view.private_metadata}`, () =>
      decideFromModal(body.user.id, view.private_metadata, "edit", { body: text }),
    );
  });

  app.view(VIEW_CALLBACKS.rejectApproval, async ({ ack, body, view }) => {
    const reason = view.state.values[INPUTS.reason.block]?.[INPUTS.reason.action]?.value?.trim() ?? "";
    if (reason.length < 5)
      return ack({
        response_action: "errors",
        errors: { [INPUTS.reason.block]: "Give a short reason; it is recorded with the decision." },
      });
    await ack();
    ctx.background(`reject ${view.private_metadata}`, () =>
      decideFromModal(body.user.id, view.private_metadata, "reject", { reason }),
    );
  });

  async function decideFromModal(
    userId: string,
    approvalId: string,
    decision: Decision,
    extra: { body?: string; reason?: string },
  ) {
    const approval = await findApproval(ctx.deps.prisma, approvalId);
    if (!approval) return;
    const where = await ctx.deps.prisma.approvalRequest.findUnique({
      where: { id: approvalId },
      select: { slackChannel: true, slackTs: true },
    });
    const asAction = {
      user: { id: userId },
      channel: where?.slackChannel ? { id: where.slackChannel } : undefined,
      message: undefined,
    } as unknown as BlockAction;
    // The approver check runs again at submit time: rights can change while a modal is open.
    if (!(await deps.isApprover(userId))) return tell(asAction, "Only approvers can decide this. Nothing was changed.");
    await decide(asAction, approvalId, decision, extra);
  }
}
