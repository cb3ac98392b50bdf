// Approval buttons and the modals behind Edit and Reject. Only approvers decide;
// anyone else gets a refusal (ephemeral in the card's thread, or in the modal that Edit,
// Reject and "Show full reply" open at once, before any lookup) and an audit event. A
// click on a decided card (a second click, a stale card, the slower of two approvers)
// changes nothing and says who decided first. A click on a card whose case changed
// since it was shown (a new reply, a new audit) is refused and the card refreshed.
// Cancellations are decided per rider (Remove / Keep). "Show full reply" opens what a
// rider wrote, unredacted, for approvers only. Every decision is a job queued before the
// ack (see action-jobs.ts): the checks and the decision run in it, so a click Slack saw
// taken is never lost to a crash.
import type { App, BlockAction, ButtonAction } from "@slack/bolt";
import type { ModalView } from "@slack/types";
import { undoCancellation } from "../../../cases/undo-cancellation.js";
import {
  AlreadyDecidedError,
  type ApprovalRecord,
  type Decision,
  findApproval,
  RiderDecisionRefused,
} from "../../../data/approval-repository.js";
import { recordEvent } from "../../../data/audit-log.js";
import { findCaseCardData, findRiderReply } from "../../../data/case-card-repository.js";
import { findCaseAlertLocation } from "../../../data/slack-location-repository.js";
import { EXCEPTION_REASONS, type ExceptionChoice } from "../../../domain/exceptions.js";
import type { RiderChoice } from "../../../domain/rider-decisions.js";
import { AppError } from "../../../errors.js";
import { caseJobs } from "../../../queue/queues.js";
import {
  APPROVAL_ACTIONS,
  approvalAction,
  parseButtonValue,
  RIDER_ACTIONS,
  riderAction,
  showFullReplyAction,
  UNDO_CANCELLATION,
} from "../../../slack/blocks/approval-card.js";
import { approvalCardFacts, evidenceVersion } from "../../../slack/blocks/card-facts.js";
import { decisionNote } from "../../../slack/blocks/decision-note.js";
import { riderName, slackDate, truncate } from "../../../slack/blocks/format.js";
import {
  EDIT_REPLY_TITLE,
  editReplyModal,
  FULL_REPLY_TITLE,
  fullReplyModal,
  INPUTS,
  KEEP_RIDER_TITLE,
  keepRiderModal,
  readExceptionChoice,
  reasonRefusal,
  rejectModal,
  rejectTitle,
  VIEW_CALLBACKS,
} from "../../../slack/blocks/modals.js";
import type { CaseMessages } from "../../../slack/case-messages.js";
import { type ClickPlace, clickPlace, tellClicker } from "../../../slack/tell-clicker.js";
import type { SlackContext } from "../../slack-context.js";
import { queueBeforeAck, troubleInModal } from "../before-ack.js";
import { openModalAtOnce } from "../open-modal.js";
import { type ApprovalAction, queueSlackAction } from "../slack-actions.js";

export interface ApprovalDeps {
  ctx: SlackContext;
  messages: CaseMessages;
  isApprover(userId: string): Promise<boolean>;
}

const NOT_APPROVER = "Only approvers can decide this. Nothing was changed.";
export const CASE_CHANGED =
  "This case changed since this card was shown (a new reply or a new audit): here is the current card, refreshed in place. Nothing was decided.";

/** "Already approved by @x on <date>": who decided first, in words. */
/** A rider decided before this click, in Slack's words: who decided names them as Slack shows a person. */
export function riderAlreadyDecided(employeeId: string, vote: { decision: RiderChoice; by: string | null }): string {
  const how = vote.decision === "keep" ? "kept" : "to be removed";
  return `${employeeId} was already decided (${how}${vote.by ? ` by <@${vote.by}>` : ""}). Nothing was changed.`;
}

export function alreadyDecided(approval: ApprovalRecord): string {
  if (approval.status === "expired")
    return `This request expired${approval.decided_at ? ` ${slackDate(approval.decided_at)}` : ""} without a decision. Nothing was changed.`;
  const by = approval.decided_by ? ` by <@${approval.decided_by}>` : "";
  return `Already ${approval.status}${by}${approval.decided_at ? ` ${slackDate(approval.decided_at)}` : ""}. Nothing was changed.`;
}

