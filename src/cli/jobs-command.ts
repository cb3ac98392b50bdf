// `poolpatrol jobs`: every queue with its jobs counted by state, then the latest
// failed jobs with their error. `poolpatrol jobs retry ID` runs a failed job again.

import type { CliContext } from "../app/context.js";
import type { Database } from "../data/database.js";
import { failedJobs, JOB_SCHEMA, jobCountsByQueue, jobTablesExist, queueOfJob } from "../data/job-repository.js";
import { invalidInput, notFound } from "../errors.js";

const STATES = ["created", "retry", "active", "completed", "failed", "cancelled"] as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function jobsCommand(ctx: CliContext, args: string[]): Promise<string> {
  const [sub, id, ...extra] = args;
  if (sub === undefined) return jobsReport(ctx.db);
  if (sub !== "retry" || !id || extra.length > 0)
    throw invalidInput("Use `poolpatrol jobs` or `poolpatrol jobs retry JOB-ID`.");
  return retryJob(ctx, id);
}

/** Reads the job tables only: no job engine needed. */
export async function jobsReport({ pool }: Pick<Database, "pool">): Promise<string> {
  if (!(await jobTablesExist(pool, JOB_SCHEMA)))
    return "No jobs yet: the job engine has not run on this database (`poolpatrol start` or a command that changes cases starts it).";
  const [queues, failed] = await Promise.all([jobCountsByQueue(pool, JOB_SCHEMA), failedJobs(pool, JOB_SCHEMA)]);
  const header = `${"queue".padEnd(20)}${STATES.map((s) => s.padStart(10)).join("")}`;
  const lines = [
    header,
    ...queues.map((q) => `${q.queue.padEnd(20)}${STATES.map((s) => String(q.counts[s] ?? 0).padStart(10)).join("")}`),
    "",
    failed.length ? `Failed jobs (latest ${failed.length}):` : "No failed jobs.",
    ...failed.map(
      (f) =>
        `  ${f.id}  ${f.queue}  ${describe(f.data)}  after ${f.retries} retr${f.retries === 1 ? "y" : "ies"}${f.failedAt ? ` at ${f.failedAt.toISOString().slice(0, 16).replace("T", " ")}` : ""}\n      ${f.error}`,
    ),
    ...(failed.length ? ["", "Run one again with: poolpatrol jobs retry JOB-ID"] : []),
  ];
  return lines.join("\n");
}

async function retryJob(ctx: CliContext, id: string): Promise<string> {
  if (!UUID.test(id)) throw invalidInput(`"${id}" is not a job id; \`poolpatrol jobs\` lists failed jobs with theirs.`);
  const queue = await queueOfJob(ctx.db.pool, JOB_SCHEMA, id);
  if (!queue) throw notFound(`No job ${id}. \`poolpatrol jobs\` lists the failed ones.`);
  const engine = ctx.jobs!;
  await engine.boss.retry(queue, id);
  const job = await engine.boss.getJobById(queue, id);
  if (job?.state !== "retry") return `Job ${id} (${queue}) is ${job?.state ?? "gone"}; only failed jobs are retried.`;
  if (!engine.worked().includes(queue)) return `Job ${id} (${queue}) will run again when the bot picks it up.`;
  engine.track(queue, id);
  const [unfinished] = await ctx.settle();
  return unfinished
    ? `Job ${id} (${queue}) ran again and ${unfinished.state === "retry" ? "failed; it will be retried" : unfinished.state}${unfinished.error ? `: ${unfinished.error}` : ""}.`
    : `Job ${id} (${queue}) ran again and completed.`;
}

function describe(data: Record<string, unknown>): string {
  const about = ["caseId", "vanpoolId", "approvalId", "messageId", "slot"].flatMap((k) =>
    data[k] ? [String(data[k])] : [],
  );
  return about.join(" ") || "-";
}
