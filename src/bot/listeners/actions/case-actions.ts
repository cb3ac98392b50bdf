// Buttons on a case alert: "View evidence" opens a modal at once and fills it with the
// evidence the case stands on (so do "Close as resolved" and "Email a rider": a refusal is
// shown in the modal);
// "Re-audit" re-runs the checks (approvers only when audits are restricted). A closed
// case is never changed: a re-audit of its vanpool opens a new case if one is needed.
// On a case that needs a person, approvers can also close it with a reason, or draft an
// email to a flagged rider that goes out only once approved on its card. What a modal
// asks for is a job queued before the ack (see action-jobs.ts).
import type { App, BlockAction, ButtonAction } from "@slack/bolt";
import { createPersonActions } from "../../../cases/person-actions.js";
import { findCaseCardData } from "../../../data/case-card-repository.js";
import { within } from "../../../data/pg-pool.js";
import { findCaseAlertLocation } from "../../../data/slack-location-repository.js";
import { isClosed } from "../../../domain/case-lifecycle.js";
import { AppError } from "../../../errors.js";
import { caseJobs } from "../../../queue/queues.js";
import { firstNames } from "../../../slack/blocks/card-facts.js";
import { CASE_ACTIONS } from "../../../slack/blocks/case-alert.js";
import { escapeMrkdwn, STATUS_LABEL, truncate } from "../../../slack/blocks/format.js";
import {
  CLOSE_RESOLVED_TITLE,
  closeResolvedModal,
  EMAIL_RIDER_TITLE,
  EVIDENCE_TITLE,
  emailRiderModal,
  evidenceModal,
  INPUTS,
  readExceptionChoice,
  reasonRefusal,
  VIEW_CALLBACKS,
} from "../../../slack/blocks/modals.js";
import type { CaseMessages } from "../../../slack/case-messages.js";
import { type ClickPlace, clickPlace, tellClicker } from "../../../slack/tell-clicker.js";
import { auditJobs } from "../../../workers/audit-jobs.js";
import type { SlackContext } from "../../slack-context.js";
import { ackDeadline, databaseTrouble, queueBeforeAck, troubleInModal, unlessMissing } from "../before-ack.js";
import { openModalAtOnce } from "../open-modal.js";
import { type CaseAction, queueSlackAction } from "../slack-actions.js";

type CaseActionDeps = { ctx: SlackContext; messages: CaseMessages; isApprover(userId: string): Promise<boolean> };

const NOT_APPROVER = "Only approvers can decide this. Nothing was changed.";

/** A case action on its alert (`close_resolved`) or in App Home, where each carries its case (`close_resolved:CASE-…`). */
const onAnySurface = (actionId: string) => new RegExp(`^${actionId}(?::.+)?$`);

