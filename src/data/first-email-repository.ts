// The first emails of a sweep page's new cases, a page at a time over pg: the cases read,
// their threads and messages stored, and the deliveries recorded in a handful of statements
// whatever the page's size (one Prisma call per case and email cost more CPU than the sweep).
import type pg from "pg";
import type { CaseStatus } from "../domain/case-lifecycle.js";
import type { CheckKind } from "../domain/specialist-result.js";
import type { MessageRecord } from "./email-repository.js";
import { pgExecutor, type SqlExecutor } from "./job-executor.js";
import { inPgTransaction } from "./pg-pool.js";

export interface FirstEmailCase {
  case_id: string;
  vanpool_id: string;
  status: CaseStatus;
  failed_checks: CheckKind[];
  flagged: string[];
  re_audit_count: number;
}

export async function findFirstEmailCases(pool: pg.Pool, caseIds: string[]): Promise<FirstEmailCase[]> {
  const { rows } = await pool.query<FirstEmailCase>(
    `SELECT id AS case_id, vanpool_id, status::text AS status, COALESCE(failed_checks, '{}') AS failed_checks,
            ARRAY(SELECT jsonb_array_elements_text(COALESCE(meta->'flagged', '[]'))) AS flagged, re_audit_count
       FROM cases WHERE id = ANY($1::text[]) ORDER BY id`,
    [caseIds],
  );
  return rows;
}

/** An email to store (if its key is new) in its case's thread (made if the case has none). */
export interface OutboundDraft {
  case_id: string;
  vanpool_id: string;
  /** Used only when the message is new. */
  message_id: string;
  rfc_message_id: string;
  /** Used only when the case has no thread yet. */
  thread_id: string;
  from: string;
  to: string[];
  cc: string[];
  subject: string;
  body: string;
  idempotency_key: string;
}

/** What a page's emails are, once stored: each case's thread with every message in it (the earlier ones included). */
export type CaseThreads = Map<string, { thread_id: string; messages: MessageRecord[] }>;

/**
 * Stores the drafts as queued messages, each once per idempotency key (a retried page finds the ones
 * it stored before, sent or not), in one transaction; returns the cases' threads as they now are.
 */
export async function storeOutboundDrafts(pool: pg.Pool, drafts: OutboundDraft[], now: Date): Promise<CaseThreads> {
  const caseIds = [...new Set(drafts.map((d) => d.case_id))];
  if (caseIds.length === 0) return new Map();
  const at = now.toISOString();
  return inPgTransaction(pool, async (client) => {
    // One thread per case: parallel writers (a reply, another worker) lose to the first on its unique case_id.
    await client.query(
      `INSERT INTO email_threads (id, case_id, vanpool_id, subject, status, created_at, updated_at)
       SELECT DISTINCT ON (d.case_id) d.thread_id, d.case_id, d.vanpool_id, d.subject, 'active',
              $2::timestamptz AT TIME ZONE 'UTC', $2::timestamptz AT TIME ZONE 'UTC'
         FROM jsonb_to_recordset($1::jsonb) AS d(thread_id text, case_id text, vanpool_id text, subject text)
       ON CONFLICT (case_id) DO NOTHING`,
      [JSON.stringify(drafts), at],
    );
    await client.query(
      `INSERT INTO messages (id, rfc_message_id, thread_id, direction, from_address, to_addresses, cc_addresses,
                             subject, body, status, idempotency_key, created_at)
       SELECT d.message_id, d.rfc_message_id, t.id, 'outbound', d."from",
              ARRAY(SELECT jsonb_array_elements_text(d."to")), ARRAY(SELECT jsonb_array_elements_text(d.cc)),
              d.subject, d.body, 'queued', d.idempotency_key, $2::timestamptz AT TIME ZONE 'UTC'
         FROM jsonb_to_recordset($1::jsonb) AS d(message_id text, rfc_message_id text, case_id text, "from" text,
                                                  "to" jsonb, cc jsonb, subject text, body text, idempotency_key text)
         JOIN email_threads t ON t.case_id = d.case_id
       ON CONFLICT (idempotency_key) DO NOTHING`,
      [JSON.stringify(drafts), at],
    );
    return threadsOf(client, caseIds);
  });
}

