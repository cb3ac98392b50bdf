// POST /webhooks/resend as a Bolt custom route: the same route in HTTP mode, Socket
// Mode (Bolt's own small HTTP server on PORT) and the sandbox.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { CustomRoute } from "@slack/bolt";
import type { InboundEmail } from "../cases/inbound-reply.js";

export const RESEND_WEBHOOK_PATH = "/webhooks/resend";
const MAX_BODY_BYTES = 1_000_000;

export function resendWebhookRoute(
  inbound: Pick<InboundEmail, "handleWebhook">,
  log: { error(message: string): void },
): CustomRoute {
  return {
    path: RESEND_WEBHOOK_PATH,
    method: ["POST"],
    handler: (req, res) => {
      readBody(req)
        .then((rawBody) => inbound.handleWebhook({ rawBody, headers: req.headers }))
        .then((answer) => reply(res, answer.status, answer.body))
        .catch((error: Error) => {
          // Not processed: Resend retries, and the redelivery (same svix-id) is processed then.
          log.error(`Resend webhook failed: ${error.message}`);
          reply(res, 500, { error: "could not process the event; it will be retried" });
        });
    },
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error("webhook body too large"));
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}
