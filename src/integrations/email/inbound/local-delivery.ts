// A rider's reply written by hand (`poolpatrol reply`, the sandbox's "Simulate a rider's
// email reply"): put in the local inbox and announced by a signed email.received event,
// so it takes exactly the path a real reply through Resend takes.
import { randomUUID } from "node:crypto";
import type { Settings } from "../../../config/settings.js";
import { replyAddressFor } from "../reply-address.js";
import { LOCAL_EMAIL_ID_PREFIX, localInboxDir, localMailbox, type ReceivedEmail } from "./mailbox.js";
import { type SvixHeaders, signResendWebhook } from "./webhook-signature.js";

export interface HandWrittenReply {
  threadId: string;
  from: string;
  body: string;
  subject?: string;
}

export function deliverLocally(
  settings: Pick<Settings, "email" | "dataDir">,
  reply: HandWrittenReply,
  secret: string,
): { email: ReceivedEmail; rawBody: string; headers: SvixHeaders } {
  const email: ReceivedEmail = {
    id: `${LOCAL_EMAIL_ID_PREFIX}${randomUUID()}`,
    from: reply.from,
    to: [replyAddressFor(settings.email.inboundAddress, reply.threadId)],
    cc: [],
    subject: reply.subject ?? "Re: Vanpool eligibility review",
    text: reply.body,
    html: null,
    headers: {},
    message_id: `<${randomUUID()}@local.poolpatrol>`,
    attachments: [],
  };
  localMailbox(localInboxDir(settings)).deliver(email);
  const rawBody = JSON.stringify({
    type: "email.received",
    created_at: new Date().toISOString(),
    data: {
      email_id: email.id,
      created_at: new Date().toISOString(),
      from: email.from,
      to: email.to,
      cc: [],
      bcc: [],
      received_for: email.to,
      message_id: email.message_id,
      subject: email.subject,
      attachments: [],
    },
  });
  return { email, rawBody, headers: signResendWebhook(rawBody, secret) };
}
