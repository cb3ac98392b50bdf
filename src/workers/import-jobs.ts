// Import jobs in the bot (or the sandbox): each import's channel summary (posted, then updated as
// its re-checks finish), a failed sync's notice, and the scheduled sync itself, one job per slot.
import { type ImportSyncDeps, runImportSync } from "../cases/import-sync.js";
import { scheduleSlots } from "../queue/clock.js";
import type { JobEngine } from "../queue/engine.js";
import { importJobs, type JobSender, QUEUES } from "../queue/queues.js";
import type { createImportAnnouncer } from "../slack/import-summary-post.js";

export async function registerImportJobs(
  engine: JobEngine,
  deps: { announcer: ReturnType<typeof createImportAnnouncer>; sync?: Omit<ImportSyncDeps, "jobs"> },
): Promise<void> {
  await engine.work<{ importId?: string; syncSlot?: string }>(QUEUES.importSummary, async (job) => {
    if (job.data.importId) await deps.announcer.announce(job.data.importId);
    else if (job.data.syncSlot) await deps.announcer.syncFailed(job.data.syncSlot);
  });
  const sync = deps.sync;
  if (sync)
    await engine.work<{ slot: string }>(QUEUES.importSync, (job) =>
      runImportSync({ ...sync, jobs: engine }, job.data.slot),
    );
}

/** The slot of a sync firing: its minute in UTC, the same on every replica. */
export const syncSlot = (at: Date) => `sync-${at.toISOString().slice(0, 16)}Z`;

/** Each firing of POOLPATROL_IMPORT_CRON asks for the sync of its slot. */
export const scheduleImportSync = (
  jobs: JobSender,
  options: { cron: string; timezone: string; log: (line: string) => void },
) =>
  scheduleSlots("poolpatrol-import-sync", options, "the scheduled import sync", (at) =>
    importJobs(jobs).sync(syncSlot(at)),
  );
