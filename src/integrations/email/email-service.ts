// Sends one case email exactly once per idempotency key: the message is stored
// before it is sent, a retry with the same key finds it, and the provider gets the
// same key too. With a job engine the send is a job (retried, then shown to people
// if it still fails); the reply clock starts only once the email really went out.

import type { Settings } from "../../config/settings.js";
import { getCase, handCaseToPerson } from "../../data/case-repository.js";
import {
  createOutbound,
  employeeIdsFor,
  ensureThread,
  findMessage,
  findMessageByKey,
  findThread,
  type MessageRecord,
  markFailed,
  markSent,
} from "../../data/email-repository.js";
import type { PrismaClient } from "../../data/prisma.js";
import { replyDeadline } from "../../domain/case-lifecycle.js";
import { newId } from "../../domain/ids.js";
import { caseJobs, type JobSender } from "../../queue/queues.js";
import type { EmailSender } from "./email-sender.js";
import { addressOf, replyAddressFor, rfcMessageIdFor } from "./reply-address.js";

export interface EmailServiceDeps {
  prisma: PrismaClient;
  sender: EmailSender;
  from: string;
  /** The address replies come back to, plus-addressed per thread. */
  inboundAddress: string;
  jobs?: JobSender;
}

export interface CaseEmail {
  caseId: string;
  vanpoolId: string;
  to: string[];
  cc?: string[];
  subject: string;
  body: string;
  idempotencyKey: string;
  actor: string;
  now: Date;
}

export async function sendCaseEmail(
  deps: EmailServiceDeps,
  email: CaseEmail,
): Promise<{ message: MessageRecord; alreadySent: boolean; queued: boolean }> {
  const existing = await findMessageByKey(deps.prisma, email.idempotencyKey);
  if (existing?.status === "sent") return { message: existing, alreadySent: true, queued: false };
  const thread = await ensureThread(deps.prisma, {
    caseId: email.caseId,
    vanpoolId: email.vanpoolId,
    subject: email.subject,
    now: email.now,
  });
  const id = newId("message");
  const message =
    existing ??
    (await createOutbound(deps.prisma, {
      id,
      rfcMessageId: rfcMessageIdFor(id, deps.inboundAddress),
      threadId: thread.thread_id,
      from: deps.from,
      to: email.to,
      cc: email.cc ?? [],
      subject: email.subject,
      body: email.body,
      idempotencyKey: email.idempotencyKey,
      now: email.now,
    }));
  if (deps.jobs) {
    await caseJobs(deps.jobs).sendEmail(message.message_id, email.actor);
    return { message, alreadySent: false, queued: true };
  }
  return {
    message: await deliverCaseEmail(deps, message.message_id, email.actor, email.now),
    alreadySent: false,
    queued: false,
  };
}

/** Hands a stored message to the provider (the send-email job). Safe to repeat. */
export async function deliverCaseEmail(
  deps: EmailServiceDeps,
  messageId: string,
  actor: string,
  now: Date,
): Promise<MessageRecord> {
  const message = await findMessage(deps.prisma, messageId);
  if (!message) throw new Error(`No message ${messageId}.`);
  // Sent already, or withheld (a removal notice whose cancellation was undone before it went).
  if (message.status === "sent" || message.status === "discarded") return message;
  const thread = (await findThread(deps.prisma, message.thread_id))!;
  const { providerMessageId } = await deps.sender.send(
    outboundEmail(message, thread.messages, replyAddressFor(deps.inboundAddress, thread.thread_id)),
  );
  const jobs = deps.jobs;
  await markSent(
    deps.prisma,
    {
      messageId,
      caseId: thread.case_id,
      providerMessageId,
      now,
      event: {
        actor,
        action: "email.sent",
        subjectType: "case",
        subjectId: thread.case_id,
        at: now,
        details: { message_id: message.message_id, thread_id: thread.thread_id, to: message.to },
      },
    },
    jobs && ((db) => caseJobs(jobs).replyTimeout(thread.case_id, now, replyDeadline(now), db)),
  );
  return { ...message, status: "sent" };
}

/** Message-ID, and In-Reply-To/References naming the earlier emails with the same rider. */
/** What the provider is asked to send for a stored message: its own ids, the thread's reply address and headers. */
export function outboundEmail(message: MessageRecord, earlier: MessageRecord[], replyTo: string) {
  return {
    from: message.from,
    to: message.to,
    cc: message.cc,
    subject: message.subject,
    text: message.body,
    messageId: message.message_id,
    replyTo,
    headers: threadingHeaders(message, earlier),
    idempotencyKey: message.idempotency_key ?? message.message_id,
  };
}

export function threadingHeaders(message: MessageRecord, earlier: MessageRecord[]): Record<string, string> {
  const rider = new Set(message.to.map(addressOf));
  const previous = earlier
    .filter((m) => m.message_id !== message.message_id && m.rfc_message_id)
    .filter((m) =>
      m.direction === "outbound" ? m.to.some((a) => rider.has(addressOf(a))) : rider.has(addressOf(m.from)),
    )
    .map((m) => m.rfc_message_id!);
  return {
    ...(message.rfc_message_id ? { "Message-ID": message.rfc_message_id } : {}),
    ...(previous.length ? { "In-Reply-To": previous.at(-1)!, References: previous.join(" ") } : {}),
  };
}

export function emailServiceDeps(deps: {
  prisma: PrismaClient;
  sender: EmailSender;
  settings: Pick<Settings, "email">;
  jobs?: JobSender;
}) {
  return {
    prisma: deps.prisma,
    sender: deps.sender,
    from: deps.settings.email.from,
    inboundAddress: deps.settings.email.inboundAddress,
    jobs: deps.jobs,
  };
}

/**
 * The email still failed after its retries: it is marked failed and the case goes to a
 * person with the reason, e.g. "email to EMP-1028 failed: 429 rate limited".
 */
export async function giveUpOnEmail(
  deps: EmailServiceDeps,
  messageId: string,
  error: string,
  now: Date,
): Promise<{ caseId: string; reason: string } | undefined> {
  const message = await findMessage(deps.prisma, messageId);
  if (!message || message.status === "sent") return undefined;
  await markFailed(deps.prisma, messageId);
  const thread = (await findThread(deps.prisma, message.thread_id))!;
  const riders = await employeeIdsFor(deps.prisma, message.to);
  const reason = `email to ${riders.join(", ") || "a rider"} failed: ${error}`;
  const record = await getCase(deps.prisma, thread.case_id);
  await handCaseToPerson(deps.prisma, record.case_id, {
    action: "email.failed",
    why: reason,
    details: { message_id: messageId },
    actor: "jobs",
    now,
  });
  return { caseId: record.case_id, reason };
}
