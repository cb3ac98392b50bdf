// Import jobs in the bot (or the sandbox): each import's channel summary (posted, then updated as
// its re-checks finish), a failed sync's notice, and the scheduled sync itself, one job per slot.
import cron from "node-cron";
import { type ImportSyncDeps, runImportSync } from "../cases/import-sync.js";
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

/** node-cron is the clock; each firing asks for the sync of its slot (one job per slot, whoever asks). */
export function scheduleImportSync(
  jobs: JobSender,
  options: { cron: string; timezone: string; log: (line: string) => void },
): { stop(): void } {
  const task = cron.schedule(
    options.cron,
    (context) => {
      importJobs(jobs)
        .sync(syncSlot(context.date))
        .catch((error) => options.log(`Could not start the scheduled import sync: ${(error as Error).message}`));
    },
    { timezone: options.timezone, name: "poolpatrol-import-sync" },
  );
  return { stop: () => task.stop() };
}
