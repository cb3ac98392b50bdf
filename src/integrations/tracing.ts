// LangSmith tracing: on only when LANGSMITH_API_KEY is set. Off otherwise, even if
// the environment says otherwise, so nothing leaves the machine and no process waits
// on an unreachable endpoint. Agents never see street addresses (their tools do not
// return them), so traces carry none.
import type { Settings } from "../config/settings.js";

export function configureTracing(settings: Pick<Settings, "langsmith">, env: NodeJS.ProcessEnv = process.env): boolean {
  if (!settings.langsmith) {
    env.LANGSMITH_TRACING = "false";
    env.LANGCHAIN_TRACING_V2 = "false";
    return false;
  }
  env.LANGSMITH_TRACING = "true";
  env.LANGSMITH_API_KEY = settings.langsmith.apiKey;
  env.LANGSMITH_PROJECT = settings.langsmith.project;
  if (settings.langsmith.endpoint) env.LANGSMITH_ENDPOINT = settings.langsmith.endpoint;
  return true;
}
