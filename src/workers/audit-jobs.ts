// Audits asked for in Slack (`/poolpatrol audit VP-101`, the Re-audit button) are jobs:
// queued before the request is acknowledged, run under the vanpool's lease (so audits of
// one case queue behind each other without holding a connection), and answered to the
// person who asked. What the answer says comes from the stored check results, never from
// what a model claimed.
import type { WebClient } from "@slack/web-api";
import { type KeptRider, keptRidersOf } from "../agents/case-manager/kept-riders.js";
import type { CaseManagerResult } from "../cases/case-manager-run.js";
import type { CaseWorkflow } from "../cases/case-workflow.js";
import { finishRecheck, type RecheckRun } from "../data/data-import-repository.js";
import type { PrismaClient } from "../data/prisma.js";
import { findCaseAlertLocation } from "../data/slack-location-repository.js";
import { findLatestResults, type LatestResults } from "../data/verification-repository.js";
import { STATUS_LABEL } from "../domain/case-lifecycle.js";
import { CHECK_KINDS } from "../domain/specialist-result.js";
import { AppError } from "../errors.js";
import type { JobEngine } from "../queue/engine.js";
import { importJobs, QUEUES } from "../queue/queues.js";
import { answerOnce } from "../slack/answer-once.js";
import { keptLine } from "../slack/blocks/exceptions.js";
import { truncate } from "../slack/blocks/format.js";
import type { CaseMessages } from "../slack/case-messages.js";
import { type ClickPlace, tellClicker } from "../slack/tell-clicker.js";

/**
 * Where the answer goes: the slash command's response URL, the thread of the Re-audit button, or
 * (a re-audit an import queued, `importJobs`) the case's thread and the log.
 */
export type AuditAnswerTo =
  | { via: "response_url"; url: string }
  | { via: "click"; place: ClickPlace; caseId: string; closed: boolean }
  | { via: "import"; source: string; importId?: string }
  | { via: "sweep"; sweepId: string };

export interface AuditRequest {
  vanpoolId: string;
  userId: string;
  answer: AuditAnswerTo;
}

/** Queued before the ack, only if the database takes it before `deadline` (JobEngine.sendBy). */
export const auditJobs = (jobs: Pick<JobEngine, "sendBy">) => ({
  audit: (request: AuditRequest, deadline: number) => jobs.sendBy(deadline, QUEUES.auditVanpool, request),
});

const VERDICT_WORDS = { fail: "failed", inconclusive: "was inconclusive" } as const;

/**
 * What the stored results of this audit say, independent of the model's words: both checks
 * passed, or which did not (failed, inconclusive, or never stored).
 */
export function storedVerdict(
  results: LatestResults,
  since: Date,
  kept: readonly KeptRider[] = [],
): { passed: true } | { passed: false; why: string } {
  const problems: string[] = [];
  for (const check of CHECK_KINDS) {
    const result = results[check];
    // A Case Manager on a model may leave the employment check out: a result older than this audit is not its own.
    if (check === "employment" && (!result || result.finished_at < since)) continue;
    if (!result || result.finished_at < since) problems.push(`the ${check} check did not run`);
    else if (result.verdict !== "pass" && !failsOnlyForKept(result, check, kept))
      problems.push(`the ${check} check ${VERDICT_WORDS[result.verdict]}`);
  }
  return problems.length === 0 ? { passed: true } : { passed: false, why: problems.join(" and ") };
}

/** A check that failed only for riders a person kept by an exception (docs/exceptions.md). */
const failsOnlyForKept = (result: { verdict: string; flagged: string[] }, check: string, kept: readonly KeptRider[]) =>
  result.verdict === "fail" &&
  result.flagged.every((id) => kept.some((k) => k.check === check && k.employee_id === id));

export interface AuditJobDeps {
  workflow: Pick<CaseWorkflow, "auditVanpool">;
  messages: Pick<CaseMessages, "syncCase">;
  client: WebClient;
  prisma: PrismaClient;
  now(): Date;
  log(line: string): void;
  concurrency: number;
  /** Every answer through a response URL gives up after this long. */
  timeoutMs?: number;
}

