// Every queue Pool Patrol uses, with its retry and timeout policy, and typed senders
// so callers never spell a queue name or a job id by hand.
import { randomUUID } from "node:crypto";
import type PgBoss from "pg-boss";
import type { SqlExecutor } from "../data/job-executor.js";
import type { SlackLocation } from "../data/slack-message-repository.js";
import { type JobEngine, jobIdFor, type QueueDefaults } from "./engine.js";

export type JobSender = Pick<JobEngine, "send" | "sendBy" | "insert"> & Partial<Pick<JobEngine, "instanceId">>;

export const QUEUES = {
  auditVanpool: "audit-vanpool",
  applyDecision: "apply-decision",
  sendEmail: "send-email",
  replyTimeout: "reply-timeout",
  approvalsDue: "approvals-due",
  retention: "retention",
  syncCase: "slack-sync-case",
  threadNote: "slack-thread-note",
  digest: "slack-digest",
  slackAction: "slack-action",
  importSummary: "import-summary",
  importSync: "import-sync",
} as const;

export const QUEUE_OPTIONS: Record<(typeof QUEUES)[keyof typeof QUEUES], QueueDefaults> = {
  // A person is waiting for the answer: one retry, then they are told it failed.
  [QUEUES.auditVanpool]: { retryLimit: 1, retryDelay: 2, expireInSeconds: 900 },
  [QUEUES.applyDecision]: { retryLimit: 5, expireInSeconds: 600 },
  // Resend's idempotency key makes a retried send safe; the last failure is shown to people.
  [QUEUES.sendEmail]: { retryLimit: 3, retryDelay: 2, expireInSeconds: 120 },
  [QUEUES.replyTimeout]: { retryLimit: 5, expireInSeconds: 600 },
  [QUEUES.approvalsDue]: { retryLimit: 2, expireInSeconds: 120 },
  [QUEUES.retention]: { retryLimit: 2, expireInSeconds: 900 },
  // At most one waiting and one running sync per case: bursts collapse, two syncs never race to post.
  [QUEUES.syncCase]: { retryLimit: 6, expireInSeconds: 120, policy: "stately" },
  [QUEUES.threadNote]: { retryLimit: 6, expireInSeconds: 120 },
  [QUEUES.digest]: { retryLimit: 4, expireInSeconds: 300 },
  // A click, modal or message taken in before its ack; the person sees the outcome in Slack.
  [QUEUES.slackAction]: { retryLimit: 3, retryDelay: 1, expireInSeconds: 600 },
  // Posted once, then updated as the import's re-checks finish: one waiting update per import is enough.
  [QUEUES.importSummary]: { retryLimit: 6, expireInSeconds: 120, policy: "stately" },
  // The next slot is the retry: a folder that is missing now is missing a second later.
  [QUEUES.importSync]: { retryLimit: 0, expireInSeconds: 1800 },
};

/** One reply timeout: the case, the email whose reply it waited for and when it fell due. */
export const replyTimeoutKey = (caseId: string, lastOutboundAt: Date, due: Date) =>
  `timeout:${caseId}:${lastOutboundAt.toISOString()}:${due.toISOString()}`;

const inTx = (db?: SqlExecutor): PgBoss.SendOptions => (db ? { db } : {});

/**
 * Case jobs as rows, for writing many in one statement (`engine.insert`, a sweep page's first emails);
 * `caseJobs` sends the same jobs one at a time.
 */
export const caseJobRows = {
  sendEmail: (messageId: string, actor: string) =>
    ({ name: QUEUES.sendEmail, data: { messageId, actor }, id: jobIdFor(`email:${messageId}`) }) satisfies JobRow,
  /**
   * Due 7 days after the last successful email (or later, when an out-of-office notice moved the
   * deadline); a later email or a reply makes it a no-op.
   */
  replyTimeout: (caseId: string, lastOutboundAt: Date, due: Date) =>
    ({
      name: QUEUES.replyTimeout,
      data: { caseId, lastOutboundAt: lastOutboundAt.toISOString() },
      id: jobIdFor(replyTimeoutKey(caseId, lastOutboundAt, due)),
      startAfter: due,
    }) satisfies JobRow,
};

