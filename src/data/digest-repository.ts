// What the digest reads, and the row per slot that makes it one post per slot across
// restarts, job retries and running instances.
import type { PrismaClient } from "./prisma.js";

/** What waits now: approvals and cases waiting for riders. What changed in the window is the program's figures. */
export async function digestCases(prisma: PrismaClient) {
  const [pending, waiting] = await Promise.all([
    prisma.approvalRequest.findMany({ where: { status: "pending" }, orderBy: { createdAt: "asc" } }),
    prisma.case.findMany({ where: { status: "pending_reply" }, orderBy: { lastOutboundAt: "asc" } }),
  ]);
  return {
    pending: pending.map((a) => ({ approval_id: a.id, case_id: a.caseId, kind: a.kind, created_at: a.createdAt })),
    waiting: waiting.map((c) => ({ case_id: c.id, vanpool_id: c.vanpoolId, last_outbound_at: c.lastOutboundAt })),
  };
}

/** The period key of a digest posted on its schedule starts with this (`scheduled:<slot>`). */
export const SCHEDULED_DIGEST = "scheduled:";

/**
 * When the last scheduled digest was posted, if any: where the next digest's window starts. A digest asked for on
 * demand (`/poolpatrol digest`) covers the same window and never moves it.
 */
export async function lastScheduledDigestAt(prisma: PrismaClient): Promise<Date | undefined> {
  const last = await prisma.digestRun.findFirst({
    where: { ts: { not: null }, periodKey: { startsWith: SCHEDULED_DIGEST } },
    orderBy: { postedAt: "desc" },
  });
  return last?.postedAt;
}

/** Claims a slot; true when this slot still needs its post (new, or claimed by a post that did not finish). */
export async function claimDigestSlot(
  prisma: PrismaClient,
  input: { periodKey: string; channel: string; now: Date },
): Promise<boolean> {
  await prisma.$executeRaw`INSERT INTO digest_runs (period_key, channel, posted_at) VALUES (${input.periodKey}, ${input.channel}, ${input.now}) ON CONFLICT (period_key) DO NOTHING`;
  const claimed = await prisma.digestRun.findUniqueOrThrow({ where: { periodKey: input.periodKey } });
  return !claimed.ts;
}

export async function recordDigestPosted(
  prisma: PrismaClient,
  input: { periodKey: string; channel: string; ts: string | null; now: Date; claimed: boolean },
): Promise<void> {
  if (input.claimed) await prisma.digestRun.update({ where: { periodKey: input.periodKey }, data: { ts: input.ts } });
  else
    await prisma.digestRun.create({
      data: { periodKey: input.periodKey, channel: input.channel, ts: input.ts, postedAt: input.now },
    });
}
