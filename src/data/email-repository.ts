// Email threads (one per case) and their messages (the quarantine for inbound mail that
// matches no thread or sender is in inbound-repository.ts).

import { type CaseStatus, CLOSED_STATUSES, type ReplyBucket } from "../domain/case-lifecycle.js";
import { newId } from "../domain/ids.js";
import { type AuditEventInput, recordEvent } from "./audit-log.js";
import { type SqlExecutor, transactionExecutor } from "./job-executor.js";
import type { PrismaClient } from "./prisma.js";

export interface MessageRecord {
  message_id: string;
  thread_id: string;
  direction: "inbound" | "outbound";
  from: string;
  to: string[];
  cc: string[];
  subject: string;
  body: string;
  status: string;
  bucket: ReplyBucket | null;
  confidence: number | null;
  rfc_message_id: string | null;
  /** Inbound: the reply without quoted history or signature. */
  reply_text: string | null;
  auto_reply: string | null;
  /** Inbound: when its handling finished; null while a redelivery should still read it. */
  read_at: Date | null;
  attachments: AttachmentRecord[];
  delivery_status: string | null;
  idempotency_key: string | null;
  at: Date;
}

export interface AttachmentRecord {
  filename: string;
  content_type: string;
  size: number;
}

export interface ThreadRecord {
  thread_id: string;
  case_id: string;
  vanpool_id: string;
  subject: string;
  messages: MessageRecord[];
}

export async function findThreadForCase(prisma: PrismaClient, caseId: string): Promise<ThreadRecord | undefined> {
  const row = await prisma.emailThread.findFirst({
    where: { caseId },
    orderBy: { createdAt: "asc" },
    include: { messages: { orderBy: { createdAt: "asc" } } },
  });
  return row ? toThread(row) : undefined;
}

export interface OpenThreadSummary {
  thread_id: string;
  case_id: string;
  vanpool_id: string;
  case_status: CaseStatus;
  /** Everyone the thread's outbound mail went to. */
  recipients: string[];
}

/** Threads of cases still open, the newest first. */
export async function listOpenCaseThreads(prisma: PrismaClient): Promise<OpenThreadSummary[]> {
  const threads = await prisma.emailThread.findMany({
    where: { case: { status: { notIn: [...CLOSED_STATUSES] } } },
    include: {
      case: { select: { status: true } },
      messages: { where: { direction: "outbound" }, select: { toAddresses: true } },
    },
    orderBy: { createdAt: "desc" },
  });
  return threads.map((t) => ({
    thread_id: t.id,
    case_id: t.caseId,
    vanpool_id: t.vanpoolId,
    case_status: t.case.status,
    recipients: [...new Set(t.messages.flatMap((m) => m.toAddresses))],
  }));
}

export async function findThread(prisma: PrismaClient, threadId: string): Promise<ThreadRecord | undefined> {
  const row = await prisma.emailThread.findUnique({
    where: { id: threadId },
    include: { messages: { orderBy: { createdAt: "asc" } } },
  });
  return row ? toThread(row) : undefined;
}

export async function ensureThread(
  prisma: PrismaClient,
  input: { caseId: string; vanpoolId: string; subject: string; now: Date },
): Promise<ThreadRecord> {
  const existing = await findThreadForCase(prisma, input.caseId);
  if (existing) return existing;
  // Parallel first emails race here; the unique case_id makes the loser read the winner's thread.
  await prisma.$executeRaw`INSERT INTO email_threads (id, case_id, vanpool_id, subject, status, created_at, updated_at)
    VALUES (${newId("thread")}, ${input.caseId}, ${input.vanpoolId}, ${input.subject}, 'active', ${input.now}, ${input.now})
    ON CONFLICT (case_id) DO NOTHING`;
  return (await findThreadForCase(prisma, input.caseId))!;
}

export async function findMessageByKey(
  prisma: PrismaClient,
  idempotencyKey: string,
): Promise<MessageRecord | undefined> {
  const row = await prisma.message.findUnique({ where: { idempotencyKey } });
  return row ? toMessage(row) : undefined;
}

