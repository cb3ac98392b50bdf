// The offline default: every email is written as an .eml file in the data folder
// (and stored as sent by the caller), so a person can open exactly what a rider
// would have received.
import fs from "node:fs";
import path from "node:path";
import type { EmailSender, OutgoingEmail } from "./email-sender.js";

export function outboxSender(dir: string): EmailSender {
  return {
    name: `outbox (${dir})`,
    async send(email: OutgoingEmail) {
      fs.mkdirSync(dir, { recursive: true });
      // Named by message id: sending the same message again rewrites the same file.
      fs.writeFileSync(path.join(dir, `${email.messageId}.eml`), renderEml(email));
      return { providerMessageId: `outbox:${email.messageId}` };
    },
  };
}

export function renderEml(email: OutgoingEmail): string {
  const headers = [
    `From: ${email.from}`,
    `To: ${email.to.join(", ")}`,
    ...(email.cc.length ? [`Cc: ${email.cc.join(", ")}`] : []),
    `Reply-To: ${email.replyTo}`,
    `Subject: ${email.subject}`,
    ...Object.entries(email.headers).map(([name, value]) => `${name}: ${value}`),
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=utf-8",
  ];
  return `${headers.join("\r\n")}\r\n\r\n${email.text.replace(/\r?\n/g, "\r\n")}\r\n`;
}
