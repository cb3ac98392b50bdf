// Buttons on a case alert: "View evidence" opens the evidence the case stands on;
// "Re-audit" re-runs the checks (approvers only when audits are restricted). A closed
// case is never changed: a re-audit of its vanpool opens a new case if one is needed.
// On a case that needs a person, approvers can also close it with a reason, or draft an
// email to a flagged rider that goes out only once approved on its card.
import type { App, BlockAction, ButtonAction } from "@slack/bolt";
import { createPersonActions } from "../../../cases/person-actions.js";
import { findCaseCardData } from "../../../data/case-card-repository.js";
import { findCaseAlertLocation } from "../../../data/slack-location-repository.js";
import { isClosed } from "../../../domain/case-lifecycle.js";
import { AppError } from "../../../errors.js";
import { auditJobs } from "../../../jobs/audit-jobs.js";
import { firstNames } from "../../blocks/card-facts.js";
import { CASE_ACTIONS } from "../../blocks/case-alert.js";
import { escapeMrkdwn, STATUS_LABEL, truncate } from "../../blocks/format.js";
import { closeResolvedModal, emailRiderModal, evidenceModal, INPUTS, VIEW_CALLBACKS } from "../../blocks/modals.js";
import type { CaseMessages } from "../../case-messages.js";
import type { SlackContext } from "../../slack-context.js";
import { type ClickPlace, clickPlace, tellClicker } from "../../tell-clicker.js";

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

  const person = createPersonActions(ctx.deps);
  const NOT_APPROVER = "Only approvers can decide this. Nothing was changed.";

  /** The case behind a "needs a person" button, if the clicker is an approver and it still waits; else says why not. */
  async function waitingCase(body: BlockAction, caseId: string) {
    if (!(await deps.isApprover(body.user.id))) return void (await tell(body, NOT_APPROVER));
    const data = await caseData(caseId);
    if (!data) return void (await tell(body, "That case no longer exists."));
    if (data.record.status !== "hitl_review")
      return void (await tell(
        body,
        `${data.record.case_id} is ${STATUS_LABEL[data.record.status] ?? data.record.status} now, no longer waiting for a person. Nothing was changed.`,
      ));
    return data;
  }

  app.action<BlockAction<ButtonAction>>(CASE_ACTIONS.closeResolved, async ({ ack, body, action }) => {
    await ack();
    const data = await waitingCase(body, action.value ?? "");
    if (data) await ctx.client.views.open({ trigger_id: body.trigger_id, view: closeResolvedModal(data.record) });
  });

  app.action<BlockAction<ButtonAction>>(CASE_ACTIONS.emailRider, async ({ ack, body, action }) => {
    await ack();
    const data = await waitingCase(body, action.value ?? "");
    if (!data) return;
    const names = firstNames(data);
    const riders = data.record.flagged.map((id) => ({ employee_id: id, first_name: names[id] ?? null }));
    await ctx.client.views.open({ trigger_id: body.trigger_id, view: emailRiderModal(data.record, riders) });
  });

  /** Where answers to a modal go: the case's thread. */
  async function threadOf(userId: string, caseId: string): Promise<ClickPlace> {
    const alert = await findCaseAlertLocation(prisma, caseId);
    return { user: { id: userId }, channel: alert ? { id: alert.channel } : undefined, threadTs: alert?.ts };
  }

  async function asPerson(userId: string, caseId: string, work: () => Promise<string>) {
    const place = await threadOf(userId, caseId);
    if (!(await deps.isApprover(userId))) return tellClicker(ctx.client, place, NOT_APPROVER);
    try {
      const note = await work();
      await deps.messages.syncCase(caseId);
      await deps.messages.postInThread(caseId, note);
    } catch (error) {
      if (error instanceof AppError) await tellClicker(ctx.client, place, truncate(error.message, 300));
      else throw error;
    }
  }

  app.view(VIEW_CALLBACKS.closeResolved, async ({ ack, body, view }) => {
    const reason = view.state.values[INPUTS.reason.block]?.[INPUTS.reason.action]?.value?.trim() ?? "";
    if (reason.length < 5)
      return ack({
        response_action: "errors",
        errors: { [INPUTS.reason.block]: "Give a short reason; it is recorded with the case." },
      });
    await ack();
    const caseId = view.private_metadata;
    ctx.background(`close ${caseId}`, () =>
      asPerson(body.user.id, caseId, async () => {
        await person.closeAsResolved(caseId, body.user.id, reason);
        return `✅ <@${body.user.id}> closed ${caseId} as resolved: ${escapeMrkdwn(truncate(reason, 500))}`;
      }),
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
    await ack();
    const caseId = view.private_metadata;
    ctx.background(`email draft ${caseId}`, () =>
      asPerson(body.user.id, caseId, async () => {
        await person.draftRiderEmail(caseId, body.user.id, { employeeId, body: text });
        return `✉️ <@${body.user.id}> drafted an email to ${employeeId}; it is sent once an approver approves the card in this thread.`;
      }),
    );
  });
}
