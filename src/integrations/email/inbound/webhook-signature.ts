// Resend webhooks are signed the svix / Standard Webhooks way. Verifying uses the
// resend SDK; signing (the sandbox, `poolpatrol reply`, tests) writes the same headers.
import { createHmac, randomUUID } from "node:crypto";
import { Resend } from "resend";

export type SvixHeaders = {
  "svix-id": string;
  "svix-timestamp": string;
  "svix-signature": string;
};

export class WebhookSignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WebhookSignatureError";
  }
}

// Verification needs no API access; the SDK only insists on some key to construct.
const verifier = new Resend("re_webhook_verification_only").webhooks;

/** The verified event, or WebhookSignatureError for a bad, missing or stale (over 5 minutes) signature. */
export function verifyResendWebhook(
  rawBody: string,
  headers: Record<string, string | string[] | undefined>,
  secret: string | undefined,
): { svixId: string; event: { type: string; created_at?: string; data: Record<string, unknown> } } {
  if (!secret) throw new WebhookSignatureError("RESEND_WEBHOOK_SECRET is not set: webhooks cannot be verified.");
  const header = (name: string) => {
    const value = headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const id = header("svix-id");
  const timestamp = header("svix-timestamp");
  const signature = header("svix-signature");
  if (!id || !timestamp || !signature)
    throw new WebhookSignatureError("Missing svix-id, svix-timestamp or svix-signature.");
  try {
    const event = verifier.verify({ payload: rawBody, headers: { id, timestamp, signature }, webhookSecret: secret });
    return { svixId: id, event: event as unknown as { type: string; data: Record<string, unknown> } };
  } catch (error) {
    throw new WebhookSignatureError(`Signature refused: ${(error as Error).message}`);
  }
}

export function signResendWebhook(
  rawBody: string,
  secret: string,
  options: { id?: string; at?: Date } = {},
): SvixHeaders {
  const id = options.id ?? `msg_${randomUUID().replaceAll("-", "")}`;
  const timestamp = String(Math.floor((options.at ?? new Date()).getTime() / 1000));
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const signature = createHmac("sha256", key).update(`${id}.${timestamp}.${rawBody}`).digest("base64");
  return { "svix-id": id, "svix-timestamp": timestamp, "svix-signature": `v1,${signature}` };
}
