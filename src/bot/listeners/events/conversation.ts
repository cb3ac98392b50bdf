// Questions to the Case Manager: in a case alert's thread, by @mention anywhere, and
// in a direct message. Each Slack thread (or DM) is one conversation, so follow-ups
// keep their context; a follow-up in a thread an @mention started needs no new mention.
// The bot ignores its own messages and threads it does not own (neither a case thread
// nor one it answered);
// a Slack retry of an event it already took in does nothing. Each answer is a job: once
// queued, a question is answered even after a crash. Bolt acknowledges an event as it
// arrives (the Events API expects no answer), before these listeners run, so the job is
// queued with QUESTION_DEADLINE_MS to spare rather than the ack's.
import type { App } from "@slack/bolt";
import { createConversation } from "../../../agents/conversation/agent.js";
import { recordAnswer } from "../../../data/answer-repository.js";
import { answeredThread, rememberAnsweredThread } from "../../../data/answered-thread-repository.js";
import { findCaseBySlackThread, getCase } from "../../../data/case-repository.js";
import { firstDelivery } from "../../../data/slack-event-repository.js";
import { keptPost } from "../../../data/slack-post-repository.js";
import { isSweepSummary } from "../../../data/sweep-repository.js";
import { redactFinding } from "../../../domain/redaction.js";
import { answerFeed, statusLine, toolStatus } from "../../../slack/answer-stream.js";
import { feedbackBlock } from "../../../slack/blocks/answer.js";
import type { CaseMessages } from "../../../slack/case-messages.js";
import type { SlackContext } from "../../slack-context.js";
import { type Asked, type ConversationAction, queueSlackAction } from "../slack-actions.js";

interface ConversationDeps {
  ctx: SlackContext;
  messages: CaseMessages;
  isApprover(userId: string): Promise<boolean>;
}

interface MessageEvent {
  subtype?: string;
  bot_id?: string;
  user?: string;
  text?: string;
  thread_ts?: string;
  ts: string;
  channel: string;
  channel_type?: string;
}

/** A question's job waits this long for a database that does not answer (nobody waits on an ack). */
const QUESTION_DEADLINE_MS = 60_000;

const eventIdOf = (body: unknown) => (body as { event_id?: string }).event_id;
const teamOf = (body: unknown) => (body as { team_id?: string }).team_id;

export function registerConversation(app: App, deps: ConversationDeps): void {
  const { ctx } = deps;
  const { prisma } = ctx.deps;
  /** Queues the answer; keyed by the message, so a redelivered event queues nothing more. */
  const answer = (asked: Asked, ts: string) =>
    queueSlackAction(
      ctx,
      `question:${asked.channel}:${ts}`,
      { kind: "question", asked },
      Date.now() + QUESTION_DEADLINE_MS,
    );

  app.event("message", async ({ event, body }) => {
    const message = event as MessageEvent;
    if (message.subtype || message.bot_id || !message.user) return;
    // The mention handler answers messages that @mention the bot.
    if (new RegExp(`<@${body.authorizations?.[0]?.user_id ?? "_"}>`).test(message.text ?? "")) return;
    if (message.channel_type === "im") {
      if (!(await firstDelivery(prisma, eventIdOf(body)))) return;
      await answer(
        {
          channel: message.channel,
          threadTs: message.thread_ts,
          conversationId: `${message.channel}:${message.thread_ts ?? "dm"}`,
          caseId: null,
          userId: message.user,
          teamId: teamOf(body),
          text: message.text ?? "",
        },
        message.ts,
      );
      return;
    }
    if (!message.thread_ts || message.thread_ts === message.ts) return;
    const record = await findCaseBySlackThread(prisma, message.channel, message.thread_ts);
    // A sweep's summary thread holds its new cases' alerts (Slack has no thread under a reply): a question there
    // is about the case it names, or the Case Manager asks which.
    const ours =
      record ||
      (await answeredThread(prisma, message.channel, message.thread_ts)) ||
      (await isSweepSummary(prisma, message.channel, message.thread_ts));
    if (!ours) return; // not its thread
    if (!(await firstDelivery(prisma, eventIdOf(body)))) return;
    await answer(
      {
        channel: message.channel,
        threadTs: message.thread_ts,
        conversationId: `${message.channel}:${message.thread_ts}`,
        caseId: record?.case_id ?? null,
        userId: message.user,
        teamId: teamOf(body),
        text: message.text ?? "",
      },
      message.ts,
    );
  });

  app.event("app_mention", async ({ event, body }) => {
    if (!(await firstDelivery(prisma, eventIdOf(body)))) return;
    const threadTs = event.thread_ts ?? event.ts;
    const record = event.thread_ts ? await findCaseBySlackThread(prisma, event.channel, event.thread_ts) : undefined;
    // Remembered as the question is taken in, so a follow-up sent before the answer is not lost.
    if (!record) await rememberAnsweredThread(prisma, event.channel, threadTs);
    await answer(
      {
        channel: event.channel,
        threadTs,
        conversationId: `${event.channel}:${threadTs}`,
        caseId: record?.case_id ?? null,
        userId: event.user ?? "",
        teamId: teamOf(body),
        text: event.text.replace(/<@[A-Z0-9]+>/g, "").trim(),
      },
      event.ts,
    );
  });
}

