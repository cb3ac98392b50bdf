// Questions in a case alert's thread, and @mentions that name a case or vanpool.
// Answers come from stored evidence; only "re-check" re-audits (approvers only).
// The bot ignores its own messages and every thread it does not own; a Slack retry
// of an event it already took in does nothing.
import type { AllMiddlewareArgs, App, SlackEventMiddlewareArgs } from "@slack/bolt";
import { createAgentModel } from "../../../agents/models/index.js";
import { type CaseRecord, findCase, findOpenCase, getCase } from "../../../data/case-repository.js";
import { idPattern } from "../../../domain/ids.js";
import type { CaseMessages } from "../../case-messages.js";
import { answer } from "../../conversation/answers.js";
import { CLARIFYING_QUESTION, understand } from "../../conversation/intent.js";
import { understandWithModel } from "../../conversation/understand-with-model.js";
import type { SlackContext } from "../../slack-context.js";

interface ConversationDeps {
  ctx: SlackContext;
  messages: CaseMessages;
  isApprover(userId: string): Promise<boolean>;
}

export function registerConversation(app: App, deps: ConversationDeps): void {
  const { ctx } = deps;
  const { prisma } = ctx.deps;

  /** True the first time an event id is seen, in any instance. */
  async function firstDelivery(eventId: string | undefined): Promise<boolean> {
    if (!eventId) return true;
    const inserted =
      await prisma.$executeRaw`INSERT INTO slack_event_receipts (event_id) VALUES (${eventId}) ON CONFLICT (event_id) DO NOTHING`;
    return inserted === 1;
  }

  async function reply(args: { channel: string; threadTs: string; userId: string; text: string; record: CaseRecord }) {
    const history = await ctx.client.conversations.replies({ channel: args.channel, ts: args.threadTs, limit: 30 });
    const earlier = (history.messages ?? []).filter((m) => m.ts !== args.threadTs);
    const previousQuestions = earlier
      .filter((m) => !m.bot_id && m.user !== undefined)
      .map((m) => m.text ?? "")
      .filter((t) => t !== args.text);
    const mentioned = earlier.filter((m) => m.bot_id).flatMap((m) => (m.text ?? "").match(/EMP-\d+/g) ?? []);
    const model = createAgentModel("case_manager", ctx.deps.settings, () => ({ final: "" }));
    const question = model.isRules
      ? understand(args.text, previousQuestions)
      : await understandWithModel(model.chat, args.text, previousQuestions);
    let text: string;
    if (!question.intent) text = CLARIFYING_QUESTION;
    else if (question.intent === "recheck") {
      if (!(await deps.isApprover(args.userId))) text = "Only approvers can ask for a re-check. Nothing was changed.";
      else {
        const result = await ctx.workflow.auditVanpool(args.record.vanpool_id);
        await deps.messages.syncCase(args.record.case_id);
        text = `🔁 Re-checked ${args.record.vanpool_id}${question.check ? ` (you asked about ${question.check}; both checks ran)` : ""}: ${result.reasoning}`;
      }
    } else text = await answer(prisma, await getCase(prisma, args.record.case_id), question, mentioned);
    await ctx.client.chat.postMessage({ channel: args.channel, thread_ts: args.threadTs, text });
  }

  app.event("message", async ({ event, body }: SlackEventMiddlewareArgs<"message"> & AllMiddlewareArgs) => {
    const message = event as {
      subtype?: string;
      bot_id?: string;
      user?: string;
      text?: string;
      thread_ts?: string;
      ts: string;
      channel: string;
    };
    if (message.subtype || message.bot_id || !message.user || !message.thread_ts || message.thread_ts === message.ts)
      return;
    if (new RegExp(`<@${body.authorizations?.[0]?.user_id ?? "_"}>`).test(message.text ?? "")) return; // the mention handler answers it
    const row = await prisma.case.findFirst({
      where: { slackChannel: message.channel, slackTs: message.thread_ts },
      select: { id: true },
    });
    if (!row) return; // not a thread this bot owns
    if (!(await firstDelivery((body as { event_id?: string }).event_id))) return;
    ctx.background("thread question", async () =>
      reply({
        channel: message.channel,
        threadTs: message.thread_ts!,
        userId: message.user!,
        text: message.text ?? "",
        record: (await findCase(prisma, row.id))!,
      }),
    );
  });

  app.event("app_mention", async ({ event, body }) => {
    if (!(await firstDelivery((body as { event_id?: string }).event_id))) return;
    const text = event.text.replace(/<@[A-Z0-9]+>/g, "").trim();
    const threadTs = event.thread_ts ?? event.ts;
    ctx.background("mention", async () => {
      const fromThread = event.thread_ts
        ? await prisma.case.findFirst({ where: { slackChannel: event.channel, slackTs: event.thread_ts } })
        : null;
      const caseId = new RegExp(idPattern("case"), "i").exec(text)?.[0]?.toUpperCase();
      const vanpoolId = /VP-\d+/i.exec(text)?.[0]?.toUpperCase();
      const record = fromThread
        ? await findCase(prisma, fromThread.id)
        : caseId
          ? await findCase(prisma, caseId)
          : vanpoolId
            ? await findOpenCase(prisma, vanpoolId)
            : undefined;
      if (!record) {
        await ctx.client.chat.postMessage({
          channel: event.channel,
          thread_ts: threadTs,
          text:
            caseId || vanpoolId
              ? `I found no ${caseId ? `case ${caseId}` : `open case for ${vanpoolId}`}.`
              : "Which case do you mean? Name it (CASE-1A2B3C4D or VP-101), or ask in the case alert's thread.",
        });
        return;
      }
      await reply({ channel: event.channel, threadTs, userId: event.user ?? "", text, record });
    });
  });
}
