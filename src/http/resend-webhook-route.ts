// POST /webhooks/resend as a Bolt custom route: the same route in HTTP mode, Socket
// Mode (Bolt's own small HTTP server on PORT) and the sandbox.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { CustomRoute } from "@slack/bolt";
import type { InboundEmail } from "../cases/inbound-reply.js";

export const RESEND_WEBHOOK_PATH = "/webhooks/resend";
const MAX_BODY_BYTES = 1_000_000;
/** How much of an oversized body is read (and dropped) before the connection is cut. */
const DROP_AFTER_BYTES = 50_000_000;

export function resendWebhookRoute(
  inbound: Pick<InboundEmail, "handleWebhook">,
  log: { error(message: string): void },
): CustomRoute {
  return {
    path: RESEND_WEBHOOK_PATH,
    method: ["POST"],
    handler: (req, res) => {
      readBody(req)
        .then((rawBody) => {
          if (rawBody === undefined) {
            log.error(`Resend webhook refused: a body over ${MAX_BODY_BYTES} bytes.`);
            return reply(res, 413, { error: `The body is over ${MAX_BODY_BYTES} bytes; nothing was recorded.` });
          }
          return inbound.handleWebhook({ rawBody, headers: req.headers }).then((answer) => {
            if (answer.status === 400 && "error" in answer.body) log.error(`Resend webhook: ${answer.body.error}`);
            reply(res, answer.status, answer.body);
          });
        })
        .catch((error: Error) => {
          // Not processed: Resend retries, and the redelivery (same svix-id) is processed then.
          log.error(`Resend webhook failed: ${error.message}`);
          reply(res, 500, { error: "could not process the event; it will be retried" });
        });
    },
  };
}

/**
 * The body as text, or undefined when it is over the limit: the rest is read and dropped, so the
 * sender gets its 413 rather than a reset connection (a sender that goes on far past it is cut off).
 */
function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
      else if (size > DROP_AFTER_BYTES) req.destroy();
    });
    req.on("end", () => resolve(size > MAX_BODY_BYTES ? undefined : Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}
