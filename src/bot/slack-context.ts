// What every Slack listener needs, injected once when the app is built.
import type { WebClient } from "@slack/web-api";
import type { AgentDeps } from "../agents/deps.js";
import type { CaseWorkflow } from "../cases/case-workflow.js";
import type { SlackSettings } from "../config/settings.js";

export interface SlackContext {
  deps: AgentDeps;
  workflow: CaseWorkflow;
  slack: SlackSettings;
  client: WebClient;
  log: { info(message: string): void; warn(message: string): void; error(message: string): void };
}
