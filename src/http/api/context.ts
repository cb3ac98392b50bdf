// What the REST API's routes are given, and what a request carries once its token is checked.
import type { AgentDeps } from "../../agents/deps.js";
import type { CaseWorkflow } from "../../cases/case-workflow.js";
import type { InboundEmail } from "../../cases/inbound-reply.js";
import type { JobEngine } from "../../queue/engine.js";

export interface ApiDeps {
  agent: AgentDeps;
  workflow: Pick<CaseWorkflow, "auditVanpool">;
  /** The Resend webhook's handler: a reply posted to the API takes its path. */
  inbound: Pick<InboundEmail, "handleWebhook">;
  /** The running job engine (readiness, job figures, the re-audits an import queues). */
  jobs?: Pick<JobEngine, "boss" | "send" | "sendBy" | "insert">;
}

export type Scope = "read" | "write" | "pii";

export interface ApiCaller {
  /** The token's name, recorded as `api:<name>` with every write. */
  name: string;
  scopes: Scope[];
}

export interface ApiEnv {
  Variables: { caller: ApiCaller };
}
