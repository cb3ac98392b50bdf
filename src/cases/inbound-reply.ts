// The inbound email path, the same for Resend, the sandbox and `poolpatrol reply`:
// the webhook verifies the signature, records the event once per svix-id and hands it
// to processInboundEvent, which can run again safely (it is a job's body).
import type { AgentDeps } from "../agents/deps.js";
import { recordEvent } from "../data/audit-log.js";
import { withLease } from "../data/case-lease.js";
import { changeCase, getCase } from "../data/case-repository.js";
import { type AttachmentRecord, createInbound, findThread, type ThreadRecord } from "../data/email-repository.js";
import { findEmployeeByEmail } from "../data/employee-repository.js";
import {
  extendReplyDeadline,
  findKeptEmail,
  findMessageByRfcId,
  findSentMessageByProviderId,
  findWebhookEvent,
  type KeptEmail,
  markWebhookProcessed,
  type QuarantinedRecord,
  type QuarantineReason,
  quarantineEmail,
  recordDeliveryEvent,
  recordWebhookEvent,
} from "../data/inbound-repository.js";
import { canTransition, deadlineAfterReturn, statusInWords } from "../domain/case-lifecycle.js";
import { cleanStringsIn, cleanText } from "../domain/clean-text.js";
import { redactPersonalDetails } from "../domain/redaction.js";
import {
  createInboundMailbox,
  type InboundMailbox,
  type ReceivedEmail,
} from "../integrations/email/inbound/mailbox.js";
import { matchThread, wasWrittenTo } from "../integrations/email/inbound/thread-matcher.js";
import { webhookSecret } from "../integrations/email/inbound/webhook-secret.js";
import { verifyResendWebhook, WebhookSignatureError } from "../integrations/email/inbound/webhook-signature.js";
import { addressOf } from "../integrations/email/reply-address.js";
import { caseJobs } from "../queue/queues.js";
import { detectAutoReply } from "../replies/auto-reply.js";
import { extractReplyText } from "../replies/reply-text.js";
import type { CaseWorkflow } from "./case-workflow.js";

export interface InboundEmailOptions {
  workflow: Pick<CaseWorkflow, "receiveReply" | "resumeUnreadReply">;
  mailbox: InboundMailbox;
  /** The webhook's signing secret (see webhook-secret.ts), read when a webhook arrives. */
  secret: () => string | undefined;
  /** Posts a line for a person in the audit channel, once per `key`; no-op without Slack. */
  notify?: (text: string, key: string) => Promise<void>;
  /** A case changed (Slack keeps its alert in step). */
  onCaseChanged?: (caseId: string) => Promise<void>;
}

export interface InboundOutcome {
  outcome: string;
  case_id?: string;
  message_id?: string;
  quarantined?: QuarantineReason;
}

const DELIVERY_EVENTS = new Set(["email.delivered", "email.bounced", "email.complained", "email.delivery_delayed"]);

