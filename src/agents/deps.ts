import type { BaseCheckpointSaver } from "@langchain/langgraph";
import type pg from "pg";
import type { Settings } from "../config/settings.js";
import type { DataClients, PrismaClient } from "../data/prisma.js";
import { createDistanceProvider } from "../integrations/distance/index.js";
import type { EmailSender } from "../integrations/email/email-sender.js";
import { createEmailSender } from "../integrations/email/index.js";
import type { JobSender } from "../queue/queues.js";
import type { ReplyClassifier } from "../replies/classifier.js";
import { replyClassifierFor } from "../replies/model-classifier.js";
import type { AuditDeps } from "../verification/audit.js";
import { createCheckpointer } from "./checkpointer.js";

/** Everything the agents and their tools touch, injected once. */
export interface AgentDeps extends AuditDeps {
  prisma: PrismaClient;
  pool: pg.Pool;
  settings: Settings;
  sender: EmailSender;
  checkpointer: BaseCheckpointSaver;
  classifier: ReplyClassifier;
  /** The job engine, when one runs: side effects become jobs. Without it (evals, unit tests) they run inline. */
  jobs?: JobSender;
}

export async function buildAgentDeps(
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
