// Where the full text of a received email comes from: Resend's receiving API
// (the webhook carries only metadata), or the local inbox folder that the sandbox and
// `poolpatrol reply` deliver into (the counterpart of the outbox), in every email mode.
import fs from "node:fs";
import path from "node:path";
import { Resend } from "resend";
import type { Settings } from "../../../config/settings.js";

export interface ReceivedEmail {
  id: string;
  from: string;
  to: string[];
  cc: string[];
  subject: string;
  text: string | null;
  html: string | null;
  headers: Record<string, string>;
  /** RFC 5322 Message-ID of the email. */
  message_id: string;
  attachments: { filename: string | null; content_type: string; size: number }[];
}

export interface InboundMailbox {
  get(emailId: string): Promise<ReceivedEmail>;
}

export class MailboxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MailboxError";
  }
}

export function resendMailbox(options: { apiKey: string; baseUrl?: string; timeoutMs?: number }): InboundMailbox {
  const resend = new Resend(options.apiKey, options.baseUrl ? { baseUrl: options.baseUrl } : undefined);
  const timeoutMs = options.timeoutMs ?? 15_000;
  return {
    async get(emailId) {
      // Resend's client takes no timeout: a hung call is abandoned, and the webhook delivery is retried.
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(new MailboxError(`Resend did not give email ${emailId} within ${Math.round(timeoutMs / 1000)} s`)),
          timeoutMs,
        );
      });
      const { data, error } = await Promise.race([resend.emails.receiving.get(emailId), timedOut]).finally(() =>
        clearTimeout(timer),
      );
      if (error || !data)
        throw new MailboxError(`Resend could not give email ${emailId}: ${error?.message ?? "no answer"}`);
      return {
        id: data.id,
        from: data.from,
        to: data.to,
        cc: data.cc ?? [],
        subject: data.subject,
        text: data.text,
        html: data.html,
        headers: data.headers ?? {},
        message_id: data.message_id,
        attachments: data.attachments.map((a) => ({
          filename: a.filename,
          content_type: a.content_type,
          size: a.size,
        })),
      };
    },
  };
}

/** The ids of emails written by hand into the local inbox: Resend never hands these out. */
export const LOCAL_EMAIL_ID_PREFIX = "local-";

export function localMailbox(dir: string): InboundMailbox & { deliver(email: ReceivedEmail): void } {
  const file = (id: string) => path.join(dir, `${id.replace(/[^A-Za-z0-9_-]/g, "")}.json`);
  return {
    async get(emailId) {
      if (!fs.existsSync(file(emailId))) throw new MailboxError(`No email ${emailId} in the local inbox.`);
      return JSON.parse(fs.readFileSync(file(emailId), "utf8")) as ReceivedEmail;
    },
    deliver(email) {
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(file(email.id), JSON.stringify(email, null, 2));
    },
  };
}

export function localInboxDir(settings: Pick<Settings, "dataDir">): string {
  return path.join(settings.dataDir, "inbox");
}

/** Hand-written replies from the local inbox; with RESEND_API_KEY set, every other email from Resend. */
export function createInboundMailbox(settings: Pick<Settings, "email" | "dataDir" | "httpTimeoutMs">): InboundMailbox {
  const local = localMailbox(localInboxDir(settings));
  if (!settings.email.resend) return local;
  const resend = resendMailbox({ ...settings.email.resend, timeoutMs: settings.httpTimeoutMs });
  return { get: (emailId) => (emailId.startsWith(LOCAL_EMAIL_ID_PREFIX) ? local : resend).get(emailId) };
}
