// run_outreach: prepares the Outreach Agent's task from the case (recipients,
// drafts from templates, policy sections for a question), runs it on the case's
// outreach thread, and turns an interrupted draft into an approval request.
import { randomUUID } from "node:crypto";
import { createApproval, listApprovals } from "../../data/approval-repository.js";
import { type CaseRecord, getCase } from "../../data/case-repository.js";
import { findMessage, findThreadForCase } from "../../data/email-repository.js";
import { type EmployeeContact, findEmployeeByEmail, findEmployeeContacts } from "../../data/employee-repository.js";
import { findVanpoolSnapshot } from "../../data/vanpool-repository.js";
import { findLatestResults, type LatestResults } from "../../data/verification-repository.js";
import type { VanpoolSnapshot } from "../../domain/snapshot.js";
import { notFound } from "../../errors.js";
import { unreadReason } from "../../replies/classifier.js";
import type { AgentDeps } from "../deps.js";
import { runAgentTurn } from "../run-agent.js";
import { createOutreachAgent, type OutreachDeps, type OutreachTask } from "./agent.js";
import { loadPolicy, retrievePolicy } from "./policy.js";
import { riderFacts } from "./rider-facts.js";
import {
  confirmationEmail,
  escalationDraft,
  followUpEmail,
  initialEmail,
  questionAnswerEmail,
  reminderEmail,
  reviewClosedEmail,
  unreadReplyDraft,
} from "./templates.js";
import { storedLanguage } from "./tools.js";

export type OutreachPurpose = "initial" | "reply" | "confirmation" | "follow_up" | "draft_follow_up";

export interface OutreachInput {
  case_id: string;
  purpose: OutreachPurpose;
  message_id?: string;
  /** draft_follow_up: the flagged rider the draft is for. */
  employee_id?: string;
}

export interface OutreachResult {
  email_thread_id: string | null;
  message_id: string | null;
  bucket: string | null;
  hitl_required: boolean;
  sent: boolean;
  approval_id?: string;
}

const policySections = loadPolicy();
const unique = (riders: EmployeeContact[]) => riders.filter((r, i) => riders.findIndex((o) => o.id === r.id) === i);

export function outreachThreadId(caseId: string): string {
  return `outreach:${caseId}`;
}

/** The latest results limited to the checks that fail for this rider and are still open on the case. */
export function ownFailingResults(
  employeeId: string,
  failedChecks: readonly string[],
  results: Awaited<ReturnType<typeof findLatestResults>>,
): Parameters<typeof riderFacts>[2] {
  const own: Parameters<typeof riderFacts>[2] = {};
  for (const check of ["location", "shift"] as const) {
    const result = results[check];
    if (result && failedChecks.includes(check) && result.flagged.includes(employeeId)) own[check] = result;
  }
  return own;
}

/** The initial task's recipients: each flagged rider with their draft, told only their own failing facts. */
export function initialRecipients(
  record: Pick<CaseRecord, "failed_checks">,
  van: VanpoolSnapshot,
  results: LatestResults,
  flagged: EmployeeContact[],
): OutreachTask["recipients"] {
  return flagged.map((e) =>
    recipientDraft(
      e,
      initialEmail(
        riderFacts(
          van,
          { employee_id: e.id, first_name: e.firstName },
          ownFailingResults(e.id, record.failed_checks, results),
        ),
      ),
    ),
  );
}

function recipientDraft(e: EmployeeContact, draft: { subject: string; body: string }) {
  return { employee_id: e.id, email: e.email, first_name: e.firstName, draft };
}

export async function runOutreach(deps: OutreachDeps, input: OutreachInput): Promise<OutreachResult> {
  const waiting = await draftWaitingForReply(deps, input);
  if (waiting) return waiting;
  return runOutreachTask(deps, input, await prepareOutreach(deps, input), outreachThreadId(input.case_id));
}

/**
 * A reply read again whose first reading held a drafted answer for a person (and stopped before the case said so):
 * the same draft keeps waiting; no second one is drafted.
 */
async function draftWaitingForReply(
  deps: Pick<AgentDeps, "prisma">,
  input: OutreachInput,
): Promise<OutreachResult | undefined> {
  if (input.purpose !== "reply" || !input.message_id) return undefined;
  const pending = await listApprovals(deps.prisma, { caseId: input.case_id, status: "pending" });
  const draft = pending.find((a) => a.kind === "escalation_reply" && a.payload.reply_message_id === input.message_id);
  if (!draft) return undefined;
  const reply = await findMessage(deps.prisma, input.message_id);
  return {
    email_thread_id: reply?.thread_id ?? null,
    message_id: null,
    bucket: reply?.bucket ?? null,
    hitl_required: true,
    sent: false,
    approval_id: draft.approval_id,
  };
}

/**
 * A follow-up to one flagged rider, asked for by an approver: drafted and held for approval
 * (an approval request), never sent from here. Each draft runs on a thread of its own, so it
 * never resumes or disturbs the case's outreach thread.
 */
export async function draftFollowUp(deps: OutreachDeps, caseId: string, employeeId: string): Promise<OutreachResult> {
  const input: OutreachInput = { case_id: caseId, purpose: "draft_follow_up", employee_id: employeeId };
  const threadId = `${outreachThreadId(caseId)}:follow-up:${randomUUID().slice(0, 8)}`;
  return runOutreachTask(deps, input, await prepareOutreach(deps, input), threadId);
}

