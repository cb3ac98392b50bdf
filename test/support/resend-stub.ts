// A local server speaking the part of Resend's API Pool Patrol uses (POST /emails),
// honouring idempotency keys as Resend does.

import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface ResendStub {
  baseUrl: string;
  /** Emails accepted (one per idempotency key). */
  sent: { id: string; idempotencyKey: string | undefined; body: Record<string, unknown> }[];
  failNext(status: number, message: string): void;
  /** The next `times` sends all fail this way (a longer outage). */
  failFor(times: number, status: number, message: string): void;
  /** Requests received, failed ones included. */
  attempts(): number;
  close(): Promise<void>;
}

export async function startResendStub(): Promise<ResendStub> {
  const sent: ResendStub["sent"] = [];
  let failure: { status: number; message: string; times: number } | undefined;
  let attempts = 0;
  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      const reply = (status: number, body: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(body));
      };
      if (req.method !== "POST" || req.url !== "/emails")
        return reply(404, { name: "not_found", message: "Not found", statusCode: 404 });
      if (req.headers.authorization !== "Bearer re_test_key")
        return reply(401, { name: "validation_error", message: "API key is invalid", statusCode: 401 });
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
    failNext(status, message) {
      failure = { status, message, times: 1 };
    },
    failFor(times, status, message) {
      failure = times > 0 ? { status, message, times } : undefined;
    },
    attempts: () => attempts,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