async function threadsOf(client: pg.PoolClient, caseIds: string[]): Promise<CaseThreads> {
  const { rows } = await client.query<{ case_id: string; thread_id: string } & Partial<MessageRow>>(
    `SELECT t.case_id, t.id AS thread_id, m.id AS message_id, m.direction::text AS direction, m.from_address,
            m.to_addresses, m.cc_addresses, m.subject, m.body, m.status::text AS status, m.rfc_message_id,
            m.idempotency_key
       FROM email_threads t LEFT JOIN messages m ON m.thread_id = t.id
      WHERE t.case_id = ANY($1::text[])
      ORDER BY t.case_id, m.created_at, m.id`,
    [caseIds],
  );
  const threads: CaseThreads = new Map();
  for (const { case_id, thread_id, ...message } of rows) {
    const thread = threads.get(case_id) ?? { thread_id, messages: [] };
    threads.set(case_id, thread);
    if (message.message_id) thread.messages.push(toMessage(thread_id, message as MessageRow));
  }
  return threads;
}

interface MessageRow {
  message_id: string;
  direction: "inbound" | "outbound";
  from_address: string;
  to_addresses: string[] | null;
  cc_addresses: string[] | null;
  subject: string;
  body: string;
  status: string;
  rfc_message_id: string | null;
  idempotency_key: string | null;
}

/** The fields a delivery needs; the rest of a MessageRecord (reply parts, delivery events) does not apply here. */
function toMessage(threadId: string, row: MessageRow): MessageRecord {
  return {
    message_id: row.message_id,
    thread_id: threadId,
    direction: row.direction,
    from: row.from_address,
    to: row.to_addresses ?? [],
    cc: row.cc_addresses ?? [],
    subject: row.subject,
    body: row.body,
    status: row.status,
    bucket: null,
    confidence: null,
    rfc_message_id: row.rfc_message_id,
    reply_text: null,
    auto_reply: null,
    read_at: null,
    attachments: [],
    delivery_status: null,
    idempotency_key: row.idempotency_key,
    at: new Date(0),
  };
}

export interface Delivery {
  message_id: string;
  case_id: string;
  thread_id: string;
  to: string[];
  provider_message_id: string;
}

/**
 * Records emails the provider accepted, as `markSent` does for one: each message sent, its case's
 * reply clock started, one `email.sent` event per message, with `alsoInTransaction` (the jobs that
 * follow) in the same transaction. A message recorded as sent already (a retried page) is left as it
 * is and gets no second event; returns the cases whose emails this call recorded.
 */
export async function recordDeliveries(
  pool: pg.Pool,
  input: { deliveries: Delivery[]; actor: string; now: Date },
  alsoInTransaction: (db: SqlExecutor, client: pg.PoolClient, sentCases: string[]) => Promise<unknown>,
): Promise<string[]> {
  const at = input.now.toISOString();
  return inPgTransaction(pool, async (client) => {
    const { rows } = await client.query<{ id: string }>(
      `UPDATE messages m SET status = 'sent', provider_message_id = d.provider_message_id,
              sent_at = $2::timestamptz AT TIME ZONE 'UTC'
         FROM jsonb_to_recordset($1::jsonb) AS d(message_id text, provider_message_id text)
        WHERE m.id = d.message_id AND m.status <> 'sent'
       RETURNING m.id`,
      [JSON.stringify(input.deliveries), at],
    );
    const recorded = new Set(rows.map((r) => r.id));
    const sent = input.deliveries.filter((d) => recorded.has(d.message_id));
    const sentCases = [...new Set(sent.map((d) => d.case_id))];
    if (sent.length > 0) {
      await client.query(
        `UPDATE cases SET last_outbound_at = $2::timestamptz AT TIME ZONE 'UTC',
                updated_at = $2::timestamptz AT TIME ZONE 'UTC'
          WHERE id = ANY($1::text[])`,
        [sentCases, at],
      );
      await client.query(
        `INSERT INTO audit_events (actor, action, subject_type, subject_id, details, created_at)
         SELECT $2, 'email.sent', 'case', d.case_id,
                jsonb_build_object('message_id', d.message_id, 'thread_id', d.thread_id, 'to', d."to"),
                $3::timestamptz AT TIME ZONE 'UTC'
           FROM jsonb_to_recordset($1::jsonb) AS d(message_id text, thread_id text, case_id text, "to" jsonb)`,
        [JSON.stringify(sent), input.actor, at],
      );
    }
    await alsoInTransaction(pgExecutor(client), client, sentCases);
    return sentCases;
  });
}