const vanpoolNamed = (text: string) => /\bVP-\d{3,}\b/.exec(text)?.[0] ?? null;

/** The job that answers a question: the Case Manager's conversation, posted where it was asked. */
export function createConversationWork(deps: ConversationDeps) {
  const { ctx } = deps;
  const { prisma } = ctx.deps;
  const conversation = createConversation(ctx.deps, {
    async recheck(caseId) {
      const record = await getCase(prisma, caseId);
      const result = await ctx.workflow.auditVanpool(record.vanpool_id);
      await deps.messages.syncCase(caseId);
      return {
        text: `🔁 Re-checked ${record.vanpool_id} (every check ran): ${redactFinding(result.reasoning)}`,
        sources: [`new audit of ${record.vanpool_id}`],
      };
    },
    async draftFollowUp(caseId, employeeId) {
      const drafted = await ctx.workflow.draftFollowUp(caseId, employeeId);
      await deps.messages.syncCase(caseId);
      return drafted;
    },
  });
  return {
    /** `jobId` names the answer: a retried job (a crash after the post) finds it rather than answering twice. */
    async answer({ asked }: ConversationAction, jobId: string): Promise<void> {
      const key = `answer:${jobId}`;
      if (await keptPost(prisma, key)) return;
      const place = { channel: asked.channel, threadTs: asked.threadTs, userId: asked.userId, teamId: asked.teamId };
      const status = statusLine(ctx.client, place, ctx.log.warn);
      status.set("is reading the question…");
      const feed = answerFeed();
      const answering = (async () => {
        const askerIsApprover = await deps.isApprover(asked.userId);
        const reply = await conversation.ask({
          threadId: asked.conversationId,
          question: asked.text,
          caseId: asked.caseId,
          askerIsApprover,
          onTool: (tool, input) => status.set(toolStatus(tool, input)),
          // The status line says what is being read until the answer starts, which no status call may overtake.
          onText: (piece) => void status.hold().then(() => feed.write(piece)),
        });
        await status.hold();
        feed.end();
        // Stored before its feedback buttons are posted (as its stream stops), so they name an answer that exists.
        return recordAnswer(prisma, {
          postKey: key,
          channel: asked.channel,
          threadTs: asked.threadTs,
          conversationId: asked.conversationId,
          caseId: asked.caseId,
          vanpoolId: asked.caseId
            ? (await getCase(prisma, asked.caseId)).vanpool_id
            : (vanpoolNamed(asked.text) ?? vanpoolNamed(reply.facts.map((f) => f.text).join("\n"))),
          question: asked.text,
          answer: reply.answer,
          facts: reply.facts,
          askedBy: asked.userId,
          askerIsApprover,
          askedAt: ctx.deps.now(),
        });
      })();
      answering.catch((error: unknown) => feed.fail(error));
      try {
        // Claimed while the answer is written, streamed from its first words.
        await Promise.all([
          deps.messages.postAnswer(key, place, feed, async () => [feedbackBlock(await answering)]),
          answering,
        ]);
      } finally {
        // A posted reply clears it in Slack, but a failure or an answer finished by an update does not.
        await status.clear();
      }
    },
  };
}
