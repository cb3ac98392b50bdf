// Inbound email's own records: Resend webhook deliveries (one per svix-id), the
// quarantine of mail no thread or sender matches, and delivery events on sent messages.
import { newId } from "../domain/ids.js";
import type { AttachmentRecord, MessageRecord } from "./email-repository.js";
import { findMessage } from "./email-repository.js";
import type { PrismaClient } from "./prisma.js";

export interface WebhookEventRecord {
  svix_id: string;
  type: string;
  payload: Record<string, unknown>;
  processed_at: Date | null;
  outcome: string | null;
}

/** Keeps a verified delivery; false when this svix-id was already recorded. */
export async function recordWebhookEvent(
  prisma: PrismaClient,
  input: { svixId: string; type: string; payload: object; now: Date },
): Promise<boolean> {
  const inserted = await prisma.$executeRaw`INSERT INTO resend_webhook_events (svix_id, type, payload, received_at)
    VALUES (${input.svixId}, ${input.type}, ${JSON.stringify(input.payload)}::jsonb, ${input.now})
    ON CONFLICT (svix_id) DO NOTHING`;
  return inserted === 1;
}

export async function findWebhookEvent(prisma: PrismaClient, svixId: string): Promise<WebhookEventRecord | undefined> {
  const row = await prisma.resendWebhookEvent.findUnique({ where: { svixId } });
  return row
    ? {
        svix_id: row.svixId,
        type: row.type,
        payload: row.payload as Record<string, unknown>,
        processed_at: row.processedAt,
        outcome: row.outcome,
      }
    : undefined;
}

export async function markWebhookProcessed(prisma: PrismaClient, svixId: string, outcome: string, now: Date) {
  await prisma.resendWebhookEvent.update({ where: { svixId }, data: { processedAt: now, outcome } });
}

export interface QuarantinedRecord {
  id: string;
  thread_id: string | null;
  /** The received email's id at the provider (Resend's email_id). */
  provider_message_id: string | null;
  from: string;
  to: string[];
  subject: string | null;
  body: string;
  reason: string;
  headers: Record<string, string>;
  attachments: AttachmentRecord[];
  status: string;
  received_at: Date;
}

/** Why an email waits in quarantine for a person. */
export type QuarantineReason = "unknown thread" | "sender not written to";

/**
 * Keeps an email no thread or sender matches: the one writer of the quarantine, for the inbound
 * email path and for a reply handed to the workflow directly. With a provider id it is kept once:
 * a redelivery, or two replicas racing, read the row kept first.
 */
export async function quarantineEmail(
  prisma: PrismaClient,
  input: {
    providerMessageId?: string;
    from: string;
    to?: string[];
    subject?: string;
    body: string;
    reason: QuarantineReason;
    headers?: Record<string, string>;
    attachments?: AttachmentRecord[];
    threadId?: string;
    now: Date;
  },
): Promise<QuarantinedRecord> {
  // The same email again (a redelivery after processing failed) is the one kept the first time.
  const messageId = input.headers?.["message-id"];
  const kept =
    messageId &&
    (await prisma.quarantinedEmail.findFirst({ where: { headers: { path: ["message-id"], equals: messageId } } }));
  if (kept) return toQuarantined(kept);
  const data = {
    // A message id: assigning it to a thread later keeps the same id.
    id: newId("message"),
    providerMessageId: input.providerMessageId ?? null,
    threadId: input.threadId ?? null,
    fromAddress: input.from,
    toAddresses: input.to ?? [],
    subject: input.subject ?? null,
    body: input.body,
    reason: input.reason,
    headers: input.headers ?? {},
    attachments: (input.attachments ?? []) as object[],
    receivedAt: input.now,
  };
  if (!input.providerMessageId) return toQuarantined(await prisma.quarantinedEmail.create({ data }));
  await prisma.quarantinedEmail.createMany({ data, skipDuplicates: true });
  return toQuarantined(
    await prisma.quarantinedEmail.findUniqueOrThrow({ where: { providerMessageId: input.providerMessageId } }),
  );
}

export async function listQuarantined(prisma: PrismaClient, status = "open"): Promise<QuarantinedRecord[]> {
  const rows = await prisma.quarantinedEmail.findMany({ where: { status }, orderBy: { receivedAt: "asc" } });
  return rows.map(toQuarantined);
}

export async function findQuarantined(prisma: PrismaClient, id: string): Promise<QuarantinedRecord | undefined> {
  const row = await prisma.quarantinedEmail.findUnique({ where: { id } });
  return row ? toQuarantined(row) : undefined;
}

