// The first emails of the cases a sweep page opened, a page at a time: read the cases, their
// vanpools, results and riders in a few queries, store every email (once per idempotency key)
// before handing it to the provider, then record what went out in one transaction with the
// reply timeouts it starts. With the rules model this is the Outreach Agent's one step for an
// initial task (send_email to each recipient, its drafts unchanged), recorded as one agent run
// per case; a configured model runs the agent case by case.
//
// Exactly once: a retried page finds its stored messages by key and hands the unsent ones to the
// provider again under the same idempotency key. A send that fails becomes a send-email job of
// its own (retried with backoff; when it still fails, that case goes to a person with the reason)
// while the rest of the page goes on.
import { randomUUID } from "node:crypto";
import { emailsOnOpening } from "../agents/case-manager/open-from-audit.js";
import type { AgentDeps } from "../agents/deps.js";
import { createAgentModel } from "../agents/models/index.js";
import { OUTREACH_PROMPT_VERSION, type OutreachTask, outreachRules } from "../agents/outreach/agent.js";
import { initialRecipients, runOutreach } from "../agents/outreach/run-outreach.js";
import { coordinatorCc, outreachEmailKey } from "../agents/outreach/tools.js";
import {
  type AgentRunLogLine,
  type FinishedAgentRun,
  finishAgentRunsIn,
  type NewAgentRun,
  startAgentRunsIn,
} from "../data/agent-run-repository.js";
import { getCase } from "../data/case-repository.js";
import type { MessageRecord } from "../data/email-repository.js";
import { findEmployeeContacts } from "../data/employee-repository.js";
import {
  type Delivery,
  findFirstEmailCases,
  type OutboundDraft,
  recordDeliveries,
  storeOutboundDrafts,
} from "../data/first-email-repository.js";
import { inPgTransaction } from "../data/pg-pool.js";
import { findVanpoolSnapshotsOf } from "../data/vanpool-repository.js";
import { findLatestResultsOf } from "../data/verification-repository.js";
import { replyDeadline } from "../domain/case-lifecycle.js";
import { newId } from "../domain/ids.js";
import type { VanpoolSnapshot } from "../domain/snapshot.js";
import { outboundEmail } from "../integrations/email/email-service.js";
import { replyAddressFor, rfcMessageIdFor } from "../integrations/email/reply-address.js";
import type { JobEngine } from "../queue/engine.js";
import { caseJobRows } from "../queue/queues.js";
import { mapWithConcurrency } from "../verification/audit-service.js";

const ACTOR = "agent:outreach";

export interface FirstEmailsDone {
  /** Emails the provider accepted in this call. */
  sent: number;
  /** Emails whose send failed here, each now a send-email job of its own. */
  retrying: number;
}

export type FirstEmailJobs = Pick<JobEngine, "insert"> & Partial<Pick<JobEngine, "instanceId">>;

/** Sends the first emails of these cases (those still waiting for their riders' reply); `concurrency` sends at a time. */
export async function sendFirstEmails(
  deps: AgentDeps,
  jobs: FirstEmailJobs,
  caseIds: string[],
  concurrency: number,
): Promise<FirstEmailsDone> {
  if (!createAgentModel("outreach", deps.settings, outreachRules).isRules)
    return runOutreachPerCase(deps, caseIds, concurrency);
  const tasks = await initialTasks(deps, caseIds);
  const now = deps.now();
  const drafts = tasks.flatMap(({ task, van }) =>
    task.recipients.map((r): OutboundDraft => {
      const messageId = newId("message");
      return {
        case_id: task.case_id,
        vanpool_id: task.vanpool_id,
        message_id: messageId,
        rfc_message_id: rfcMessageIdFor(messageId, deps.settings.email.inboundAddress),
        thread_id: newId("thread"),
        from: deps.settings.email.from,
        to: [r.email],
        cc: coordinatorCc(van, deps.settings.email.ccCoordinator, r.email),
        subject: r.draft.subject,
        body: r.draft.body,
        idempotency_key: outreachEmailKey(task.case_id, task.task, task.reference, r.email),
      };
    }),
  );
  const threads = await storeOutboundDrafts(deps.pool, drafts, now);
  const keys = new Set(drafts.map((d) => d.idempotency_key));
  const pending = [...threads].flatMap(([caseId, thread]) =>
    thread.messages
      .filter((m) => m.idempotency_key && keys.has(m.idempotency_key))
      .filter((m) => m.status !== "sent" && m.status !== "discarded")
      .map((message) => ({ caseId, message, earlier: thread.messages })),
  );
  if (pending.length === 0) return { sent: 0, retrying: 0 };

  const waiting = new Set(pending.map((p) => p.caseId));
  const runs = new Map<string, NewAgentRun>();
  for (const { task } of tasks)
    if (waiting.has(task.case_id))
      runs.set(task.case_id, {
        id: randomUUID(),
        agent: "outreach",
        model: "rules",
        caseId: task.case_id,
        vanpoolId: task.vanpool_id,
        input: { prompt_version: OUTREACH_PROMPT_VERSION, ...task },
      });
  await inPgTransaction(deps.pool, (client) =>
    startAgentRunsIn(client, [...runs.values()], { instanceId: jobs.instanceId, now }),
  );
  try {
    const attempts = await mapWithConcurrency(pending, concurrency, async (p) => ({
      ...p,
      ...(await attempt(deps, p.message, p.earlier)),
    }));
    const deliveries: Delivery[] = attempts.flatMap((a) =>
      a.providerMessageId
        ? [
            {
              message_id: a.message.message_id,
              case_id: a.caseId,
              thread_id: a.message.thread_id,
              to: a.message.to,
              provider_message_id: a.providerMessageId,
            },
          ]
        : [],
    );
    const failed = attempts.filter((a) => a.error !== undefined);
    const finished = [...runs.values()].map((run) =>
      finishedRun(
        run,
        attempts.filter((a) => a.caseId === run.caseId),
      ),
    );
    await recordDeliveries(deps.pool, { deliveries, actor: ACTOR, now: deps.now() }, async (db, client, sentCases) => {
      const at = deps.now();
      await jobs.insert(
        [
          ...sentCases.map((caseId) => caseJobRows.replyTimeout(caseId, at, replyDeadline(at))),
          ...failed.map((f) => caseJobRows.sendEmail(f.message.message_id, ACTOR)),
        ],
        { db },
      );
      await finishAgentRunsIn(client, finished, at);
    });
    return { sent: deliveries.length, retrying: failed.length };
  } catch (error) {
    // Recorded nothing: the runs say so now rather than when a recovery finds them; the job is retried.
    const why = `The first emails could not be recorded: ${(error as Error).message}`;
    await inPgTransaction(deps.pool, (client) =>
      finishAgentRunsIn(
        client,
        [...runs.values()].map((run) => ({ id: run.id, status: "failed", output: null, error: why, logs: [] })),
        deps.now(),
      ),
    ).catch(() => {});
    throw error;
  }
}

