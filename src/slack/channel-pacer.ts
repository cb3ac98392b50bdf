// Slack allows about one message a second per channel. The pace is shared by every process on
// the database: each call claims the channel's next slot (one row per channel), so two replicas
// post no faster than one. A 429 pauses the channel for everyone for the Retry-After Slack asked
// for, and the refused call is tried again after it.
import { setTimeout as sleep } from "node:timers/promises";
import { WebClient, WebClientEvent } from "@slack/web-api";
import { channelPausedFor, claimChannelSlot, pauseChannel } from "../data/channel-pace-repository.js";
import type { PrismaClient } from "../data/prisma.js";
import type { ChannelContext } from "./channel-context.js";

const MAX_RATE_LIMITED_TRIES = 3;

/**
 * Slack refused the call with 429, and how long it asked to wait (ms). The Web API client says so
 * with a coded error when it rejects rate-limited calls, and otherwise, once its own retries are
 * spent, only in the message of the error it wraps.
 */
export function rateLimitedFor(error: unknown): number | undefined {
  const failed = error as { code?: string; retryAfter?: number; original?: { message?: string } };
  if (failed.code === "slack_webapi_rate_limited_error") return (failed.retryAfter ?? 1) * 1000;
  const spent = /rate limit was exceeded .*retry-after: (\d+)/.exec(failed.original?.message ?? "");
  return failed.code === "slack_webapi_request_error" && spent ? Number(spent[1]) * 1000 : undefined;
}

/** `client`: its 429s pause the channel for every process at once, even while the client waits and retries on its own. */
export function createChannelPacer(prisma: PrismaClient, options: { intervalMs?: number; client?: WebClient } = {}) {
  const interval = options.intervalMs ?? 1000;
  // Only a real client emits events (unit tests hand in a recording double).
  if (options.client instanceof WebClient)
    options.client.on(WebClientEvent.RATE_LIMITED, (retryAfterSeconds: number, request: { body?: unknown }) => {
      const channel = (request.body as { channel?: unknown } | undefined)?.channel;
      if (typeof channel === "string")
        pauseChannel(prisma, channel, retryAfterSeconds * 1000).catch(() => {
          // The call itself fails with the 429 too, and the pacer pauses the channel then.
        });
    });

  /** Waits for this process's turn on the channel, and past any pause a 429 set meanwhile. */
  async function slot(channel: string): Promise<void> {
    const wait = await claimChannelSlot(prisma, channel, interval);
    if (wait <= 0) return;
    await sleep(wait);
    for (
      let paused = await channelPausedFor(prisma, channel);
      paused > 0;
      paused = await channelPausedFor(prisma, channel)
    )
      await sleep(paused);
  }

  /** Runs `call` in a slot; a 429 pauses the channel and the call is tried again, up to three tries. */
  async function run<T>(channel: string, call: () => Promise<T>): Promise<T> {
    for (let tries = 1; ; tries++) {
      await slot(channel);
      try {
        return await call();
      } catch (error) {
        const retryAfter = rateLimitedFor(error);
        if (retryAfter === undefined || tries >= MAX_RATE_LIMITED_TRIES) throw error;
        await pauseChannel(prisma, channel, retryAfter);
      }
    }
  }

  return { run };
}

export type ChannelPacer = ReturnType<typeof createChannelPacer>;

/** The pacer of `ctx`'s channels: `intervalMs` apart, or as far apart as the settings say. */
export const channelPacerFor = (ctx: ChannelContext, intervalMs?: number): ChannelPacer =>
  createChannelPacer(ctx.deps.prisma, {
    intervalMs: intervalMs ?? ctx.deps.settings.slackPostIntervalMs,
    client: ctx.client,
  });