export async function findMessage(prisma: PrismaClient, messageId: string): Promise<MessageRecord | undefined> {
  const row = await prisma.message.findUnique({ where: { id: messageId } });
  return row ? toMessage(row) : undefined;
}

export async function createOutbound(
  prisma: PrismaClient,
  input: {
    id: string;
    rfcMessageId: string;
    threadId: string;
    from: string;
    to: string[];
    cc: string[];
    subject: string;
    body: string;
    idempotencyKey: string;
    now: Date;
  },
): Promise<MessageRecord> {
  const row = await prisma.message.create({
    data: {
      id: input.id,
      rfcMessageId: input.rfcMessageId,
      threadId: input.threadId,
      direction: "outbound",
      fromAddress: input.from,
      toAddresses: input.to,
      ccAddresses: input.cc,
      subject: input.subject,
      body: input.body,
      status: "queued",
      idempotencyKey: input.idempotencyKey,
      createdAt: input.now,
    },
  });
  return toMessage(row);
}

/** The message went out: it is sent, and its case's reply clock starts now. */
/**
 * Records a delivered email, its audit event and (through `alsoInTransaction`) the jobs that follow
 * from it in one transaction: a crash leaves either none of them or all of them.
 */
export async function markSent(
  prisma: PrismaClient,
  input: { messageId: string; caseId: string; providerMessageId: string; now: Date; event: AuditEventInput },
  alsoInTransaction?: (db: SqlExecutor) => Promise<unknown>,
): Promise<void> {
  await prisma.$transaction(async (tx) => {
    await tx.message.update({
      where: { id: input.messageId },
      data: { status: "sent", providerMessageId: input.providerMessageId, sentAt: input.now },
    });
    await tx.case.update({ where: { id: input.caseId }, data: { lastOutboundAt: input.now } });
    await recordEvent(tx, input.event);
    await alsoInTransaction?.(transactionExecutor(tx));
  });
}

export async function markFailed(prisma: PrismaClient, messageId: string): Promise<void> {
  await prisma.message.updateMany({ where: { id: messageId, status: "queued" }, data: { status: "failed" } });
}

/** Employee ids for addresses, so people read "EMP-1028" rather than an email address. */
/**
 * Outbound emails of [since, until): sent (by when they left), those that could not be sent (queued then failed),
 * and those sent that the provider reported bounced.
 */
export async function countOutboundEmails(
  prisma: PrismaClient,
  since: Date,
  until?: Date,
): Promise<{ sent: number; failed: number; bounced: number }> {
  const within = { gte: since, ...(until ? { lt: until } : {}) };
  const [sent, failed, bounced] = await Promise.all([
    prisma.message.count({ where: { direction: "outbound", status: "sent", sentAt: within } }),
    prisma.message.count({ where: { direction: "outbound", status: "failed", createdAt: within } }),
    prisma.message.count({
      where: { direction: "outbound", status: "sent", sentAt: within, deliveryStatus: "bounced" },
    }),
  ]);
  return { sent, failed, bounced };
}

export async function employeeIdsFor(prisma: PrismaClient, addresses: string[]): Promise<string[]> {
  const rows = await prisma.employee.findMany({
    where: { OR: addresses.map((email) => ({ email: { equals: email, mode: "insensitive" as const } })) },
    select: { id: true },
  });
  return rows.map((r) => r.id);
}

export interface InboundDetails {
  /** A quarantined email assigned to a thread keeps its id. */
  id?: string;
  /** The received email's id at the provider (Resend's email_id). */
  providerMessageId?: string | null;
  rfcMessageId?: string | null;
  replyText?: string | null;
  autoReply?: string | null;
  attachments?: AttachmentRecord[];
}

/**
 * Keeps an inbound email once: `created` is false when the same email (by provider id or Message-ID)
 * was kept before, by a redelivery or another replica, and `message` is then the one kept first.
 */
