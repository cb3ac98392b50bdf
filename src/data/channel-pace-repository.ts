// The shared pace of posts per Slack channel (see SlackChannelPace in schema.prisma): each post
// claims the next free slot with one statement, and a 429 pauses the channel for every process.
// Times come from the database's clock, so processes on different machines agree.
import type { PrismaClient } from "./prisma.js";

/** Claims the channel's next slot and moves the next free one `intervalMs` after it; returns the ms to wait. */
export async function claimChannelSlot(prisma: PrismaClient, channel: string, intervalMs: number): Promise<number> {
  const [row] = await prisma.$queryRaw<{ wait_ms: number }[]>`
    INSERT INTO slack_channel_pace AS p (channel, next_free_at)
    VALUES (${channel}, clock_timestamp() + ${intervalMs}::double precision * interval '1 millisecond')
    ON CONFLICT (channel) DO UPDATE SET next_free_at =
      GREATEST(p.next_free_at, p.paused_until, clock_timestamp()) + ${intervalMs}::double precision * interval '1 millisecond'
    RETURNING GREATEST(0, EXTRACT(EPOCH FROM (
      p.next_free_at - ${intervalMs}::double precision * interval '1 millisecond' - clock_timestamp())) * 1000)::double precision AS wait_ms`;
  return row?.wait_ms ?? 0;
}

/** Slack asked this channel to wait `ms` (Retry-After): no process posts to it before then. */
export async function pauseChannel(prisma: PrismaClient, channel: string, ms: number): Promise<void> {
  await prisma.$executeRaw`
    INSERT INTO slack_channel_pace AS p (channel, next_free_at, paused_until)
    VALUES (${channel}, clock_timestamp(), clock_timestamp() + ${ms}::double precision * interval '1 millisecond')
    ON CONFLICT (channel) DO UPDATE SET paused_until = GREATEST(p.paused_until, EXCLUDED.paused_until)`;
}

/** How long the channel is still paused, in ms (0: not paused). */
export async function channelPausedFor(prisma: PrismaClient, channel: string): Promise<number> {
  const [row] = await prisma.$queryRaw<{ wait_ms: number }[]>`
    SELECT GREATEST(0, EXTRACT(EPOCH FROM (paused_until - clock_timestamp())) * 1000)::double precision AS wait_ms
    FROM slack_channel_pace WHERE channel = ${channel}`;
  return row?.wait_ms ?? 0;
}