export function registerApprovalActions(app: App, deps: ApprovalDeps): void {
  const { ctx } = deps;
  const { prisma } = ctx.deps;
  /** Who clicked where: only what the job needs, not Slack's whole user object. */
  const placeOf = (body: BlockAction): ClickPlace => {
    const place = clickPlace(body);
    return { ...place, user: { id: place.user.id } };
  };
  /** A decision click is acked once its job is queued; when the database could not take it, the clicker is told. */
  const clicked = (ack: () => Promise<void>, body: BlockAction) => ({
    ack,
    trouble: async (words: string) => {
      await ack();
      await tellClicker(ctx.client, clickPlace(body), words);
    },
  });
  // The Edit and Reject buttons check before opening their modal; the submission is checked again in its job.
  const checks = createApprovalWork(deps);

  /**
   * Opens a decision's modal at once, filled in when the button's approval can still be decided and
   * the card shows the case as it is now; otherwise the modal says why.
   */
  function openForDecidable(
    triggerId: string,
    place: ClickPlace,
    buttonValue: string,
    title: string,
    fill: (approval: ApprovalRecord, shown: ReturnType<typeof parseButtonValue>) => Promise<ModalView | string>,
  ) {
    return openModalAtOnce(ctx, triggerId, title, async () => {
      let refusal = "";
      const say = async (text: string) => {
        refusal = text;
      };
      const shown = parseButtonValue(buttonValue);
      const approval = await checks.decidable(place, shown.approvalId, false, say);
      if (!approval || !(await checks.showsCurrentCase(place, approval, shown.version, say))) return refusal;
      return fill(approval, shown);
    });
  }

  for (const [actionId, decision] of [
    [APPROVAL_ACTIONS.approveReply, "approve"],
    [APPROVAL_ACTIONS.rejectCancellation, "reject-modal"],
    [APPROVAL_ACTIONS.rejectReply, "reject-modal"],
    [APPROVAL_ACTIONS.editReply, "edit-modal"],
  ] as const) {
    app.action<BlockAction<ButtonAction>>(approvalAction(actionId), async ({ ack, body, action }) => {
      if (decision === "approve")
        return queueBeforeAck(
          (deadline) =>
            queueSlackAction(
              ctx,
              body.trigger_id,
              { kind: "approve", place: placeOf(body), value: action.value ?? "" },
              deadline,
            ),
          clicked(ack, body),
        );
      await ack();
      const place = clickPlace(body);
      const title =
        decision === "edit-modal"
          ? EDIT_REPLY_TITLE
          : rejectTitle(actionId === APPROVAL_ACTIONS.rejectCancellation ? "cancellation" : "escalation_reply");
      await openForDecidable(body.trigger_id, place, action.value ?? "", title, async (approval) => {
        const value = action.value ?? approval.approval_id;
        return decision === "edit-modal"
          ? editReplyModal(approval, await riderLabel(approval), value)
          : rejectModal(approval, value, ctx.deps.settings.exceptionDays);
      });
    });
  }

  app.action<BlockAction<ButtonAction>>(riderAction(RIDER_ACTIONS.remove), async ({ ack, body, action }) => {
    await queueBeforeAck(
      (deadline) =>
        queueSlackAction(
          ctx,
          body.trigger_id,
          { kind: "rider", choice: "remove", place: placeOf(body), value: action.value ?? "" },
          deadline,
        ),
      clicked(ack, body),
    );
  });

  // Keeping a rider grants an exception, so it asks why, like every other keep path (keepModal).
  app.action<BlockAction<ButtonAction>>(riderAction(RIDER_ACTIONS.keep), async ({ ack, body, action }) => {
    await ack();
    const place = clickPlace(body);
    await openForDecidable(body.trigger_id, place, action.value ?? "", KEEP_RIDER_TITLE, async (approval, shown) => {
      if (!shown.employeeId) return "That button names no rider. Nothing was changed.";
      return keepRiderModal(
        await riderLabel(approval, shown.employeeId),
        action.value ?? "",
        ctx.deps.settings.exceptionDays,
      );
    });
  });

  app.action<BlockAction<ButtonAction>>(approvalAction(UNDO_CANCELLATION), async ({ ack, body, action }) => {
    await queueBeforeAck(
      (deadline) =>
        queueSlackAction(
          ctx,
          body.trigger_id,
          { kind: "undo", place: placeOf(body), approvalId: action.value ?? "" },
          deadline,
        ),
      clicked(ack, body),
    );
  });

  /** The rider a card names (`employeeId`, else its first): "EMP-1028 (Wendell)". */
  async function riderLabel(approval: ApprovalRecord, employeeId?: string): Promise<string> {
    const { riders } = approvalCardFacts(await findCaseCardData(prisma, approval.case_id), approval);
    const rider = employeeId ? riders.find((r) => r.employee_id === employeeId) : riders[0];
    return rider ? riderName(rider.employee_id, rider.first_name) : (employeeId ?? "the rider");
  }

  app.action<BlockAction<ButtonAction>>(showFullReplyAction, async ({ ack, body, action }) => {
    await ack();
    await openModalAtOnce(ctx, body.trigger_id, FULL_REPLY_TITLE, async () => {
      if (!(await deps.isApprover(body.user.id)))
        return "Only approvers can read a rider's full reply; the card shows it redacted.";
      const reply = await findRiderReply(prisma, action.value ?? "");
      if (!reply) return "That reply is no longer on file.";
      // Recorded before the reply is shown: nobody reads it unrecorded.
      await recordEvent(prisma, {
        actor: `slack:${body.user.id}`,
        action: "reply.read_in_full",
        subjectType: "case",
        subjectId: reply.case_id,
        details: { message_id: reply.message_id },
      });
      return fullReplyModal({
        rider: reply.employee_id ? riderName(reply.employee_id, reply.first_name) : "A rider",
        at: reply.at,
        body: reply.body,
        caseId: reply.case_id,
      });
    });
  });

  app.view(VIEW_CALLBACKS.editReply, async ({ ack, body, view }) => {
    const text = view.state.values[INPUTS.body.block]?.[INPUTS.body.action]?.value?.trim() ?? "";
    if (text.length < 20)
      return ack({
        response_action: "errors",
        errors: { [INPUTS.body.block]: "Write the email as it should be sent (at least 20 characters)." },
      });
    const edit: ApprovalAction = {
      kind: "modal-decision",
      userId: body.user.id,
      value: view.private_metadata,
      decision: "edit",
      body: text,
    };
    await queueBeforeAck((deadline) => queueSlackAction(ctx, `${body.view.id}:${body.view.hash}`, edit, deadline), {
      ack: () => ack(),
      trouble: troubleInModal(ack, INPUTS.body.block),
    });
  });

  // Keep everyone (a cancellation) and Keep … ask why the riders are kept; a rejected reply draft does not.
  for (const [callbackId, decision] of [
    [VIEW_CALLBACKS.rejectApproval, "reject"],
    [VIEW_CALLBACKS.keepRider, "keep"],
  ] as const)
    app.view(callbackId, async ({ ack, body, view }) => {
      const reason = view.state.values[INPUTS.reason.block]?.[INPUTS.reason.action]?.value?.trim() ?? "";
      const refused = reasonRefusal(reason);
      if (refused) return ack({ response_action: "errors", errors: { [INPUTS.reason.block]: refused } });
      const asksWhy = Boolean(view.state.values[INPUTS.exceptionReason.block]);
      const exception = asksWhy
        ? readExceptionChoice(view.state.values, reason, ctx.deps.settings.exceptionDays)
        : undefined;
      if (typeof exception === "string")
        return ack({ response_action: "errors", errors: { [INPUTS.exceptionDays.block]: exception } });
      const decided: ApprovalAction = {
        kind: "modal-decision",
        userId: body.user.id,
        value: view.private_metadata,
        decision,
        reason,
        exception,
      };
      await queueBeforeAck(
        (deadline) => queueSlackAction(ctx, `${body.view.id}:${body.view.hash}`, decided, deadline),
        { ack: () => ack(), trouble: troubleInModal(ack, INPUTS.reason.block) },
      );
    });
}

