// Real email through Resend. Resend answers { data, error } rather than throwing;
// an error becomes an EmailSendError so the message stays unsent and can be retried
// with the same idempotency key.
import { Resend } from "resend";
import { EmailSendError, type EmailSender } from "./email-sender.js";

export function resendSender(options: { apiKey: string; baseUrl?: string; timeoutMs?: number }): EmailSender {
  const timeoutMs = options.timeoutMs ?? 15_000;
  const resend = new Resend(options.apiKey, options.baseUrl ? { baseUrl: options.baseUrl } : undefined);
  return {
    name: "Resend",
    async send(email) {
      // Resend's client takes no timeout; a hung call is abandoned, and the retry reuses the idempotency key.
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new EmailSendError(`Resend did not answer within ${Math.round(timeoutMs / 1000)} s`)),
          timeoutMs,
        );
      });
      const sending = resend.emails.send(
        {
          from: email.from,
          to: email.to,
          cc: email.cc.length ? email.cc : undefined,
          replyTo: email.replyTo,
          subject: email.subject,
          text: email.text,
          headers: email.headers,
        },
        { idempotencyKey: email.idempotencyKey },
      );
      const { data, error } = await Promise.race([sending, timedOut]).finally(() => clearTimeout(timer));
      if (error || !data) {
        const status = (error as { statusCode?: number } | null)?.statusCode;
        // Shown to people as the reason, e.g. "429 rate limited".
        throw new EmailSendError(error ? `${status ? `${status} ` : ""}${error.message}` : "Resend gave no answer");
      }
      return { providerMessageId: data.id };
    },
  };
}