export async function createInbound(
  prisma: PrismaClient,
  input: { threadId: string; from: string; to: string[]; subject: string; body: string; now: Date } & InboundDetails,
): Promise<{ message: MessageRecord; created: boolean }> {
  const id = input.id ?? newId("message");
  const { count } = await prisma.message.createMany({
    data: {
      id,
      providerMessageId: input.providerMessageId ?? null,
      rfcMessageId: input.rfcMessageId ?? null,
      replyText: input.replyText ?? null,
      autoReply: input.autoReply ?? null,
      attachments: (input.attachments ?? []) as object[],
      threadId: input.threadId,
      direction: "inbound",
      fromAddress: input.from,
      toAddresses: input.to,
      ccAddresses: [],
      subject: input.subject,
      body: input.body,
      status: "received",
      receivedAt: input.now,
      createdAt: input.now,
    },
    skipDuplicates: true,
  });
  const sameEmail = [
    { id },
    ...(input.providerMessageId ? [{ providerMessageId: input.providerMessageId }] : []),
    ...(input.rfcMessageId ? [{ rfcMessageId: input.rfcMessageId }] : []),
  ];
  const row = await prisma.message.findFirstOrThrow({ where: count === 1 ? { id } : { OR: sameEmail } });
  return { message: toMessage(row), created: count === 1 };
}

/**
 * Riders' replies kept before `receivedBefore` whose reading never finished (no read mark, not a machine's
 * answer) on cases still waiting for replies: Resend may have stopped delivering them again.
 */
export async function findStrandedReplies(
  prisma: PrismaClient,
  input: { receivedBefore: Date; limit: number },
): Promise<MessageRecord[]> {
  const rows = await prisma.message.findMany({
    where: {
      direction: "inbound",
      readAt: null,
      autoReply: null,
      receivedAt: { lt: input.receivedBefore },
      thread: { case: { status: "pending_reply" } },
    },
    orderBy: { receivedAt: "asc" },
    take: input.limit,
  });
  return rows.map(toMessage);
}

/** Stores a reply's classification with its audit event: a classified reply always has its event. */
export async function setClassification(
  prisma: PrismaClient,
  input: { messageId: string; bucket: ReplyBucket; confidence: number; event: AuditEventInput },
): Promise<void> {
  await prisma.$transaction(async (tx) => {
    await tx.message.update({
      where: { id: input.messageId },
      data: { bucket: input.bucket, confidence: input.confidence },
    });
    await recordEvent(tx, input.event);
  });
}

/** An inbound message's handling finished: a redelivery of the email finds it read. */
export async function markRead(prisma: PrismaClient, messageId: string, now: Date): Promise<void> {
  await prisma.message.updateMany({ where: { id: messageId, readAt: null }, data: { readAt: now } });
}

type ThreadRow = Awaited<ReturnType<PrismaClient["emailThread"]["findFirst"]>> & { messages: MessageRow[] };
type MessageRow = NonNullable<Awaited<ReturnType<PrismaClient["message"]["findUnique"]>>>;

function toThread(row: NonNullable<ThreadRow>): ThreadRecord {
  return {
    thread_id: row.id,
    case_id: row.caseId,
    vanpool_id: row.vanpoolId,
    subject: row.subject,
    messages: row.messages.map(toMessage),
  };
}

function toMessage(row: MessageRow): MessageRecord {
  return {
    message_id: row.id,
    thread_id: row.threadId,
    direction: row.direction,
    from: row.fromAddress,
    to: row.toAddresses,
    cc: row.ccAddresses,
    subject: row.subject,
    body: row.body,
    status: row.status,
    bucket: row.bucket,
    confidence: row.confidence,
    rfc_message_id: row.rfcMessageId,
    reply_text: row.replyText,
    auto_reply: row.autoReply,
    read_at: row.readAt,
    attachments: row.attachments as unknown as AttachmentRecord[],
    delivery_status: row.deliveryStatus,
    idempotency_key: row.idempotencyKey,
    at: row.sentAt ?? row.receivedAt ?? row.createdAt,
  };
}
