// The secret that signs Resend's webhooks: RESEND_WEBHOOK_SECRET from the webhook's
// page in Resend. Without Resend (local outbox, sandbox) Pool Patrol makes one and keeps
// it in the data folder, so the sandbox and `poolpatrol reply` sign what the webhook verifies.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Settings } from "../../../config/settings.js";

export function webhookSecret(settings: Pick<Settings, "email" | "dataDir">): string | undefined {
  if (settings.email.webhookSecret) return settings.email.webhookSecret;
  // With real Resend and no secret configured, nothing can be verified: every webhook is refused.
  if (settings.email.resend) return undefined;
  const file = path.join(settings.dataDir, "resend-webhook-secret");
  fs.mkdirSync(settings.dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, `whsec_${randomBytes(24).toString("base64")}`, { flag: "wx", mode: 0o600 });
  } catch (error) {
    // Another process (or an earlier start) made it first: use that one.
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  return fs.readFileSync(file, "utf8").trim();
}
