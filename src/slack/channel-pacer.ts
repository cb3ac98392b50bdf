// Slack allows about one message a second per channel. The pace is shared by every process on
// the database: each call claims the channel's next slot (one row per channel), so two replicas
// post no faster than one. A 429 pauses the channel for everyone for the Retry-After Slack asked
// for, and the refused call is tried again after it.
import { channelPausedFor, claimChannelSlot, pauseChannel } from "../data/channel-pace-repository.js";
import type { PrismaClient } from "../data/prisma.js";

const MAX_RATE_LIMITED_TRIES = 3;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Slack refused the call with 429 (the Web API client's error), and how long it asked to wait. */
export function rateLimitedFor(error: unknown): number | undefined {
  const limited = error as { code?: string; retryAfter?: number };
  return limited.code === "slack_webapi_rate_limited_error" ? (limited.retryAfter ?? 1) * 1000 : undefined;
}

export function createChannelPacer(prisma: PrismaClient, options: { intervalMs?: number } = {}) {
  const interval = options.intervalMs ?? 1000;

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