export function registerCaseActions(app: App, deps: CaseActionDeps): void {
  const { ctx } = deps;
  const { prisma } = ctx.deps;
  const tell = (body: BlockAction, text: string) => tellClicker(ctx.client, clickPlace(body), text);
  const caseData = (caseId: string) => unlessMissing(findCaseCardData(prisma, caseId));

  app.action<BlockAction<ButtonAction>>(CASE_ACTIONS.viewEvidence, async ({ ack, body, action }) => {
    await ack();
    await openModalAtOnce(ctx, body.trigger_id, EVIDENCE_TITLE, async () => {
      const data = await caseData(action.value ?? "");
      return data
        ? evidenceModal(
            data.record,
            data.evidence,
            firstNames(data),
            `${ctx.slack.webUrl}/web/cases/${data.record.case_id}`,
            (await deps.isApprover(body.user.id)) ? "approver" : "member",
          )
        : "That case no longer exists.";
    });
  });

  /** What a Re-audit click answers, once its audit is queued (or why it is not). */
  async function reaudit(body: BlockAction, caseId: string, deadline: number): Promise<string> {
    if (ctx.slack.restrictAudits && !(await deps.isApprover(body.user.id)))
      return "Only approvers can re-audit. Nothing was changed.";
    const data = await within(deadline, caseData(caseId));
    if (!data) return "That case no longer exists.";
    const { record } = data;
    const closed = isClosed(record.status);
    const jobs = ctx.deps.jobs;
    if (!jobs) return "Audits are not available in this setup. Nothing was changed.";
    await auditJobs(jobs).audit(
      {
        vanpoolId: record.vanpool_id,
        userId: body.user.id,
        answer: { via: "click", place: clickPlace(body), caseId: record.case_id, closed },
      },
      deadline,
    );
    return closed
      ? `${record.case_id} is closed and stays as decided. Auditing ${record.vanpool_id} again; a new case opens if needed…`
      : `Re-auditing ${record.vanpool_id}…`;
  }

  // The audit is queued before the ack (or the ack says the database could not take it).
  app.action<BlockAction<ButtonAction>>(CASE_ACTIONS.reaudit, async ({ ack, body, action }) => {
    const deadline = ackDeadline();
    let answer: string;
    try {
      answer = await reaudit(body, action.value ?? "", deadline);
    } catch (error) {
      const trouble = databaseTrouble(error);
      if (!trouble) throw error;
      answer = trouble;
    }
    await ack();
    await tell(body, answer);
  });

  /**
   * The case behind a "needs a person" button, if the clicker is an approver and it still waits;
   * otherwise why not, shown in the modal that opened for it.
   */
  async function waitingCase(body: BlockAction, caseId: string) {
    if (!(await deps.isApprover(body.user.id))) return NOT_APPROVER;
    const data = await caseData(caseId);
    if (!data) return "That case no longer exists.";
    if (data.record.status !== "hitl_review")
      return `${data.record.case_id} is ${STATUS_LABEL[data.record.status] ?? data.record.status} now, no longer waiting for a person. Nothing was changed.`;
    return data;
  }

  app.action<BlockAction<ButtonAction>>(onAnySurface(CASE_ACTIONS.closeResolved), async ({ ack, body, action }) => {
    await ack();
    await openModalAtOnce(ctx, body.trigger_id, CLOSE_RESOLVED_TITLE, async () => {
      const data = await waitingCase(body, action.value ?? "");
      return typeof data === "string" ? data : closeResolvedModal(data.record, ctx.deps.settings.exceptionDays);
    });
  });

  app.action<BlockAction<ButtonAction>>(onAnySurface(CASE_ACTIONS.emailRider), async ({ ack, body, action }) => {
    await ack();
    await openModalAtOnce(ctx, body.trigger_id, EMAIL_RIDER_TITLE, async () => {
      const data = await waitingCase(body, action.value ?? "");
      if (typeof data === "string") return data;
      const names = firstNames(data);
      const riders = data.record.flagged.map((id) => ({ employee_id: id, first_name: names[id] ?? null }));
      return emailRiderModal(data.record, riders);
    });
  });

  app.view(VIEW_CALLBACKS.closeResolved, async ({ ack, body, view }) => {
    const reason = view.state.values[INPUTS.reason.block]?.[INPUTS.reason.action]?.value?.trim() ?? "";
    const refused = reasonRefusal(reason);
    if (refused) return ack({ response_action: "errors", errors: { [INPUTS.reason.block]: refused } });
    const exception = readExceptionChoice(view.state.values, reason, ctx.deps.settings.exceptionDays);
    if (typeof exception === "string")
      return ack({ response_action: "errors", errors: { [INPUTS.exceptionDays.block]: exception } });
    const key = `${body.view.id}:${body.view.hash}`;
    await queueBeforeAck(
      (deadline) =>
        queueSlackAction(
          ctx,
          key,
          { kind: "close-resolved", key, userId: body.user.id, caseId: view.private_metadata, reason, exception },
          deadline,
        ),
      { ack: () => ack(), trouble: troubleInModal(ack, INPUTS.reason.block) },
    );
  });

  app.view(VIEW_CALLBACKS.emailRider, async ({ ack, body, view }) => {
    const values = view.state.values;
    const employeeId = values[INPUTS.rider.block]?.[INPUTS.rider.action]?.selected_option?.value ?? "";
    const text = values[INPUTS.body.block]?.[INPUTS.body.action]?.value?.trim() ?? "";
    if (!employeeId)
      return ack({ response_action: "errors", errors: { [INPUTS.rider.block]: "Choose the rider to write to." } });
    if (text.length < 20)
      return ack({
        response_action: "errors",
        errors: { [INPUTS.body.block]: "Write the email as it should be sent (at least 20 characters)." },
      });
    const key = `${body.view.id}:${body.view.hash}`;
    const action: CaseAction = {
      kind: "email-draft",
      key,
      userId: body.user.id,
      caseId: view.private_metadata,
      employeeId,
      body: text,
    };
    await queueBeforeAck((deadline) => queueSlackAction(ctx, key, action, deadline), {
      ack: () => ack(),
      trouble: troubleInModal(ack, INPUTS.body.block),
    });
  });
}

/** The jobs behind the "needs a person" modals; a retry finds the case moved on and says nothing more. */
export function createCaseActionWork(deps: CaseActionDeps) {
  const { ctx } = deps;
  const person = createPersonActions(ctx.deps);
  const notes = ctx.deps.jobs ? caseJobs(ctx.deps.jobs) : undefined;

  async function asPerson(action: CaseAction, retried: boolean, work: () => Promise<string>) {
    const alert = await findCaseAlertLocation(ctx.deps.prisma, action.caseId);
    const place: ClickPlace = {
      user: { id: action.userId },
      channel: alert ? { id: alert.channel } : undefined,
      threadTs: alert?.ts,
    };
    if (!(await deps.isApprover(action.userId))) return tellClicker(ctx.client, place, NOT_APPROVER);
    try {
      const note = await work();
      await deps.messages.syncCase(action.caseId);
      const key = `${action.kind}:${action.key}`;
      if (notes) await notes.threadNote(action.caseId, key, note);
      else await deps.messages.postInThread(action.caseId, note, `${action.caseId}:${key}`);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      if (!retried) await tellClicker(ctx.client, place, truncate(error.message, 300));
    }
  }

  return {
    run(action: CaseAction, retried: boolean): Promise<void> {
      if (action.kind === "close-resolved")
        return asPerson(action, retried, async () => {
          await person.closeAsResolved(action.caseId, action.userId, action.reason, action.exception);
          return `✅ <@${action.userId}> closed ${action.caseId} as resolved: ${escapeMrkdwn(truncate(action.reason, 500))}`;
        });
      return asPerson(action, retried, async () => {
        await person.draftRiderEmail(action.caseId, action.userId, {
          employeeId: action.employeeId,
          body: action.body,
        });
        return `✉️ <@${action.userId}> drafted an email to ${action.employeeId}; it is sent once an approver approves the card in this thread.`;
      });
    },
  };
}