/** The Outreach Agent's task for a case: recipients with their drafts, or the reply to handle. */
async function prepareOutreach(deps: Pick<AgentDeps, "prisma">, input: OutreachInput) {
  const record = await getCase(deps.prisma, input.case_id);
  const van = await findVanpoolSnapshot(deps.prisma, record.vanpool_id);
  if (!van) throw notFound(`No vanpool ${record.vanpool_id}.`);
  const results = await findLatestResults(deps.prisma, record.vanpool_id);
  const flagged = await findEmployeeContacts(deps.prisma, record.flagged);
  const reply = input.message_id ? await findMessage(deps.prisma, input.message_id) : undefined;
  if (input.message_id && !reply) throw notFound(`No message ${input.message_id}.`);
  const sender = reply ? await findEmployeeByEmail(deps.prisma, reply.from) : undefined;
  const facts = (e: EmployeeContact, checks: readonly string[] = record.failed_checks) =>
    riderFacts(van, { employee_id: e.id, first_name: e.firstName }, ownFailingResults(e.id, checks, results));

  const task: OutreachTask = {
    task: input.purpose,
    case_id: record.case_id,
    vanpool_id: record.vanpool_id,
    // A confirmation or follow-up a reply asked for is sent once per reply, even if the reply is read twice.
    reference: input.message_id ?? `r${record.re_audit_count}`,
    recipients: [],
  };
  if (input.purpose === "initial") {
    task.recipients = initialRecipients(record, van, results, flagged);
  } else if (input.purpose === "confirmation") {
    // Every check passes now: thank the rider who wrote, tell the others the review is closed.
    task.recipients = unique([...(sender ? [sender] : []), ...flagged]).map((e) =>
      recipientDraft(e, e.id === sender?.id ? confirmationEmail(facts(e, [])) : reviewClosedEmail(facts(e, []))),
    );
  } else if (input.purpose === "draft_follow_up") {
    const rider = flagged.find((e) => e.id === input.employee_id);
    if (!rider) throw notFound(`${input.employee_id} is not a flagged rider on ${record.case_id}.`);
    task.recipients = [recipientDraft(rider, reminderEmail(facts(rider)))];
  } else if (input.purpose === "follow_up") {
    // Only the rider who wrote hears back: still failing with their own facts, or fixed.
    const stillFlagged = sender ? flagged.some((e) => e.id === sender.id) : false;
    task.recipients = sender
      ? [recipientDraft(sender, stillFlagged ? followUpEmail(facts(sender)) : confirmationEmail(facts(sender, [])))]
      : flagged.map((e) => recipientDraft(e, followUpEmail(facts(e))));
  } else {
    if (!reply) throw notFound("A reply task needs the reply's message id.");
    const firstName = sender?.firstName ?? "there";
    const question = reply.reply_text ?? reply.body;
    const sections = retrievePolicy(policySections, question);
    task.reference = reply.message_id;
    task.reply = {
      message_id: reply.message_id,
      from: reply.from,
      body: question,
      policy_sections: sections,
      answer_draft: questionAnswerEmail({ first_name: firstName, vanpool_id: record.vanpool_id }, sections),
      escalation_draft: escalationDraft({ first_name: firstName, vanpool_id: record.vanpool_id }),
      unread_draft: unreadReplyDraft({ first_name: firstName, vanpool_id: record.vanpool_id }),
    };
  }
  return { record, task, reply };
}

async function runOutreachTask(
  deps: OutreachDeps,
  input: OutreachInput,
  { record, task, reply }: Awaited<ReturnType<typeof prepareOutreach>>,
  threadId: string,
): Promise<OutreachResult> {
  const turn = await runAgentTurn(deps, {
    ...createOutreachAgent(deps),
    threadId,
    caseId: record.case_id,
    vanpoolId: record.vanpool_id,
    task: task as unknown as Record<string, unknown>,
  });
  const thread = await findThreadForCase(deps.prisma, record.case_id);
  const classified = input.message_id ? await findMessage(deps.prisma, input.message_id) : undefined;
  const lastSent = thread?.messages.filter((m) => m.direction === "outbound" && m.status === "sent").at(-1);
  const result: OutreachResult = {
    email_thread_id: thread?.thread_id ?? null,
    message_id: turn.toolCalls.includes("send_email") ? (lastSent?.message_id ?? null) : null,
    bucket: classified?.bucket ?? null,
    hitl_required: Boolean(turn.interrupt),
    sent: turn.toolCalls.includes("send_email"),
  };
  if (turn.interrupt) {
    const draft = turn.interrupt.actionRequests[0]!;
    const approval = await createApproval(deps.prisma, {
      kind: "escalation_reply",
      caseId: record.case_id,
      graphThreadId: threadId,
      interruptId: turn.interrupt.id,
      actor: "agent:outreach",
      now: deps.now(),
      payload: {
        ...draft.args,
        tool: draft.name,
        reply_message_id: input.message_id ?? null,
        reply_body: reply?.body ?? null,
        reply_attachments: reply?.attachments ?? [],
        reply_reason: input.message_id ? await languageReason(deps, record.case_id, input.message_id) : null,
      },
    });
    result.approval_id = approval.approval_id;
  }
  return result;
}

/**
 * What the approval card says of a reply not in English: "reply in Korean: a person should read it" when nothing could
 * read it, "reply in Korean" when a configured model did; null for English.
 */
async function languageReason(
  deps: Pick<AgentDeps, "prisma">,
  caseId: string,
  messageId: string,
): Promise<string | null> {
  const { language, unread } = await storedLanguage(deps, caseId, messageId);
  if (!language) return null;
  return unread ? unreadReason(language) : `reply in ${language}`;
}
