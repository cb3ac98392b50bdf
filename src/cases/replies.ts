import type { AgentDeps } from "../agents/deps.js";
import { recordEvent } from "../data/audit-log.js";
import { withLease } from "../data/case-lease.js";
import { type CaseRecord, getCase, handCaseToPerson } from "../data/case-repository.js";
import {
  createInbound,
  employeeIdsFor,
  findMessage,
  findStrandedReplies,
  findThread,
  type InboundDetails,
  type MessageRecord,
  markRead,
} from "../data/email-repository.js";
import { quarantineEmail } from "../data/inbound-repository.js";
import { isClosed, statusInWords } from "../domain/case-lifecycle.js";
import { replyReAuditKey } from "../domain/re-audit-pacing.js";
import { invalidInput, notFound } from "../errors.js";
import { wasWrittenTo } from "../integrations/email/inbound/thread-matcher.js";
import { addressOf } from "../integrations/email/reply-address.js";
import { type CaseManagerResult, type CaseManagerRunner, caseThreadId } from "./case-manager-run.js";

/** A reply not read this long after it came is read again by the clock (Resend may never deliver it again). */
const STRANDED_AFTER_MS = 10 * 60_000;
/** A reply still unreadable this long after it came goes to a person. */
const GIVE_UP_AFTER_MS = 60 * 60_000;

export interface ReplyResult extends Partial<CaseManagerResult> {
  message_id: string;
  handled: boolean;
  note: string;
}

