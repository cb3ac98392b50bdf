import type { BaseCheckpointSaver } from "@langchain/langgraph";
import type pg from "pg";
import type { Settings } from "../config/settings.js";
import type { PrismaClient } from "../data/prisma.js";
import type { EmailSender } from "../integrations/email/email-sender.js";
import type { JobSender } from "../queue/queues.js";
import type { ReplyClassifier } from "../replies/classifier.js";
import type { AuditDeps } from "../verification/audit.js";

/** Everything the agents and their tools touch; src/app/container.ts builds it. */
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
