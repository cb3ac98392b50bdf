import type { BaseCheckpointSaver } from "@langchain/langgraph";
import type pg from "pg";
import type { Settings } from "../config/settings.js";
import type { PrismaClient } from "../data/prisma.js";
import type { EmailSender } from "../integrations/email/email-sender.js";
import type { AuditDeps } from "../verification/audit.js";
import type { ReplyClassifier } from "./outreach/classifier.js";

/** Everything the agents and their tools touch, injected once. */
export interface AgentDeps extends AuditDeps {
  prisma: PrismaClient;
  pool: pg.Pool;
  settings: Settings;
  sender: EmailSender;
  checkpointer: BaseCheckpointSaver;
  classifier: ReplyClassifier;
}
