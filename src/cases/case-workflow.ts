// What the CLI, Slack and the jobs call: audit a vanpool, take in a rider's reply, run due
// timeouts, and carry out human decisions, each in its own module. Each operation on a case
// runs under a lease on its vanpool, so two processes never work the same case at once. With a
// job engine, a decision is recorded together with the job that carries it out, and every
// change to a case queues a Slack sync for it.
import type { AgentDeps } from "../agents/deps.js";
import { listUnappliedDecisions } from "../data/approval-repository.js";
import { casesAwaitingReply } from "../data/case-repository.js";
import { isReplyOverdue } from "../domain/case-lifecycle.js";
import { createAudit } from "./audit.js";
import { type CaseManagerResult, createCaseManagerRunner } from "./case-manager-run.js";
import { createDecisions, type DecisionResult } from "./decisions.js";
import { createExceptions } from "./exceptions.js";
import { createFollowUps } from "./follow-ups.js";
import { createReplies } from "./replies.js";
import { createTimeouts } from "./timeouts.js";

export function createCaseWorkflow(deps: AgentDeps) {
  const run = createCaseManagerRunner(deps);
  const { auditVanpool } = createAudit(deps, run);
  const { receiveReply, resumeUnreadReply, readStrandedReplies } = createReplies(deps, run);
  const { replyTimeout } = createTimeouts(deps, run);
  const exceptions = createExceptions(deps);
  const { decide, decideRider, applyDecision } = createDecisions(deps, run, exceptions);
  const { draftFollowUp } = createFollowUps(deps, run);

  /** Runs what is due: decisions not yet carried out, replies whose reading never finished, then reply timeouts. */
  async function tick(now = deps.now()): Promise<{
    applied: DecisionResult[];
    stranded: Awaited<ReturnType<typeof readStrandedReplies>>;
    timeouts: CaseManagerResult[];
  }> {
    const applied: DecisionResult[] = [];
    for (const approval of await listUnappliedDecisions(deps.prisma)) applied.push(await applyDecision(approval));
    const stranded = await readStrandedReplies(now);
    const timeouts: CaseManagerResult[] = [];
    for (const record of await casesAwaitingReply(deps.prisma)) {
      if (isReplyOverdue(record.status, record.last_outbound_at, now, record.reply_extended_until))
        timeouts.push(await replyTimeout(record.case_id, now));
    }
    return { applied, stranded, timeouts };
  }

  return {
    auditVanpool,
    receiveReply,
    resumeUnreadReply,
    readStrandedReplies,
    tick,
    replyTimeout,
    decide,
    decideRider,
    applyDecision,
    draftFollowUp,
    exceptions,
  };
}

export type CaseWorkflow = ReturnType<typeof createCaseWorkflow>;
