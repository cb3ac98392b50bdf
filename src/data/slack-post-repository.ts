// Claims on Slack posts under way (see SlackPostIntent in schema.prisma): one holder at a time
// per key, with the time of the first attempt, so a retry knows since when to look in Slack.
import type { PrismaClient } from "./prisma.js";

export interface PostClaim {
  /** An earlier attempt claimed this post and did not finish: it may have reached Slack. */
  earlier: boolean;
  /** When the first attempt claimed it. */
  intendedAt: Date;
  /** The message an earlier attempt's stream started, if one did. */
  streamTs?: string;
}

/** Takes the claim on `key` for `holdMs`; undefined while another holder has it. */
export async function holdPost(
  prisma: PrismaClient,
  input: { key: string; channel: string; holder: string; holdMs: number },
): Promise<PostClaim | undefined> {
  const rows = await prisma.$queryRaw<{ inserted: boolean; intended_at: Date; stream_ts: string | null }[]>`
    INSERT INTO slack_post_intents AS i (key, channel, holder, held_until, intended_at)
    VALUES (${input.key}, ${input.channel}, ${input.holder},
            clock_timestamp() + ${input.holdMs}::double precision * interval '1 millisecond', clock_timestamp())
    ON CONFLICT (key) DO UPDATE SET holder = EXCLUDED.holder, held_until = EXCLUDED.held_until
    WHERE i.held_until < clock_timestamp() AND i.ts IS NULL
    RETURNING (xmax = 0) AS inserted, intended_at, stream_ts`;
  const row = rows[0];
  return row
    ? { earlier: !row.inserted, intendedAt: row.intended_at, ...(row.stream_ts ? { streamTs: row.stream_ts } : {}) }
    : undefined;
}

/**
 * Extends `holder`'s claim for `holdMs` from now; false when the claim is no longer its own (it expired
 * and another holder took it over, or that holder finished). Called just before posting, so a holder
 * too slow to post within its hold never posts beside the one that took over.
 */
export async function renewPost(prisma: PrismaClient, key: string, holder: string, holdMs: number): Promise<boolean> {
  const renewed = await prisma.$executeRaw`
    UPDATE slack_post_intents
    SET held_until = clock_timestamp() + ${holdMs}::double precision * interval '1 millisecond'
    WHERE key = ${key} AND holder = ${holder} AND ts IS NULL`;
  return renewed === 1;
}

/** A streamed post's message exists (its stream started): a retry finishes it rather than starting another. */
export async function streamStarted(prisma: PrismaClient, key: string, holder: string, ts: string): Promise<void> {
  await prisma.slackPostIntent.updateMany({ where: { key, holder }, data: { streamTs: ts } });
}

/** Which of these messages of `channel` a post of ours already claims (kept, or a stream it started). */
export async function claimedMessages(prisma: PrismaClient, channel: string, ts: string[]): Promise<Set<string>> {
  const rows = await prisma.slackPostIntent.findMany({
    where: { channel, OR: [{ ts: { in: ts } }, { streamTs: { in: ts } }] },
    select: { ts: true, streamTs: true },
  });
  return new Set(rows.flatMap((row) => [row.ts, row.streamTs].filter((t): t is string => t !== null)));
}

/** The post is recorded where it belongs: the claim is no longer needed. */
export async function dropPost(prisma: PrismaClient, key: string, holder: string): Promise<void> {
  await prisma.slackPostIntent.deleteMany({ where: { key, holder } });
}

/** The post is its own record: kept with its ts, so the same key never posts again. */
export async function keepPost(prisma: PrismaClient, key: string, holder: string, ts: string): Promise<void> {
  await prisma.slackPostIntent.updateMany({ where: { key, holder }, data: { ts } });
}

/** Lets go of a claim that failed; the row stays, so the next attempt looks in Slack first. */
export async function letGoOfPost(prisma: PrismaClient, key: string, holder: string): Promise<void> {
  await prisma.$executeRaw`UPDATE slack_post_intents SET held_until = clock_timestamp() WHERE key = ${key} AND holder = ${holder}`;
}

/** Where a post kept as its own record is, if it was made. */
export async function keptPost(
  prisma: PrismaClient,
  key: string,
): Promise<{ channel: string; ts: string } | undefined> {
  const row = await prisma.slackPostIntent.findUnique({ where: { key }, select: { channel: true, ts: true } });
  return row?.ts ? { channel: row.channel, ts: row.ts } : undefined;
}

/**
 * Deletes posts kept as their own record (thread notes, answers, notices) first claimed before `before`:
 * by then no retry of theirs is left. Claims still under way, or never finished, are kept.
 */
export async function pruneKeptPosts(prisma: PrismaClient, before: Date): Promise<number> {
  return prisma.$executeRaw`
    DELETE FROM slack_post_intents
    WHERE ts IS NOT NULL AND intended_at < ${before}`;
}