export function createInboundEmail(
  deps: Pick<AgentDeps, "jobs" | "now" | "pool" | "prisma" | "settings">,
  options: InboundEmailOptions,
) {
  /**
   * 401 for a bad, missing or stale signature (nothing recorded); 400 for a signed body that is no event
   * Pool Patrol can read (recorded as processed: a redelivery would fail the same way); 200 once
   * recorded and processed.
   */
  async function handleWebhook(request: {
    rawBody: string;
    headers: Record<string, string | string[] | undefined>;
  }): Promise<{ status: number; body: { error: string } | (InboundOutcome & { duplicate: boolean }) }> {
    let verified: ReturnType<typeof verifyResendWebhook>;
    try {
      verified = verifyResendWebhook(request.rawBody, request.headers, options.secret());
    } catch (error) {
      if (error instanceof WebhookSignatureError) {
        const unset = deps.settings.email.resend && !deps.settings.email.webhookSecret;
        const hint = unset ? " RESEND_WEBHOOK_SECRET is not set: copy it from the webhook's page in Resend." : "";
        return { status: 401, body: { error: `${error.message}${hint}` } };
      }
      throw error;
    }
    cleanStringsIn(verified.event);
    const problem = unreadableEvent(verified.event);
    if (problem) {
      await recordWebhookEvent(deps.prisma, {
        svixId: verified.svixId,
        type: "unreadable",
        payload: { body: cleanText(request.rawBody.slice(0, 2000)) },
        now: deps.now(),
      });
      await markWebhookProcessed(deps.prisma, verified.svixId, `Refused: ${problem}.`, deps.now());
      return {
        status: 400,
        body: { error: `Refused: ${problem}. The delivery is recorded and will not be processed.` },
      };
    }
    const isNew = await recordWebhookEvent(deps.prisma, {
      svixId: verified.svixId,
      type: verified.event.type,
      payload: verified.event,
      now: deps.now(),
    });
    // Processing failed before: the redelivery tries again; processed already: nothing more happens.
    const result = await processInboundEvent(verified.svixId);
    return { status: 200, body: { duplicate: !isNew, ...result } };
  }

  async function processInboundEvent(svixId: string): Promise<InboundOutcome> {
    return withLease(deps, `resend-event:${svixId}`, async () => {
      const event = await findWebhookEvent(deps.prisma, svixId);
      if (!event) return { outcome: `No webhook event ${svixId}.` };
      if (event.processed_at) return { outcome: event.outcome ?? "Already processed." };
      const data = (event.payload.data ?? {}) as Record<string, unknown>;
      const result =
        event.type === "email.received"
          ? await receiveEmail(String(data.email_id))
          : DELIVERY_EVENTS.has(event.type)
            ? await recordDelivery(event.type, data)
            : { outcome: `${event.type} is not used by Pool Patrol.` };
      await markWebhookProcessed(deps.prisma, svixId, result.outcome, deps.now());
      if (result.case_id) await options.onCaseChanged?.(result.case_id);
      return result;
    });
  }

  async function receiveEmail(emailId: string): Promise<InboundOutcome> {
    // Kept before (processing failed after keeping it, or the same email came under another svix-id).
    const kept = await findKeptEmail(deps.prisma, emailId);
    if (kept) return keptBefore(kept);
    // Kept under the id the event named, the one a redelivery names again.
    const email: ReceivedEmail = { ...cleanStringsIn(await options.mailbox.get(emailId)), id: emailId };
    const rfcMessageId = email.message_id ? `<${email.message_id.replace(/^<|>$/g, "")}>` : null;
    if (rfcMessageId) {
      const known = await findMessageByRfcId(deps.prisma, rfcMessageId);
      if (known) return { outcome: `Already recorded as ${known.message_id}.`, message_id: known.message_id };
    }
    const text = email.text ?? htmlToText(email.html ?? "");
    const attachments: AttachmentRecord[] = email.attachments.map((a) => ({
      filename: a.filename ?? "(unnamed)",
      content_type: a.content_type,
      size: a.size,
    }));
    const match = await matchThread(deps.prisma, email);
    const automatic = detectAutoReply({
      headers: email.headers,
      from: email.from,
      subject: email.subject,
      text,
      receivedAt: deps.now(),
    });
    const held = { ...email, headers: { ...email.headers, ...(rfcMessageId ? { "message-id": rfcMessageId } : {}) } };
    if (!match) return hold(held, text, attachments, "unknown thread");
    if (automatic.kind) return recordAutomatic(match.thread, email, text, automatic, rfcMessageId);
    if (!wasWrittenTo(match.thread, email.from))
      return hold(held, text, attachments, "sender not written to", match.thread);

    const result = await options.workflow.receiveReply({
      threadId: match.thread.thread_id,
      from: addressOf(email.from),
      subject: email.subject,
      body: text,
      details: { providerMessageId: emailId, rfcMessageId, replyText: extractReplyText(text).reply, attachments },
    });
    return {
      outcome: `Reply ${result.message_id} on ${match.thread.case_id} (matched by ${match.by}); the case is ${statusInWords(result.status)}. ${result.note}`,
      case_id: match.thread.case_id,
      message_id: result.message_id,
    };
  }

  async function keptBefore(kept: KeptEmail): Promise<InboundOutcome> {
    if (kept.kind === "message") {
      const read = await options.workflow.resumeUnreadReply(kept.message_id);
      return {
        outcome: read.handled
          ? `Reply ${kept.message_id} on ${kept.case_id}, kept before but not yet read, is read now; the case is ${statusInWords(read.status)}. ${read.note}`
          : `Already recorded as ${kept.message_id} on ${kept.case_id}.`,
        case_id: kept.case_id,
        message_id: kept.message_id,
      };
    }
    const reason = kept.email.reason as QuarantineReason;
    // The notice is posted once per key: this posts it only if the first attempt stopped before it.
    if (kept.email.status === "open") await announce(kept.email, reason);
    return { outcome: `Quarantined as ${kept.email.id}: ${reason}.`, message_id: kept.email.id, quarantined: reason };
  }

  async function hold(
    email: ReceivedEmail,
    text: string,
    attachments: AttachmentRecord[],
    reason: QuarantineReason,
    thread?: ThreadRecord,
  ): Promise<InboundOutcome> {
    const kept = await quarantineEmail(deps.prisma, {
      providerMessageId: email.id,
      from: addressOf(email.from),
      to: email.to,
      subject: email.subject,
      body: text,
      reason,
      headers: email.headers,
      attachments,
      threadId: thread?.thread_id,
      now: deps.now(),
    });
    await announce(kept, reason);
    return { outcome: `Quarantined as ${kept.id}: ${reason}.`, message_id: kept.id, quarantined: reason };
  }

  async function announce(kept: QuarantinedRecord, reason: QuarantineReason) {
    const caseId = kept.thread_id ? (await findThread(deps.prisma, kept.thread_id))?.case_id : undefined;
    const why =
      reason === "unknown thread"
        ? "it does not answer any email Pool Patrol sent"
        : `it came from someone Pool Patrol did not write to about ${caseId}`;
    await options.notify?.(
      `An email could not be matched to a case: ${why}. Subject: "${redactPersonalDetails(kept.subject ?? "")}". ` +
        `It is kept as ${kept.id}; a person can attach it to a thread or discard it with \`poolpatrol quarantine\`.`,
      `quarantine:${kept.id}`,
    );
  }

  async function recordAutomatic(
    thread: ThreadRecord,
    email: ReceivedEmail,
    text: string,
    automatic: ReturnType<typeof detectAutoReply>,
    rfcMessageId: string | null,
  ): Promise<InboundOutcome> {
    const now = deps.now();
    const { message, created } = await createInbound(deps.prisma, {
      threadId: thread.thread_id,
      from: addressOf(email.from),
      to: email.to,
      subject: email.subject,
      body: text,
      now,
      providerMessageId: email.id,
      rfcMessageId,
      autoReply: automatic.kind,
    });
    if (!created)
      return {
        outcome: `Already recorded as ${message.message_id} on ${thread.case_id}.`,
        case_id: thread.case_id,
        message_id: message.message_id,
      };
    const record = await getCase(deps.prisma, thread.case_id);
    let note = `Automatic ${automatic.kind?.replace("_", " ")} recorded on ${record.case_id}; not a rider's answer.`;
    if (automatic.kind === "out_of_office" && automatic.returnDate) {
      const until = deadlineAfterReturn(automatic.returnDate);
      await extendReplyDeadline(deps.prisma, record.case_id, until);
      if (deps.jobs && record.last_outbound_at)
        await caseJobs(deps.jobs).replyTimeout(record.case_id, record.last_outbound_at, until);
      note += ` The reply deadline moves to ${until.toISOString().slice(0, 10)} (back ${automatic.returnDate}).`;
    }
    if (automatic.kind === "bounce") note += ` ${await holdForBounce(record.case_id, thread.messages.at(-1)?.to[0])}`;
    await recordEvent(deps.prisma, {
      actor: "email",
      action: "reply.automatic",
      subjectType: "case",
      subjectId: record.case_id,
      at: now,
      details: { message_id: message.message_id, kind: automatic.kind, return_date: automatic.returnDate ?? null },
    });
    return { outcome: note, case_id: record.case_id, message_id: message.message_id };
  }

  async function recordDelivery(type: string, data: Record<string, unknown>): Promise<InboundOutcome> {
    const message = await findSentMessageByProviderId(deps.prisma, String(data.email_id));
    if (!message) return { outcome: `${type} for an email Pool Patrol did not send; ignored.` };
    const kind = type.replace(/^email\./, "");
    await recordDeliveryEvent(deps.prisma, {
      messageId: message.message_id,
      type: kind,
      detail: (data.bounce ?? data.complaint ?? {}) as object,
      occurredAt: new Date(String(data.created_at ?? deps.now().toISOString())),
    });
    const { case_id } = (await findThread(deps.prisma, message.thread_id))!;
    if (kind !== "bounced") return { outcome: `${message.message_id} ${kind}.`, case_id };
    return { outcome: `${message.message_id} bounced. ${await holdForBounce(case_id, message.to[0])}`, case_id };
  }

  /** A bounced email: a person fixes the address; no reply timeout runs meanwhile. */
  async function holdForBounce(caseId: string, address: string | undefined): Promise<string> {
    const employee = address ? await findEmployeeByEmail(deps.prisma, address) : undefined;
    const why = `email to ${employee?.id ?? "a rider"} bounced: fix the address`;
    const record = await getCase(deps.prisma, caseId);
    if (record.status === "hitl_review" || !canTransition(record.status, "hitl_review"))
      return `${caseId} stays ${statusInWords(record.status)}.`;
    await changeCase(deps.prisma, caseId, {
      status: "hitl_review",
      details: why,
      why,
      actor: "email:bounce",
      now: deps.now(),
    });
    return `${caseId} is now ${statusInWords("hitl_review")}: ${why}.`;
  }

  return { handleWebhook, processInboundEvent };
}

