// Sends one case email exactly once per idempotency key: the message is stored
// before it is sent, a retry with the same key finds it, and the provider gets the
// same key too.
import type { Settings } from "../config/settings.js";
import { recordEvent } from "../data/audit-log.js";
import {
  createOutbound,
  ensureThread,
  findMessageByKey,
  type MessageRecord,
  markSent,
} from "../data/email-repository.js";
import type { PrismaClient } from "../data/prisma.js";
import { newId } from "../domain/ids.js";
import type { EmailSender } from "../integrations/email/email-sender.js";
import { addressOf, replyAddressFor, rfcMessageIdFor } from "../integrations/email/reply-address.js";

export interface EmailServiceDeps {
  prisma: PrismaClient;
  sender: EmailSender;
  from: string;
  /** The address replies come back to, plus-addressed per thread. */
  inboundAddress: string;
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
): Promise<{ message: MessageRecord; alreadySent: boolean }> {
  const existing = await findMessageByKey(deps.prisma, email.idempotencyKey);
  if (existing?.status === "sent") return { message: existing, alreadySent: true };
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
  const { providerMessageId } = await deps.sender.send({
    from: deps.from,
    to: message.to,
    cc: message.cc,
    subject: message.subject,
    text: message.body,
    messageId: message.message_id,
    replyTo: replyAddressFor(deps.inboundAddress, thread.thread_id),
    headers: threadingHeaders(message, thread.messages),
    idempotencyKey: email.idempotencyKey,
  });
  await markSent(deps.prisma, message.message_id, providerMessageId, email.now);
  await deps.prisma.case.update({ where: { id: email.caseId }, data: { lastOutboundAt: email.now } });
  await recordEvent(deps.prisma, {
    actor: email.actor,
    action: "email.sent",
    subjectType: "case",
    subjectId: email.caseId,
    at: email.now,
    details: { message_id: message.message_id, thread_id: thread.thread_id, to: message.to },
  });
  return { message: { ...message, status: "sent" }, alreadySent: false };
}

/** Message-ID, and In-Reply-To/References naming the earlier emails with the same rider. */
function threadingHeaders(message: MessageRecord, earlier: MessageRecord[]): Record<string, string> {
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
}) {
  return {
    prisma: deps.prisma,
    sender: deps.sender,
    from: deps.settings.email.from,
    inboundAddress: deps.settings.email.inboundAddress,
  };
}
