// chat.postMessage has no idempotency key, so Pool Patrol makes one: a post is claimed in the
// database before it is made, carries its key in the message's metadata, and the claim is dropped
// once the message's ts is stored where it belongs. A retry that finds a claim left by an attempt
// that did not finish (a kill -9 after the post, a failed write) looks for the message in Slack,
// in the recent window since that attempt, before posting again. One holder at a time per key, so
// two replicas never post the same message; a holder renews its claim just before it posts, so one
// whose claim ran out meanwhile (a starved process, a slow lookup) leaves the post to the next.
// A streamed post (an answer written as it comes) records its message as its stream starts, so
// a retry after a crash mid-stream finishes that message instead of starting a second one. A stream
// carries no metadata until it stops: a crash between chat.startStream and that record leaves a
// message the retry finds as the thread's bot message since the attempt that carries no key and that
// no post of ours claims, and finishes it.

import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { ChatPostMessageArguments, WebClient } from "@slack/web-api";
import type { PrismaClient } from "../data/prisma.js";
import type { SlackLocation } from "../data/slack-message-repository.js";
import {
  claimedMessages,
  dropPost,
  holdPost,
  keepPost,
  keptPost,
  letGoOfPost,
  renewPost,
  streamStarted,
} from "../data/slack-post-repository.js";
import type { ChannelPacer } from "./channel-pacer.js";

export const POST_EVENT_TYPE = "poolpatrol_post";
/** Slack's clock and the database's may differ: the lookup starts this much before the first attempt. */
const CLOCK_SLACK_MS = 5 * 60_000;
const LOOKUP_PAGES = 5;
const PAGE_SIZE = 200;
const WAIT_FOR_HOLDER_MS = 90_000;

export interface PostOnceDeps {
  prisma: PrismaClient;
  client: WebClient;
  pacer: ChannelPacer;
  /**
   * How long a claim keeps other holders away (POOLPATROL_CLAIM_SECONDS): long enough for a lookup, a post and a
   * write; a killed holder holds up a retry this long.
   */
  holdMs: number;
}

export interface OncePost {
  /** Names this message for good: "alert:CASE-…", "card:APR-…", "sweep:…", "digest:…". */
  key: string;
  args: ChatPostMessageArguments;
  /** Where the message is if its ts is stored already. */
  posted(): Promise<SlackLocation | undefined>;
  /** Stores where the message is; absent: the claim itself is kept as the record. */
  record?(at: SlackLocation): Promise<void>;
  /** Posts the message another way than chat.postMessage (a stream); absent: `args` posted as they are. */
  deliver?(attempt: DeliveryAttempt): Promise<SlackLocation>;
  /**
   * Settles when the message can be posted (an answer's first words are written): the post is claimed and its
   * channel's turn taken meanwhile; a rejection gives up the claim.
   */
  ready?: Promise<unknown>;
}

export interface DeliveryAttempt {
  /** The message an earlier attempt started streaming and did not finish. */
  unfinished?: string;
  /** Records the message a stream just started, before anything is appended to it. */
  started(ts: string): Promise<void>;
  /** The metadata that lets a later attempt find the finished message. */
  metadata: { event_type: string; event_payload: { key: string } };
}

/** Slack's ts for a moment: seconds with microseconds. */
const slackTs = (at: Date) => (at.getTime() / 1000).toFixed(6);

