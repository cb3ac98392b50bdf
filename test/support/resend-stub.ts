// A local server speaking the part of Resend's API Pool Patrol uses: POST /emails
// (honouring idempotency keys as Resend does) and GET /emails/receiving/:id (the full
// text of a received email), plus signed webhook deliveries to Pool Patrol.

import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { ReceivedEmail } from "../../src/integrations/email/inbound/mailbox.js";
import { signResendWebhook } from "../../src/integrations/email/inbound/webhook-signature.js";

export const WEBHOOK_SECRET = `whsec_${Buffer.from("pool-patrol-test-webhook-secret").toString("base64")}`;

export interface ResendStub {
  baseUrl: string;
  /** Emails accepted (one per idempotency key). */
  sent: { id: string; idempotencyKey: string | undefined; body: Record<string, unknown> }[];
  /** GET /emails/receiving/:id calls, by id. */
  receivingGets: string[];
  /** The next `count` receiving GETs are answered together, once all have arrived (two replicas racing). */
  gateReceiving(count: number): void;
  failNext(status: number, message: string): void;
  /** Makes an inbound email available at the receiving API; returns its id. */
  receive(email: Partial<ReceivedEmail> & Pick<ReceivedEmail, "from" | "to" | "subject" | "text">): ReceivedEmail;
  /** The next `times` sends all fail this way (a longer outage). */
  failFor(times: number, status: number, message: string): void;
  /** Requests received, failed ones included. */
  attempts(): number;
  close(): Promise<void>;
}

export async function startResendStub(): Promise<ResendStub> {
  const sent: ResendStub["sent"] = [];
  const received = new Map<string, ReceivedEmail>();
  const receivingGets: string[] = [];
  let gate: { count: number; waiting: (() => void)[] } | undefined;
  let failure: { status: number; message: string; times: number } | undefined;
  let attempts = 0;
  const answerReceiving = (id: string, reply: (status: number, body: unknown) => void) => {
    const email = received.get(id);
    if (!email) return reply(404, { name: "not_found", message: "Email not found", statusCode: 404 });
    reply(200, {
      object: "email",
      created_at: new Date().toISOString(),
      bcc: null,
      reply_to: null,
      received_for: email.to,
      raw: null,
      ...email,
      attachments: email.attachments.map((a) => ({
        id: randomUUID(),
        content_id: null,
        content_disposition: "attachment",
        ...a,
      })),
    });
  };
  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      const reply = (status: number, body: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(body));
      };
      if (req.headers.authorization !== "Bearer re_test_key")
        return reply(401, { name: "validation_error", message: "API key is invalid", statusCode: 401 });
      const receiving = req.url?.match(/^\/emails\/receiving\/([^/?]+)/);
      if (req.method === "GET" && receiving) {
        receivingGets.push(receiving[1]!);
        const answer = () => answerReceiving(receiving[1]!, reply);
        if (!gate) return answer();
        gate.waiting.push(answer);
        if (gate.waiting.length < gate.count) return;
        const released = gate.waiting;
        gate = undefined;
        for (const held of released) held();
        return;
      }
      if (req.method !== "POST" || req.url !== "/emails")
        return reply(404, { name: "not_found", message: "Not found", statusCode: 404 });
      attempts++;
      if (failure) {
        const { status, message } = failure;
        if (--failure.times <= 0) failure = undefined;
        return reply(status, { name: "application_error", message, statusCode: status });
      }
      const key = req.headers["idempotency-key"] as string | undefined;
      const previous = key ? sent.find((s) => s.idempotencyKey === key) : undefined;
      if (previous) return reply(200, { id: previous.id });
      const email = { id: randomUUID(), idempotencyKey: key, body: JSON.parse(raw) as Record<string, unknown> };
      sent.push(email);
      reply(200, { id: email.id });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    sent,
    receivingGets,
    gateReceiving(count) {
      gate = { count, waiting: [] };
    },
    failNext(status, message) {
      failure = { status, message, times: 1 };
    },
    receive(partial) {
      const email: ReceivedEmail = {
        id: randomUUID(),
        cc: [],
        html: null,
        headers: {},
        message_id: `<${randomUUID()}@mail.example>`,
        attachments: [],
        ...partial,
      };
      received.set(email.id, email);
      return email;
    },
    failFor(times, status, message) {
      failure = times > 0 ? { status, message, times } : undefined;
    },
    attempts: () => attempts,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Posts a Resend event to Pool Patrol's webhook the way Resend does: svix-signed JSON. */
export async function postWebhook(
  url: string,
  event: { type: string; data: Record<string, unknown> },
  options: { secret?: string; id?: string; at?: Date; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const raw = JSON.stringify({ created_at: new Date().toISOString(), ...event });
  const signed = signResendWebhook(raw, options.secret ?? WEBHOOK_SECRET, { id: options.id, at: options.at });
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...signed, ...options.headers },
    body: raw,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** The email.received event for an email the stub holds. */
export function receivedEvent(email: ReceivedEmail) {
  return {
    type: "email.received",
    data: {
      email_id: email.id,
      created_at: new Date().toISOString(),
      from: email.from,
      to: email.to,
      cc: email.cc,
      bcc: [],
      received_for: email.to,
      message_id: email.message_id,
      subject: email.subject,
      attachments: [],
    },
  };
}