export async function registerAuditJobs(engine: JobEngine, deps: AuditJobDeps): Promise<void> {
  const answers = { prisma: deps.prisma, log: deps.log, timeoutMs: deps.timeoutMs };
  /** `jobId` names the answer: a retried job answers its response URL at most once. */
  const tell = async (request: AuditRequest, jobId: string, text: string) => {
    const to = request.answer;
    if (to.via === "import") deps.log(`re-audit after the import of ${to.source}: ${text}`);
    else if (to.via === "sweep") deps.log(`audit handed over by sweep ${to.sweepId}: ${text}`);
    else if (to.via === "response_url") await answerOnce(answers, `audit:${jobId}`, to.url, text);
    else await tellClicker(deps.client, to.place, text);
  };

  await engine.work<AuditRequest>(
    QUEUES.auditVanpool,
    async (job) => {
      const request = job.data;
      const started = deps.now();
      let result: CaseManagerResult & { open_before: string | null };
      try {
        const to = request.answer;
        result = await deps.workflow.auditVanpool(request.vanpoolId, {
          key: `audit:${job.id}`,
          because:
            to.via === "import" ? { kind: "import", source: to.source } : { kind: "person", user: request.userId },
        });
      } catch (error) {
        const refused = error instanceof AppError;
        if (!refused && job.retryCount < job.retryLimit) throw error;
        await tell(
          request,
          job.id,
          refused
            ? truncate((error as Error).message, 300)
            : `The audit of ${request.vanpoolId} could not finish (${truncate((error as Error).message, 200)}). Try again in a minute; if it keeps failing, an admin can see it in \`poolpatrol jobs\`.`,
        );
        await recheckDone(request, { failed: true });
        if (refused) return { refused: (error as Error).message };
        throw error;
      }
      // Recorded before the answer: a retry after a failed answer does not take the case it opened for another's.
      await recheckDone(request, { before: result.open_before, after: result, retried: job.retryCount > 0 });
      await answer(request, job.id, result, started);
      deps.log(
        `audit ${request.vanpoolId} by ${request.userId}: ${result.case_id ?? "no case"} ${result.status ?? ""}`,
      );
      return { caseId: result.case_id, status: result.status };
    },
    { concurrency: deps.concurrency },
  );

  /** A re-check an import asked for: its outcome is kept and the import's channel summary updated. */
  async function recheckDone(request: AuditRequest, run: RecheckRun) {
    const to = request.answer;
    if (to.via !== "import" || !to.importId) return;
    const key = { importId: to.importId, vanpoolId: request.vanpoolId };
    const done = await finishRecheck(deps.prisma, key, run, deps.now());
    // Another import's re-check still failing on the case this one opened now says which import opened it.
    for (const importId of done ? [to.importId, ...done.others] : []) await importJobs(engine).summary(importId);
  }

  async function answer(request: AuditRequest, jobId: string, result: CaseManagerResult, started: Date) {
    const { vanpoolId, answer: to } = request;
    const sameClosedCase = to.via === "click" && to.closed && result.case_id === to.caseId;
    if (!result.case_id || sameClosedCase) {
      const kept = await keptRidersOf(deps.prisma, vanpoolId, deps.now());
      const stored = storedVerdict(await findLatestResults(deps.prisma, vanpoolId), started, kept);
      const text = !stored.passed
        ? `${vanpoolId} was audited but ${stored.why}, and no case was opened. A person should look; try the audit again.`
        : kept.length
          ? `${vanpoolId}: no case opened and no email sent. Failing but kept: ${kept.map((k) => keptLine(k.exception)).join("; ")}.`
          : to.via === "click"
            ? `${vanpoolId} passes every check; no new case is needed.`
            : `${vanpoolId} passes every check; no case needed.`;
      await tell(request, jobId, text);
      return;
    }
    // A re-audit of an open case and its result are told in the case thread, once (thread-story.ts).
    await deps.messages.syncCase(result.case_id);
    if (to.via !== "response_url") return;
    const where = await findCaseAlertLocation(deps.prisma, result.case_id);
    const link = where
      ? await deps.client.chat
          .getPermalink({ channel: where.channel, message_ts: where.ts })
          .then((r) => r.permalink)
          .catch(() => undefined)
      : undefined;
    await tell(
      request,
      jobId,
      `${vanpoolId}: ${result.case_id} is ${STATUS_LABEL[result.status ?? ""] ?? result.status}.${link && where ? ` See the <${link}|case alert> in <#${where.channel}>.` : ""}`,
    );
  }
}
