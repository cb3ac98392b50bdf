// The secret that signs Resend's webhooks: RESEND_WEBHOOK_SECRET from the webhook's
// page in Resend. Without it Pool Patrol makes one and keeps it in the data folder, so the
// sandbox and `poolpatrol reply` sign what the webhook verifies in every email mode (Resend's
// own deliveries then fail verification until the secret is set).
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Settings } from "../../../config/settings.js";

export function webhookSecret(settings: Pick<Settings, "email" | "dataDir">): string {
  if (settings.email.webhookSecret) return settings.email.webhookSecret;
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
