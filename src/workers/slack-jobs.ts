// Workers for the Slack queues, run by the bot (or the sandbox): case alerts and
// cards, thread notes, and the digest of each scheduled slot.
import { SCHEDULED_DIGEST } from "../data/digest-repository.js";
import { casesMissingFromSlack, type SlackLocation } from "../data/slack-message-repository.js";
import type { JobEngine } from "../queue/engine.js";
import { caseJobs, QUEUES } from "../queue/queues.js";
import type { CaseMessages } from "../slack/case-messages.js";
import type { createDigest } from "../slack/digest.js";

export interface SlackJobDeps {
  messages: CaseMessages;
  digest: ReturnType<typeof createDigest>;
  prisma: Parameters<typeof casesMissingFromSlack>[0];
  concurrency: number;
}

export async function registerSlackJobs(engine: JobEngine, deps: SlackJobDeps): Promise<void> {
  await engine.work<{ caseId: string; thread?: SlackLocation }>(
    QUEUES.syncCase,
    (job) => deps.messages.syncCase(job.data.caseId, { thread: job.data.thread }),
    { concurrency: deps.concurrency },
  );
  await engine.work<{ caseId: string; text: string }>(
    QUEUES.threadNote,
    // The job's id names the note: a retried job finds the note its first run posted.
    (job) => deps.messages.postInThread(job.data.caseId, job.data.text, job.id),
    { concurrency: deps.concurrency },
  );
  await engine.work<{ slot: string }>(QUEUES.digest, async (job) => ({
    note: await deps.digest.post(false, `${SCHEDULED_DIGEST}${job.data.slot}`),
  }));
}

/** Cases opened or changed while no bot ran (the CLI, a crash) get their alert and cards. */
export async function queueMissingAlerts(engine: JobEngine, prisma: SlackJobDeps["prisma"]): Promise<number> {
  const jobs = caseJobs(engine);
  const missing = await casesMissingFromSlack(prisma);
  for (const caseId of missing) await jobs.syncCase(caseId);
  return missing.length;
}
