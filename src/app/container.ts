// The composition root's one container: the database clients with everything the agents, the
// use cases and the workers use, built once per process from the settings.

import { createCheckpointer } from "../agents/checkpointer.js";
import type { AgentDeps } from "../agents/deps.js";
import type { Settings } from "../config/settings.js";
import type { DataClients } from "../data/prisma.js";
import { createDistanceProvider } from "../integrations/distance/index.js";
import type { EmailSender } from "../integrations/email/email-sender.js";
import { createEmailSender } from "../integrations/email/index.js";
import { replyClassifierFor } from "../replies/model-classifier.js";

export async function buildAppDeps(
  clients: DataClients,
  settings: Settings,
  options: { now?: () => Date; sender?: EmailSender } = {},
): Promise<AgentDeps> {
  return {
    ...clients,
    settings,
    distance: createDistanceProvider(settings),
    policy: settings.policy,
    defaultTimeZone: settings.timeZone,
    now: options.now ?? (() => new Date()),
    sender: options.sender ?? createEmailSender(settings),
    checkpointer: await createCheckpointer(clients.pool),
    classifier: replyClassifierFor(settings),
  };
}