export async function postOnce(deps: PostOnceDeps, post: OncePost): Promise<SlackLocation> {
  const { prisma } = deps;
  const channel = post.args.channel;
  const holder = randomUUID();
  const { holdMs } = deps;
  return deps.pacer.run(channel, async () => {
    const given = Date.now();
    for (;;) {
      const already = await post.posted();
      if (already) return already;
      const claim = await holdPost(prisma, { key: post.key, channel, holder, holdMs });
      if (!claim) {
        // Another process is posting this very message: its result is what we want.
        if (Date.now() - given > WAIT_FOR_HOLDER_MS) throw new Error(`Another process is still posting ${post.key}.`);
        await sleep(100 + Math.random() * 200);
        continue;
      }
      try {
        // Another holder may have posted, recorded it and let go between our look and our claim.
        const recorded = await post.posted();
        if (recorded) {
          await dropPost(prisma, post.key, holder);
          return recorded;
        }
        const lookup = claim.earlier && !claim.streamTs ? await findPosted(deps, post, claim.intendedAt) : undefined;
        const found = lookup?.finished;
        const unfinished = claim.streamTs ?? lookup?.unfinished;
        if (!found) await post.ready;
        // The lookup, or the wait for the message, may have outlasted the hold: post only while the claim is still ours.
        if (!found && !(await renewPost(prisma, post.key, holder, holdMs))) continue;
        const at =
          found ??
          (post.deliver
            ? await post.deliver({
                ...(unfinished ? { unfinished } : {}),
                started: (ts) => streamStarted(prisma, post.key, holder, ts),
                metadata: metadataOf(post.key),
              })
            : await send(deps.client, post));
        if (post.record) {
          await post.record(at);
          await dropPost(prisma, post.key, holder);
        } else await keepPost(prisma, post.key, holder, at.ts);
        return at;
      } catch (error) {
        // Best effort: when the database is what failed, the hold simply expires.
        await letGoOfPost(prisma, post.key, holder).catch(() => {});
        throw error;
      }
    }
  });
}

/** A message no other row points at (a thread note, an answer, a notice): its claim is kept as its record. */
export function postKeptOnce(deps: PostOnceDeps, key: string, args: ChatPostMessageArguments): Promise<SlackLocation> {
  return postOnce(deps, { key, args, posted: () => keptPost(deps.prisma, key) });
}

const metadataOf = (key: string) => ({ event_type: POST_EVENT_TYPE, event_payload: { key } });

async function send(client: WebClient, post: OncePost): Promise<SlackLocation> {
  const posted = await client.chat.postMessage({ ...post.args, metadata: metadataOf(post.key) });
  return { channel: posted.channel ?? post.args.channel, ts: posted.ts! };
}

/**
 * The message an earlier attempt posted under `post.key`, looked for since that attempt; for a streamed
 * post, else the stream it started and never recorded (a bot message in its thread with no key of ours).
 */
async function findPosted(
  deps: PostOnceDeps,
  post: OncePost,
  since: Date,
): Promise<{ finished?: SlackLocation; unfinished?: string } | undefined> {
  const { client } = deps;
  const { channel } = post.args;
  const thread = "thread_ts" in post.args ? post.args.thread_ts : undefined;
  const window = { channel, oldest: slackTs(new Date(since.getTime() - CLOCK_SLACK_MS)), include_all_metadata: true };
  const keyless: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < LOOKUP_PAGES; page++) {
    const found = thread
      ? await client.conversations.replies({ ...window, ts: thread, limit: PAGE_SIZE, cursor })
      : await client.conversations.history({ ...window, limit: PAGE_SIZE, cursor });
    const message = found.messages?.find((m) => carriesKey(m.metadata, post.key));
    if (message?.ts) return { finished: { channel, ts: message.ts } };
    for (const m of found.messages ?? [])
      if (m.ts && m.bot_id && m.ts !== thread && m.metadata?.event_type !== POST_EVENT_TYPE) keyless.push(m.ts);
    cursor = found.response_metadata?.next_cursor;
    if (!found.has_more || !cursor) break;
  }
  if (!post.deliver || !thread || keyless.length === 0) return undefined;
  const claimed = await claimedMessages(deps.prisma, channel, keyless);
  const unfinished = keyless.find((ts) => !claimed.has(ts));
  return unfinished ? { unfinished } : undefined;
}

/** The Web API types leave a payload's fields open (`{}`): read ours as a plain record. */
function carriesKey(metadata: { event_type?: string; event_payload?: object } | undefined, key: string): boolean {
  const payload: Record<string, unknown> = { ...metadata?.event_payload };
  return metadata?.event_type === POST_EVENT_TYPE && payload.key === key;
}
