// The direct message with Pool Patrol is an assistant thread: when a person opens one (or moves
// to another channel with it open), it offers questions drawn from the cases open now. Their
// messages in it are answered like any direct message (conversation.ts).
import type { App } from "@slack/bolt";
import { recentOpenCases } from "../../../data/case-repository.js";
import { suggestedPrompts } from "../../../slack/suggested-prompts.js";
import type { SlackContext } from "../../slack-context.js";

interface AssistantThreadEvent {
  assistant_thread?: { channel_id?: string; thread_ts?: string };
}

export function registerAssistantThreads(app: App, ctx: SlackContext): void {
  const offerPrompts = async ({ event }: { event: unknown }) => {
    const thread = (event as AssistantThreadEvent).assistant_thread;
    if (!thread?.channel_id || !thread.thread_ts) return;
    try {
      const open = await recentOpenCases(ctx.deps.prisma, 10);
      await ctx.client.assistant.threads.setSuggestedPrompts({
        channel_id: thread.channel_id,
        thread_ts: thread.thread_ts,
        title: "Ask about a case, a rider or the policy:",
        prompts: suggestedPrompts(open) as [{ title: string; message: string }],
      });
    } catch (error) {
      // The thread works without them: the person can still type a question.
      ctx.log.warn(`Could not offer suggested prompts: ${(error as Error).message}`);
    }
  };
  app.event("assistant_thread_started", offerPrompts);
  app.event("assistant_thread_context_changed", offerPrompts);
}
