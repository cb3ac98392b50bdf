// The digest: posted by the digest job of each POOLPATROL_DIGEST_CRON slot, or on
// demand. A database row per slot makes it one post per slot across restarts, job
// retries and running instances, and the post is made once even when the process dies
// between posting it and storing its ts (post-once.ts).

import { listCasesNeedingPerson } from "../data/case-card-repository.js";
import { claimDigestSlot, digestCases, lastScheduledDigestAt, recordDigestPosted } from "../data/digest-repository.js";
import { countExceptions } from "../data/exception-repository.js";
import { failedSyncsSince } from "../data/import-sync-repository.js";
import { programFigures } from "../data/program-figures.js";
import { digestLocation } from "../data/slack-message-repository.js";
import { replyDeadline } from "../domain/case-lifecycle.js";
import { digestMessage } from "./blocks/digest.js";
import type { ChannelContext } from "./channel-context.js";
import { channelPacerFor } from "./channel-pacer.js";
import { postOnce } from "./post-once.js";

/** Exceptions ending within this many days are listed as expiring in the digest. */
const EXPIRING_SOON_DAYS = 14;

export function createDigest(ctx: ChannelContext, options: { channelIntervalMs?: number } = {}) {
  const { prisma } = ctx.deps;
  const pacer = channelPacerFor(ctx, options.channelIntervalMs);

  async function build(since: Date) {
    const now = ctx.deps.now();
    const [cases, figures, needsPerson, exceptions, failedSyncs] = await Promise.all([
      digestCases(prisma),
      programFigures(prisma, since, now),
      listCasesNeedingPerson(prisma),
      countExceptions(prisma, {
        since: now,
        until: now,
        soon: new Date(now.getTime() + EXPIRING_SOON_DAYS * 86_400_000),
      }),
      failedSyncsSince(prisma, since),
    ]);
    return digestMessage({
      since,
      now,
      pending: cases.pending.map(({ created_at, ...a }) => ({
        ...a,
        hours: (now.getTime() - created_at.getTime()) / 3_600_000,
      })),
      needsPerson: needsPerson.map(({ record, since }) => ({
        case_id: record.case_id,
        vanpool_id: record.vanpool_id,
        since,
        reason: typeof record.meta.attention === "string" ? record.meta.attention : null,
      })),
      waiting: cases.waiting.map((c) => ({
        case_id: c.case_id,
        vanpool_id: c.vanpool_id,
        deadline: c.last_outbound_at ? replyDeadline(c.last_outbound_at) : null,
      })),
      figures,
      expiringExceptions: exceptions.expiring,
      failedSyncs,
    });
  }

  /** Posts for `periodKey` unless some instance already has; `force` posts regardless (the /poolpatrol digest command). */
  async function post(force: boolean, periodKey = `manual:${ctx.deps.now().toISOString()}`): Promise<string> {
    const channel = ctx.slack.auditChannel;
    const since = (await lastScheduledDigestAt(prisma)) ?? new Date(ctx.deps.now().getTime() - 7 * 86_400_000);
    // A claimed slot without a ts is a post that did not finish (a crash, a Slack error): the retry posts it.
    if (!force && !(await claimDigestSlot(prisma, { periodKey, channel, now: ctx.deps.now() })))
      return `The digest for ${periodKey} was already posted.`;
    const message = await build(since);
    await postOnce(
      { prisma, client: ctx.client, pacer, holdMs: ctx.deps.settings.claimMs },
      {
        key: `digest:${periodKey}`,
        args: { channel, ...message },
        posted: () => digestLocation(prisma, periodKey),
        record: (at) =>
          recordDigestPosted(prisma, { periodKey, channel, ts: at.ts, now: ctx.deps.now(), claimed: !force }),
      },
    );
    return `Digest posted in <#${channel}>.`;
  }

  return { post, build };
}
