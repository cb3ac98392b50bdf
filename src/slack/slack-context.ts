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
  /** Runs work after the ack; tests and shutdown can wait for it. */
  background(label: string, work: () => Promise<unknown>): void;
  log: { info(message: string): void; warn(message: string): void; error(message: string): void };
}

export function createBackgroundRunner(log: SlackContext["log"]) {
  const running = new Set<Promise<unknown>>();
  return {
    background(label: string, work: () => Promise<unknown>) {
      const task = work()
        .catch((error) => log.error(`${label} failed: ${(error as Error).stack ?? error}`))
        .finally(() => running.delete(task));
      running.add(task);
    },
    busy: () => running.size > 0,
    /** Resolves when every background task started so far (and those they started) is done. */
    async idle(): Promise<void> {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };
}
