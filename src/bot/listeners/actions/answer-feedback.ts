// 👍/👎 under a Case Manager answer. A 👍 is stored before the ack and thanked privately; a 👎 is stored
// and opens a modal asking for the right answer, stored with it on submit (`poolpatrol eval export-feedback`
// turns it into a test case). A value that names no answer, or an answer other than the message clicked
// (a tampered button), is refused, logged, and records nothing.
import type { AckFn, App, BlockAction, ViewResponseAction } from "@slack/bolt";
import { type FeedbackInput, findAnswer, recordFeedback, type StoredAnswer } from "../../../data/answer-repository.js";
import { within } from "../../../data/pg-pool.js";
import { keptPost } from "../../../data/slack-post-repository.js";
import { isId } from "../../../domain/ids.js";
import {
  ANSWER_FEEDBACK,
  CORRECTION_CALLBACK,
  CORRECTION_INPUTS,
  CORRECTION_TITLE,
  correctionModal,
  readFeedbackValue,
  readMustInclude,
} from "../../../slack/blocks/answer.js";
import { truncate } from "../../../slack/blocks/format.js";
import { noticeModal } from "../../../slack/blocks/modals.js";
import { tellClicker } from "../../../slack/tell-clicker.js";
import { createUserNames } from "../../../slack/user-names.js";
import type { SlackContext } from "../../slack-context.js";
import { ackDeadline, databaseTrouble, troubleInModal } from "../before-ack.js";
import { openModalAtOnce } from "../open-modal.js";

const NOT_OURS = "That button names no answer Pool Patrol gave in this message, so nothing was recorded.";
const THANKS_UP = "Thanks, noted that this answer was right.";
const THANKS_CORRECTION =
  "Thanks. Your correction is stored with the question, the answer and the facts it was built from; it becomes a test case for the Case Manager.";
const TOO_SHORT = "Write the right answer (at least 5 characters).";

interface FeedbackClick {
  type: "feedback_buttons";
  action_id: string;
  block_id: string;
  value: string;
}

export function registerAnswerFeedback(app: App, ctx: SlackContext): void {
  const { prisma } = ctx.deps;
  const nameOf = createUserNames(ctx.client);

  /** The answer a click is about, if the button is one Pool Patrol put on that very message. */
  async function clicked(body: BlockAction, value: string) {
    const parsed = readFeedbackValue(value);
    const refuse = (why: string) => {
      ctx.log.warn(`answer feedback ${truncate(value, 60)} by ${body.user.id} refused: ${why}`);
      return undefined;
    };
    if (!parsed) return refuse("not a feedback value");
    const answer = await findAnswer(prisma, parsed.answerId);
    if (!answer) return refuse("unknown answer");
    const container = body.container as { message_ts?: string; channel_id?: string };
    const posted = await keptPost(prisma, answer.postKey);
    const channel = body.channel?.id ?? container.channel_id;
    if (!posted || posted.ts !== container.message_ts || answer.channel !== channel)
      return refuse(`the answer is not the message clicked`);
    return { rating: parsed.rating, answer };
  }

  const feedback = async (userId: string, answer: StoredAnswer) =>
    ({ answerId: answer.id, userId, userName: await nameOf(userId) }) satisfies Partial<FeedbackInput>;

  app.action<BlockAction>(ANSWER_FEEDBACK, async ({ ack, body, action }) => {
    const value = (action as unknown as FeedbackClick).value ?? "";
    if (readFeedbackValue(value)?.rating === "down") {
      await ack();
      // The trigger lasts 3 seconds: the modal opens at once, then shows the answer or why it cannot.
      await openModalAtOnce(ctx, body.trigger_id, CORRECTION_TITLE, async () => {
        const found = await clicked(body, value);
        if (!found) return NOT_OURS;
        await recordFeedback(prisma, { ...(await feedback(body.user.id, found.answer)), rating: "down" });
        return correctionModal(found.answer);
      });
      return;
    }
    let notice: string;
    try {
      notice = await within(
        ackDeadline(),
        (async () => {
          const found = await clicked(body, value);
          if (!found) return NOT_OURS;
          await recordFeedback(prisma, { ...(await feedback(body.user.id, found.answer)), rating: "up" });
          return THANKS_UP;
        })(),
      );
    } catch (error) {
      const trouble = databaseTrouble(error);
      if (!trouble) throw error;
      notice = trouble;
    }
    await ack();
    await tellClicker(ctx.client, body, notice);
  });

  app.view(CORRECTION_CALLBACK, async ({ ack, body, view }) => {
    const values = view.state.values;
    const correction = values[CORRECTION_INPUTS.correction.block]?.[CORRECTION_INPUTS.correction.action]?.value?.trim();
    if (!correction || correction.length < 5)
      return ack({ response_action: "errors", errors: { [CORRECTION_INPUTS.correction.block]: TOO_SHORT } });
    const mustInclude = readMustInclude(
      values[CORRECTION_INPUTS.mustInclude.block]?.[CORRECTION_INPUTS.mustInclude.action]?.value,
    );
    const answerId = view.private_metadata;
    const trouble = troubleInModal(ack as AckFn<ViewResponseAction>, CORRECTION_INPUTS.correction.block);
    try {
      const answer = isId("answer", answerId) ? await within(ackDeadline(), findAnswer(prisma, answerId)) : undefined;
      if (!answer) {
        ctx.log.warn(`answer correction for ${truncate(answerId, 40)} by ${body.user.id} refused: unknown answer`);
        return trouble(NOT_OURS);
      }
      await within(
        ackDeadline(),
        (async () =>
          recordFeedback(prisma, {
            ...(await feedback(body.user.id, answer)),
            rating: "down",
            correction,
            mustInclude,
          }))(),
      );
    } catch (error) {
      const words = databaseTrouble(error);
      if (!words) throw error;
      return trouble(words);
    }
    await ack({ response_action: "update", view: noticeModal(CORRECTION_TITLE, THANKS_CORRECTION) });
  });
}
