import path from "node:path";
import type { Settings } from "../../config/settings.js";
import type { EmailSender } from "./email-sender.js";
import { outboxSender } from "./outbox.js";
import { resendSender } from "./resend-sender.js";

export type { EmailSender } from "./email-sender.js";

/** Resend when RESEND_API_KEY is set; otherwise the local outbox in the data folder. */
export function createEmailSender(settings: Pick<Settings, "email" | "dataDir" | "httpTimeoutMs">): EmailSender {
  return settings.email.resend
    ? resendSender({ ...settings.email.resend, timeoutMs: settings.httpTimeoutMs })
    : outboxSender(path.join(settings.dataDir, "outbox"));
}