export function createReplies(
  deps: Pick<AgentDeps, "now" | "pool" | "prisma" | "settings">,
  { runCaseManager, taskCase, changed }: CaseManagerRunner,
) {
  async function receiveReply(input: {
    threadId: string;
    from: string;
    body: string;
    subject?: string;
    /** What the inbound email path knows: Message-ID, the text without quotes, attachments. */
    details?: InboundDetails;
    /** A person attached this email to the thread (quarantine assign): the sender need not have been written to. */
    trustSender?: boolean;
  }): Promise<ReplyResult> {
    const now = deps.now();
    // The bare address, as the inbound email path passes it: "Name <Rider@X>" is rider@x.
    const from = addressOf(input.from);
    const thread = await findThread(deps.prisma, input.threadId);
    if (!thread) {
      const { id } = await quarantineEmail(deps.prisma, {
        threadId: input.threadId,
        from,
        subject: input.subject,
        body: input.body,
        reason: "unknown thread",
        now,
      });
      throw notFound(
        `No email thread ${input.threadId}. The message was kept in quarantine (${id}) for a person to look at.`,
      );
    }
    if (!input.trustSender && !wasWrittenTo(thread, from)) {
      const { id } = await quarantineEmail(deps.prisma, {
        threadId: input.threadId,
        from,
        subject: input.subject,
        body: input.body,
        reason: "sender not written to",
        now,
      });
      throw invalidInput(
        `${from} was not written to on ${input.threadId}. The message was kept in quarantine (${id}) for a person to look at.`,
      );
    }
    return withLease(deps, `vanpool:${thread.vanpool_id}`, async () => {
      const { message, created } = await createInbound(deps.prisma, {
        threadId: thread.thread_id,
        from,
        to: [deps.settings.email.from],
        subject: input.subject ?? `Re: ${thread.subject}`,
        body: input.body,
        now,
        ...input.details,
      });
      const record = await getCase(deps.prisma, thread.case_id);
      if (!created) return isUnread(message, record) ? readReply(record, message) : alreadyRecorded(record, message);
      if (record.status !== "pending_reply") {
        const action = isClosed(record.status) ? "reply.after_close" : "reply.held_for_human";
        await recordEvent(deps.prisma, {
          actor: `email:${from}`,
          action,
          subjectType: "case",
          subjectId: record.case_id,
          at: now,
          details: { message_id: message.message_id, status: record.status },
        });
        // Its handling ends here: it waits for a person, even if the case goes back to waiting for replies.
        await markRead(deps.prisma, message.message_id, now);
        const note = isClosed(record.status)
          ? `${record.case_id} is ${record.status}; the reply was recorded and flagged for a person. Nothing was reopened.`
          : `${record.case_id} is ${statusInWords(record.status)}; the reply was recorded for the person reviewing it.`;
        return {
          message_id: message.message_id,
          handled: false,
          note,
          case_id: record.case_id,
          status: record.status,
          outcome: record.outcome,
        };
      }
      return readReply(record, message);
    });
  }

  /**
   * Reads a reply kept before whose reading never finished (the process died, or the database failed, after the
   * email was stored or after it was classified): a redelivery of the email finishes it instead of leaving the
   * rider unanswered. Reading again repeats no effect: the stored classification is reused and emails are keyed.
   */
  async function resumeUnreadReply(messageId: string): Promise<ReplyResult> {
    const kept = await findMessage(deps.prisma, messageId);
    if (kept?.direction !== "inbound") throw notFound(`No inbound message ${messageId}.`);
    const thread = (await findThread(deps.prisma, kept.thread_id))!;
    return withLease(deps, `vanpool:${thread.vanpool_id}`, async () => {
      const message = (await findMessage(deps.prisma, messageId))!;
      const record = await getCase(deps.prisma, thread.case_id);
      return isUnread(message, record) ? readReply(record, message) : alreadyRecorded(record, message);
    });
  }

  /** A rider's reply the Case Manager has yet to finish reading: no read mark, and its case still waits for a reply. */
  function isUnread(message: MessageRecord, record: CaseRecord): boolean {
    return !message.auto_reply && message.read_at === null && record.status === "pending_reply";
  }

  /** The Case Manager reads the reply, then marks it read; runs under the vanpool's lease. */
  async function readReply(record: CaseRecord, message: MessageRecord): Promise<ReplyResult> {
    const result = await runCaseManager(
      {
        task: "reply",
        vanpool_id: record.vanpool_id,
        case: taskCase(record),
        reply: { message_id: message.message_id, from: message.from },
      },
      caseThreadId(record.case_id),
      replyReAuditKey(message.message_id),
    );
    await changed(record.case_id);
    await markRead(deps.prisma, message.message_id, deps.now());
    return { ...result, message_id: message.message_id, handled: true, note: result.reasoning };
  }

  function alreadyRecorded(record: CaseRecord, message: MessageRecord): ReplyResult {
    return {
      message_id: message.message_id,
      handled: false,
      note: `This email was already recorded as ${message.message_id}; nothing was done again.`,
      case_id: record.case_id,
      status: record.status,
      outcome: record.outcome,
    };
  }

  /**
   * Replies whose reading never finished and that Resend may no longer deliver again: each is read again; one
   * that still cannot be read an hour after it came goes to a person with the reason, so no reply waits unseen.
   */
  async function readStrandedReplies(now = deps.now()): Promise<{ read: number; toPerson: number }> {
    const stranded = await findStrandedReplies(deps.prisma, {
      receivedBefore: new Date(now.getTime() - STRANDED_AFTER_MS),
      limit: 50,
    });
    let read = 0;
    let toPerson = 0;
    for (const message of stranded) {
      try {
        if ((await resumeUnreadReply(message.message_id)).handled) read++;
      } catch (error) {
        if (now.getTime() - message.at.getTime() < GIVE_UP_AFTER_MS) continue;
        await handToPerson(message, (error as Error).message, now);
        toPerson++;
      }
    }
    return { read, toPerson };
  }

  async function handToPerson(message: MessageRecord, error: string, now: Date): Promise<void> {
    const thread = (await findThread(deps.prisma, message.thread_id))!;
    await withLease(deps, `vanpool:${thread.vanpool_id}`, async () => {
      const record = await getCase(deps.prisma, thread.case_id);
      const current = await findMessage(deps.prisma, message.message_id);
      if (!current || !isUnread(current, record)) return;
      const riders = (await employeeIdsFor(deps.prisma, [message.from])).join(", ") || "a rider";
      const reason = `the reply from ${riders} could not be read automatically (${error}): a person should read it`;
      await handCaseToPerson(deps.prisma, record.case_id, {
        action: "reply.unreadable",
        why: reason,
        details: { message_id: message.message_id },
        actor: "scheduler",
        now,
      });
      await markRead(deps.prisma, message.message_id, now);
    });
    await changed(thread.case_id);
  }

  return { receiveReply, resumeUnreadReply, readStrandedReplies };
}