interface InitialTask {
  task: OutreachTask;
  van: VanpoolSnapshot;
}

/** The Outreach Agent's initial task for each case still waiting for a reply, from a few reads for the whole page. */
async function initialTasks(deps: Pick<AgentDeps, "pool" | "prisma">, caseIds: string[]): Promise<InitialTask[]> {
  const cases = (await findFirstEmailCases(deps.pool, caseIds)).filter((c) => emailsOnOpening(c.status));
  const vanpoolIds = [...new Set(cases.map((c) => c.vanpool_id))];
  const [vans, results, contacts] = await Promise.all([
    findVanpoolSnapshotsOf(deps.pool, vanpoolIds),
    findLatestResultsOf(deps.pool, vanpoolIds),
    findEmployeeContacts(deps.prisma, [...new Set(cases.flatMap((c) => c.flagged))]),
  ]);
  const vanById = new Map(vans.map((v) => [v.vanpool_id, v]));
  return cases.flatMap((record) => {
    const van = vanById.get(record.vanpool_id);
    if (!van) return [];
    const flagged = contacts.filter((e) => record.flagged.includes(e.id));
    const task: OutreachTask = {
      task: "initial",
      case_id: record.case_id,
      vanpool_id: record.vanpool_id,
      reference: `r${record.re_audit_count}`,
      recipients: initialRecipients(record, van, results.get(record.vanpool_id) ?? {}, flagged),
    };
    return [{ task, van }];
  });
}

interface Attempt {
  providerMessageId?: string;
  error?: string;
  ms: number;
}

async function attempt(
  deps: Pick<AgentDeps, "sender" | "settings">,
  message: MessageRecord,
  earlier: MessageRecord[],
): Promise<Attempt> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  try {
    const { providerMessageId } = await deps.sender.send(
      outboundEmail(message, earlier, replyAddressFor(deps.settings.email.inboundAddress, message.thread_id)),
    );
    return { providerMessageId, ms: ms() };
  } catch (error) {
    return { error: (error as Error).message, ms: ms() };
  }
}

/** The run of one case: a send_email line per email, as the agent's logged tool calls read. */
function finishedRun(run: NewAgentRun, own: ({ message: MessageRecord } & Attempt)[]): FinishedAgentRun {
  const failed = own.filter((a) => a.error !== undefined);
  const logs = own.map((a): AgentRunLogLine => {
    const { message } = a;
    const args = { case_id: run.caseId, to: message.to[0], subject: message.subject, body: message.body };
    const outcome = a.error
      ? { error: `${a.error} (queued to be tried again)` }
      : { result: JSON.stringify({ sent: true, message_id: message.message_id, thread_id: message.thread_id }) };
    return {
      kind: "tool_call",
      message: "send_email",
      level: a.error ? "error" : "info",
      data: { tool: "send_email", args, ...outcome },
      durationMs: a.ms,
    };
  });
  const sent = own.length - failed.length;
  return {
    id: run.id,
    status: "succeeded",
    output: {
      final: `Sent ${sent} initial email(s).${failed.length ? ` ${failed.length} failed and will be tried again.` : ""}`,
    },
    error: null,
    logs,
  };
}

/** A configured model writes the emails: the Outreach Agent runs for each case in turn. */
async function runOutreachPerCase(deps: AgentDeps, caseIds: string[], concurrency: number): Promise<FirstEmailsDone> {
  const failures: string[] = [];
  let sent = 0;
  await mapWithConcurrency(caseIds, concurrency, async (caseId) => {
    try {
      if (!emailsOnOpening((await getCase(deps.prisma, caseId)).status)) return;
      if ((await runOutreach(deps, { case_id: caseId, purpose: "initial" })).sent) sent++;
    } catch (error) {
      failures.push(`${caseId}: ${(error as Error).message}`);
    }
  });
  // A retried job runs every case again: each email is keyed, so none goes twice.
  if (failures.length > 0)
    throw new Error(`First emails failed for ${failures.length} case(s): ${failures.join("; ")}`);
  return { sent, retrying: 0 };
}
