// `/poolpatrol exceptions` lists the riders kept while they fail a check (docs/exceptions.md), privately; the
// Revoke button beside each (approvers only, behind a confirm) ends one so the next audit checks that rider
// normally. A non-approver's click or a value that names no live exception is refused, logged and changes
// nothing. The revoke is one update, done before the ack; the list is then shown again as it is now.
import type { App, BlockAction, ButtonAction, RespondFn } from "@slack/bolt";
import { createExceptions } from "../../../cases/exceptions.js";
import { recordEvent } from "../../../data/audit-log.js";
import { within } from "../../../data/pg-pool.js";
import { isId } from "../../../domain/ids.js";
import { exceptionsList, keptLine, REVOKE_EXCEPTION } from "../../../slack/blocks/exceptions.js";
import type { SlackMessage } from "../../../slack/blocks/format.js";
import { section, truncate } from "../../../slack/blocks/format.js";
import type { SlackContext } from "../../slack-context.js";
import { ackDeadline, databaseTrouble } from "../before-ack.js";

type ExceptionDeps = { ctx: SlackContext; isApprover(userId: string): Promise<boolean> };

/** What `/poolpatrol exceptions` answers `userId`: the list, with Revoke buttons for an approver. */
export async function exceptionsAnswer(deps: ExceptionDeps, userId: string): Promise<SlackMessage> {
  const [live, approver] = await Promise.all([createExceptions(deps.ctx.deps).listLive(), deps.isApprover(userId)]);
  return exceptionsList(live, approver);
}

export function registerExceptionActions(app: App, deps: ExceptionDeps): void {
  const { ctx } = deps;
  const exceptions = createExceptions(ctx.deps);

  /** Revokes the exception if `userId` may and it still holds; says what happened either way. */
  async function revoke(
    userId: string,
    value: string,
    deadline: number,
  ): Promise<{ notice: string; changed: boolean }> {
    const exceptionId = value.toUpperCase();
    const refuse = async (notice: string, why: string) => {
      ctx.log.warn(`revoke exception ${truncate(value, 40)} by ${userId} refused: ${why}`);
      return { notice, changed: false };
    };
    if (!(await within(deadline, deps.isApprover(userId)))) {
      if (isId("exception", exceptionId))
        await within(
          deadline,
          recordEvent(ctx.deps.prisma, {
            actor: `slack:${userId}`,
            action: "exception.refused_not_approver",
            subjectType: "vanpool",
            subjectId: exceptionId,
          }),
        );
      return refuse("Only approvers can revoke an exception. Nothing was changed.", "not an approver");
    }
    if (!isId("exception", exceptionId))
      return refuse(
        "That button names no exception. Nothing was changed; run `/poolpatrol exceptions` again.",
        "malformed id",
      );
    const live = (await within(deadline, exceptions.listLive())).find((e) => e.exception_id === exceptionId);
    if (!live)
      return refuse(
        `${exceptionId} no longer holds (revoked, expired or unknown). Nothing was changed.`,
        "not a live exception",
      );
    const revoked = await within(deadline, exceptions.revoke(exceptionId, userId));
    if (revoked.revoked_by !== userId)
      return refuse(`${exceptionId} was already revoked by someone else. Nothing was changed.`, "already revoked");
    ctx.log.info(`exception ${exceptionId} revoked by ${userId}`);
    return {
      notice: `Revoked: ${keptLine(revoked)}. The next audit checks ${revoked.employee_id} on ${revoked.vanpool_id} normally.`,
      changed: true,
    };
  }

  app.action<BlockAction<ButtonAction>>(REVOKE_EXCEPTION, async ({ ack, body, action, respond }) => {
    let answer: { notice: string; changed: boolean };
    try {
      answer = await revoke(body.user.id, action.value ?? "", ackDeadline());
    } catch (error) {
      const trouble = databaseTrouble(error);
      if (!trouble) throw error;
      answer = { notice: trouble, changed: false };
    }
    await ack();
    await answerClick(respond, answer, () => exceptionsAnswer(deps, body.user.id));
  });

  async function answerClick(
    respond: RespondFn,
    answer: { notice: string; changed: boolean },
    list: () => Promise<SlackMessage>,
  ) {
    if (!answer.changed)
      return void (await respond({ response_type: "ephemeral", replace_original: false, text: answer.notice }));
    const now = await list();
    await respond({ replace_original: true, text: answer.notice, blocks: [section(answer.notice), ...now.blocks] });
  }
}