type JobRow = PgBoss.JobInsert & { data: object; id: string };

const sendRow = (jobs: JobSender, { name, data, ...options }: JobRow, db?: SqlExecutor) =>
  jobs.send(name, data, { ...options, ...inTx(db) });

export const importJobs = (jobs: JobSender) => ({
  /**
   * The re-audits of the vanpools an import touched, one statement committed with the import (one job per
   * vanpool and import); the bot's audit worker runs each and notes the outcome in the case's thread.
   */
  reaudits: (vanpoolIds: string[], source: string, actor: string, db: SqlExecutor, importId?: string) =>
    jobs.insert(
      vanpoolIds.map((vanpoolId) => ({
        name: QUEUES.auditVanpool,
        data: { vanpoolId, userId: actor, answer: { via: "import", source, ...(importId ? { importId } : {}) } },
        id: importId ? jobIdFor(`reaudit:${importId}:${vanpoolId}`) : randomUUID(),
      })),
      { db },
    ),
  /** Posts or updates the import's channel summary; updates asked for while one waits collapse into it. */
  summary: (importId: string, db?: SqlExecutor) =>
    jobs.send(QUEUES.importSummary, { importId }, { singletonKey: importId, ...inTx(db) }),
  /** Tells the channel a scheduled sync failed (once per slot). */
  syncFailed: (slot: string) =>
    jobs.send(QUEUES.importSummary, { syncSlot: slot }, { id: jobIdFor(`sync-failed:${slot}`), singletonKey: slot }),
  /** The sync of one slot: the same job id on every replica, so one runs. */
  sync: (slot: string) => jobs.send(QUEUES.importSync, { slot }, { id: jobIdFor(`import-sync:${slot}`) }),
});

/**
 * A sweep's vanpool with a rider who no longer works here, committed with the sweep's page: the Case Manager
 * opens its case and asks an approver to remove them (the sweep opens no such case itself). One job per sweep.
 */
export const sweepJobs = (jobs: JobSender) => ({
  handOff: (vanpoolId: string, sweepId: string, db: SqlExecutor) =>
    jobs.send(
      QUEUES.auditVanpool,
      { vanpoolId, userId: `sweep:${sweepId}`, answer: { via: "sweep", sweepId } },
      { id: jobIdFor(`handoff:${sweepId}:${vanpoolId}`), ...inTx(db) },
    ),
});

export function caseJobs(jobs: JobSender) {
  return {
    applyDecision: (approvalId: string, db?: SqlExecutor) =>
      jobs.send(QUEUES.applyDecision, { approvalId }, { id: jobIdFor(`decision:${approvalId}`), ...inTx(db) }),
    sendEmail: (messageId: string, actor: string) => sendRow(jobs, caseJobRows.sendEmail(messageId, actor)),
    replyTimeout: (caseId: string, lastOutboundAt: Date, due: Date, db?: SqlExecutor) =>
      sendRow(jobs, caseJobRows.replyTimeout(caseId, lastOutboundAt, due), db),
    syncCase: (caseId: string) => jobs.send(QUEUES.syncCase, { caseId }, { singletonKey: caseId }),
    /** A new case's alert posted in a thread (a sweep's summary) rather than the channel; one job per `key`. */
    syncCaseInThread: (caseId: string, thread: SlackLocation, key: string) =>
      jobs.send(
        QUEUES.syncCase,
        { caseId, thread },
        { id: jobIdFor(`sync:${caseId}:${key}`), singletonKey: `${caseId}@${key}` },
      ),
    /** A refresh due later (say when an Undo button's time is up), apart from the case's immediate syncs. */
    syncCaseAt: (caseId: string, at: Date) =>
      jobs.send(
        QUEUES.syncCase,
        { caseId },
        {
          id: jobIdFor(`sync:${caseId}:${at.toISOString()}`),
          singletonKey: `${caseId}@${at.toISOString()}`,
          startAfter: at,
        },
      ),
    threadNote: (caseId: string, key: string, text: string) =>
      jobs.send(QUEUES.threadNote, { caseId, text }, { id: jobIdFor(`note:${caseId}:${key}`) }),
  };
}

export type CaseJobs = ReturnType<typeof caseJobs>;