/** open -> assigned | discarded, once: false when someone else resolved it first. */
export async function resolveQuarantined(
  prisma: PrismaClient,
  input: { id: string; status: "assigned" | "discarded"; by: string; threadId?: string; now: Date },
): Promise<boolean> {
  const { count } = await prisma.quarantinedEmail.updateMany({
    where: { id: input.id, status: "open" },
    data: {
      status: input.status,
      resolvedBy: input.by,
      resolvedAt: input.now,
      ...(input.threadId ? { threadId: input.threadId } : {}),
    },
  });
  return count === 1;
}

type QuarantinedRow = NonNullable<Awaited<ReturnType<PrismaClient["quarantinedEmail"]["findUnique"]>>>;
function toQuarantined(row: QuarantinedRow): QuarantinedRecord {
  return {
    id: row.id,
    thread_id: row.threadId,
    provider_message_id: row.providerMessageId,
    from: row.fromAddress,
    to: row.toAddresses,
    subject: row.subject,
    body: row.body,
    reason: row.reason,
    headers: row.headers as Record<string, string>,
    attachments: row.attachments as unknown as AttachmentRecord[],
    status: row.status,
    received_at: row.receivedAt,
  };
}

export async function findMessageByRfcId(
  prisma: PrismaClient,
  rfcMessageId: string,
): Promise<MessageRecord | undefined> {
  const row = await prisma.message.findUnique({ where: { rfcMessageId }, select: { id: true } });
  return row ? findMessage(prisma, row.id) : undefined;
}

export async function findSentMessageByProviderId(
  prisma: PrismaClient,
  providerMessageId: string,
): Promise<MessageRecord | undefined> {
  const row = await prisma.message.findFirst({
    where: { providerMessageId, direction: "outbound" },
    select: { id: true },
  });
  return row ? findMessage(prisma, row.id) : undefined;
}

/** A received email kept before under the provider's id: a message on a thread, or held in quarantine. */
export type KeptEmail =
  | { kind: "message"; message_id: string; case_id: string }
  | { kind: "quarantined"; email: QuarantinedRecord };

export async function findKeptEmail(prisma: PrismaClient, providerMessageId: string): Promise<KeptEmail | undefined> {
  const message = await prisma.message.findFirst({
    where: { providerMessageId, direction: "inbound" },
    select: { id: true, thread: { select: { caseId: true } } },
  });
  if (message) return { kind: "message", message_id: message.id, case_id: message.thread.caseId };
  const held = await prisma.quarantinedEmail.findUnique({ where: { providerMessageId } });
  return held ? { kind: "quarantined", email: toQuarantined(held) } : undefined;
}

/** Threads that wrote to this address, newest email first. */
export async function findThreadIdsWrittenTo(prisma: PrismaClient, address: string): Promise<string[]> {
  const rows = await prisma.$queryRaw<{ thread_id: string }[]>`
    SELECT thread_id FROM messages
    WHERE direction = 'outbound'
      AND EXISTS (SELECT 1 FROM unnest(to_addresses || cc_addresses) a WHERE lower(a) = lower(${address}))
    GROUP BY thread_id ORDER BY max(created_at) DESC`;
  return rows.map((r) => r.thread_id);
}

export async function recordDeliveryEvent(
  prisma: PrismaClient,
  input: { messageId: string; type: string; detail: object; occurredAt: Date },
): Promise<void> {
  await prisma.$transaction([
    prisma.messageDeliveryEvent.create({
      data: { messageId: input.messageId, type: input.type, detail: input.detail, occurredAt: input.occurredAt },
    }),
    prisma.message.update({ where: { id: input.messageId }, data: { deliveryStatus: input.type } }),
  ]);
}

export async function listDeliveryEvents(prisma: PrismaClient, messageId: string) {
  const rows = await prisma.messageDeliveryEvent.findMany({ where: { messageId }, orderBy: { id: "asc" } });
  return rows.map((r) => ({ type: r.type, detail: r.detail as Record<string, unknown>, occurred_at: r.occurredAt }));
}

/** An out-of-office notice moves the case's reply deadline (never earlier). */
export async function extendReplyDeadline(prisma: PrismaClient, caseId: string, until: Date): Promise<void> {
  await prisma.case.updateMany({
    where: { id: caseId, OR: [{ replyExtendedUntil: null }, { replyExtendedUntil: { lt: until } }] },
    data: { replyExtendedUntil: until },
  });
}