export type InboundEmail = ReturnType<typeof createInboundEmail>;

/** What makes a signed body no event to act on, if anything: not an object, no type, no data, no email id. */
function unreadableEvent(event: unknown): string | undefined {
  if (!event || typeof event !== "object" || Array.isArray(event)) return "the body is not a JSON object";
  const { type, data } = event as { type?: unknown; data?: unknown };
  if (typeof type !== "string" || type === "") return "the event has no type";
  if (!data || typeof data !== "object" || Array.isArray(data)) return "the event has no data object";
  const emailId = (data as { email_id?: unknown }).email_id;
  if ((type === "email.received" || DELIVERY_EVENTS.has(type)) && (typeof emailId !== "string" || emailId === ""))
    return `the ${type} event names no email_id`;
  return undefined;
}

function htmlToText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<\/p>/gi, "\n\n")
    .replace(/<[^>]+>/g, "")
    .replace(/&nbsp;/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .trim();
}

/** The inbound path as configured: Resend's receiving API or the local inbox, and the webhook secret. */
export function createConfiguredInboundEmail(
  deps: Pick<AgentDeps, "now" | "pool" | "prisma" | "settings">,
  options: Omit<InboundEmailOptions, "mailbox" | "secret">,
): InboundEmail {
  return createInboundEmail(deps, {
    ...options,
    mailbox: createInboundMailbox(deps.settings),
    secret: () => webhookSecret(deps.settings),
  });
}
