// Real email through Resend. Resend answers { data, error } rather than throwing;
// an error becomes an EmailSendError so the message stays unsent and can be retried
// with the same idempotency key.
import { Resend } from "resend";
import { EmailSendError, type EmailSender } from "./email-sender.js";

export function resendSender(options: { apiKey: string; baseUrl?: string }): EmailSender {
  const resend = new Resend(options.apiKey, options.baseUrl ? { baseUrl: options.baseUrl } : undefined);
  return {
    name: "Resend",
    async send(email) {
      const { data, error } = await resend.emails.send(
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
      if (error || !data) throw new EmailSendError(`Resend refused the email: ${error?.message ?? "no answer"}`);
      return { providerMessageId: data.id };
    },
  };
}
