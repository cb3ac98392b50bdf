// The scheduled import sync's slots (table import_syncs): one row per cron firing, claimed by the
// first replica's job, with what it imported or why it failed.
import type { PrismaClient } from "./prisma.js";

export interface ImportSyncRecord {
  slot: string;
  started_at: Date;
  finished_at: Date | null;
  outcome: "imported" | "nothing_new" | "failed" | null;
  error: string | null;
  import_ids: string[];
  slack_ts: string | null;
}

/** "new": this call claimed the slot; "unfinished": a run that stopped (a crash) before finishing; "finished". */
export async function claimSync(
  prisma: PrismaClient,
  slot: string,
  now: Date,
): Promise<"new" | "unfinished" | "finished"> {
  const claimed = await prisma.$executeRaw`
    INSERT INTO import_syncs (slot, started_at, import_ids) VALUES (${slot}, ${now}, '{}') ON CONFLICT (slot) DO NOTHING`;
  if (claimed === 1) return "new";
  const row = await prisma.importSync.findUniqueOrThrow({ where: { slot }, select: { finishedAt: true } });
  return row.finishedAt ? "finished" : "unfinished";
}

export async function finishSync(
  prisma: PrismaClient,
  slot: string,
  result: { outcome: "imported" | "nothing_new" | "failed"; error?: string; importIds: string[]; at: Date },
): Promise<void> {
  await prisma.importSync.update({
    where: { slot },
    data: { outcome: result.outcome, error: result.error ?? null, importIds: result.importIds, finishedAt: result.at },
  });
}

const toRecord = (r: {
  slot: string;
  startedAt: Date;
  finishedAt: Date | null;
  outcome: string | null;
  error: string | null;
  importIds: string[];
  slackTs: string | null;
}): ImportSyncRecord => ({
  slot: r.slot,
  started_at: r.startedAt,
  finished_at: r.finishedAt,
  outcome: r.outcome as ImportSyncRecord["outcome"],
  error: r.error,
  import_ids: r.importIds,
  slack_ts: r.slackTs,
});

export async function findSync(prisma: PrismaClient, slot: string): Promise<ImportSyncRecord | null> {
  const r = await prisma.importSync.findUnique({ where: { slot } });
  return r && toRecord(r);
}

export async function setSyncMessage(prisma: PrismaClient, slot: string, ts: string): Promise<void> {
  await prisma.importSync.update({ where: { slot }, data: { slackTs: ts } });
}

/** Syncs that failed since `since`, newest first (the digest lists them). */
export async function failedSyncsSince(prisma: PrismaClient, since: Date): Promise<ImportSyncRecord[]> {
  const rows = await prisma.importSync.findMany({
    where: { outcome: "failed", startedAt: { gte: since } },
    orderBy: { startedAt: "desc" },
    take: 10,
  });
  return rows.map(toRecord);
}