/**
 * The jobs behind the approval buttons and modals. `retried` is true when an earlier attempt may
 * have recorded the decision already: a refusal that only says this very person decided it is not
 * repeated to them, and the notes in the thread are keyed, so each is posted once.
 */
export function createApprovalWork(deps: ApprovalDeps) {
  const { ctx } = deps;
  const { prisma } = ctx.deps;
  const notes = ctx.deps.jobs ? caseJobs(ctx.deps.jobs) : undefined;
  const tell = (place: ClickPlace, text: string) => tellClicker(ctx.client, place, text);
  const note = async (caseId: string, key: string, text: string) =>
    notes ? notes.threadNote(caseId, key, text) : deps.messages.postInThread(caseId, text, `${caseId}:${key}`);

  /**
   * The request behind a button, if the clicker may decide it and it is still open; otherwise says why not
   * (to the clicker in the card's thread, unless `say` shows it elsewhere, in a modal).
   */
  async function decidable(
    place: ClickPlace,
    approvalId: string,
    retried: boolean,
    say: (text: string) => Promise<void> = (text) => tell(place, text),
  ) {
    const approval = await findApproval(prisma, approvalId);
    if (!(await deps.isApprover(place.user.id))) {
      if (approval)
        await recordEvent(prisma, {
          actor: `slack:${place.user.id}`,
          action: "approval.refused_not_approver",
          subjectType: "case",
          subjectId: approval.case_id,
          details: { approval_id: approvalId },
        });
      await say(NOT_APPROVER);
      return undefined;
    }
    if (!approval) {
      await say(`That request (${truncate(approvalId, 40)}) does not exist. Nothing was changed.`);
      return undefined;
    }
    if (approval.status !== "pending") {
      if (!(retried && approval.decided_by === place.user.id)) await say(alreadyDecided(approval));
      return undefined;
    }
    return approval;
  }

  /** True when the card clicked showed the case as it is now; otherwise refreshes the card and says so. */
  async function showsCurrentCase(
    place: ClickPlace,
    approval: ApprovalRecord,
    version: string | null,
    say: (text: string) => Promise<void> = (text) => tell(place, text),
  ) {
    if (!version) return true;
    const current = evidenceVersion(await findCaseCardData(prisma, approval.case_id), approval);
    if (current === version) return true;
    await recordEvent(prisma, {
      actor: `slack:${place.user.id}`,
      action: "approval.refused_case_changed",
      subjectType: "case",
      subjectId: approval.case_id,
      details: { approval_id: approval.approval_id, shown: version, current },
    });
    await deps.messages.syncCase(approval.case_id);
    await say(CASE_CHANGED);
    return false;
  }

  async function refused(place: ClickPlace, error: unknown, retried: boolean) {
    if (error instanceof AlreadyDecidedError) {
      if (!(retried && error.approval.decided_by === place.user.id)) await tell(place, alreadyDecided(error.approval));
    } else if (error instanceof RiderDecisionRefused && error.vote.kind === "already_decided") {
      if (!retried) await tell(place, riderAlreadyDecided(error.employeeId, error.vote));
    } else if (error instanceof AppError) {
      if (!retried) await tell(place, truncate(error.message, 300));
    } else throw error;
  }

  async function decide(
    place: ClickPlace,
    approvalId: string,
    decision: Decision,
    retried: boolean,
    extra: { body?: string; reason?: string; exception?: ExceptionChoice } = {},
  ) {
    try {
      const result = await ctx.workflow.decide(approvalId, decision, place.user.id, extra);
      if (result.queued) return; // its job updates the card and writes the outcome in the thread
      await deps.messages.syncCase(result.approval.case_id);
      await note(result.approval.case_id, `decision:${approvalId}`, decisionNote(result.approval, result.note));
    } catch (error) {
      await refused(place, error, retried);
    }
  }

  async function decideRider(
    place: ClickPlace,
    approval: ApprovalRecord,
    input: { employeeId: string; choice: RiderChoice; version: string; exception?: ExceptionChoice },
    retried: boolean,
  ) {
    try {
      const result = await ctx.workflow.decideRider({
        approvalId: approval.approval_id,
        employeeId: input.employeeId,
        choice: input.choice,
        actor: place.user.id,
        evidenceVersion: input.version,
        exception: input.exception,
      });
      await deps.messages.syncCase(approval.case_id);
      if (result.firstOfTwo)
        await tell(
          place,
          `Your approval to remove ${input.employeeId} is recorded (1 of 2). A different approver must confirm before anything is done.`,
        );
      else if (!result.complete)
        await note(
          approval.case_id,
          `rider:${approval.approval_id}:${input.employeeId}`,
          `<@${place.user.id}> decided to ${input.choice} ${input.employeeId}${input.exception ? ` (${EXCEPTION_REASONS[input.exception.reason].label})` : ""}. The cancellation is carried out once every rider is decided.`,
        );
      else if (!result.queued)
        await note(approval.case_id, `decision:${approval.approval_id}`, decisionNote(result.approval, result.note));
    } catch (error) {
      // A retry finds its own vote recorded: nothing to say.
      if (retried && error instanceof RiderDecisionRefused && error.vote.kind !== "first_of_two") return;
      await refused(place, error, retried);
    }
  }

  async function undo(place: ClickPlace, approvalId: string, retried: boolean) {
    const approval = await findApproval(prisma, approvalId);
    if (!approval) return void (await tell(place, "That cancellation is no longer on file. Nothing was changed."));
    if (!(await deps.isApprover(place.user.id))) return void (await tell(place, NOT_APPROVER));
    try {
      const undone = await undoCancellation(ctx.deps, { approvalId, actor: place.user.id });
      await deps.messages.syncCase(approval.case_id);
      // Only a retry of the click that undid it goes on to (re)queue its note; any other click is told.
      if (undone.already && !(retried && undone.undoneBy === place.user.id))
        return void (await tell(place, "This cancellation was already undone. Nothing was changed."));
      const notice = undone.withheld.length
        ? `their removal notice was withheld (${undone.withheld.join(", ")}) and a retraction email sent instead`
        : "a retraction email follows the removal notice they already received";
      await note(
        approval.case_id,
        `undo:${approvalId}`,
        `↩️ <@${undone.undoneBy}> undid the cancellation: ${undone.reinstated.join(", ")} reinstated; ${notice}. The case needs a person again: keep them with an exception (Close as resolved…), or propose their removal again later.`,
      );
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      await deps.messages.syncCase(approval.case_id);
      await tell(place, truncate(error.message, 300));
    }
  }

  async function decideFromModal(action: Extract<ApprovalAction, { kind: "modal-decision" }>, retried: boolean) {
    const shown = parseButtonValue(action.value);
    const approval = await findApproval(prisma, shown.approvalId);
    if (!approval) return;
    // Answers go in the case's thread, where the card is.
    const alert = await findCaseAlertLocation(prisma, approval.case_id);
    const place: ClickPlace = {
      user: { id: action.userId },
      channel: alert ? { id: alert.channel } : undefined,
      threadTs: alert?.ts,
    };
    // The approver check runs again at submit time: rights can change while a modal is open.
    if (!(await deps.isApprover(action.userId))) return tell(place, NOT_APPROVER);
    // The case may have changed while the modal was open: decide only on what the card showed.
    if (approval.status === "pending" && !(await showsCurrentCase(place, approval, shown.version))) return;
    if (action.decision === "keep") {
      if (!shown.employeeId) return;
      const keep = { employeeId: shown.employeeId, choice: "keep" as const, version: shown.version ?? "" };
      return decideRider(place, approval, { ...keep, exception: action.exception }, retried);
    }
    await decide(place, approval.approval_id, action.decision, retried, {
      body: action.body,
      reason: action.reason,
      exception: action.exception,
    });
  }

  return {
    decidable,
    showsCurrentCase,
    async run(action: ApprovalAction, retried: boolean): Promise<void> {
      if (action.kind === "undo") return undo(action.place, action.approvalId, retried);
      if (action.kind === "modal-decision") return decideFromModal(action, retried);
      const shown = parseButtonValue(action.value);
      const approval = await decidable(action.place, shown.approvalId, retried);
      if (!approval || !(await showsCurrentCase(action.place, approval, shown.version))) return;
      if (action.kind === "approve") return decide(action.place, approval.approval_id, "approve", retried);
      if (!shown.employeeId) return;
      await decideRider(
        action.place,
        approval,
        { employeeId: shown.employeeId, choice: action.choice, version: shown.version ?? "" },
        retried,
      );
    },
  };
}
