// Picks each agent's model from settings: the rules model, or an OpenAI-compatible
// chat model (OpenAI, Azure, Ollama, vLLM... through OPENAI_BASE_URL).
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { ChatOpenAI } from "@langchain/openai";
import type { AgentName, Settings } from "../../config/settings.js";
import { RulesChatModel, type RulesPolicy } from "./rules-model.js";

export interface AgentModel {
  name: string;
  isRules: boolean;
  chat: BaseChatModel;
}

export function createAgentModel(
  agent: AgentName,
  settings: Pick<Settings, "models" | "openai" | "modelTimeoutMs">,
  policy: RulesPolicy,
): AgentModel {
  const name = settings.models[agent];
  if (name === "rules" || !settings.openai)
    return { name: "rules", isRules: true, chat: new RulesChatModel(policy, agent) };
  return {
    name,
    isRules: false,
    chat: new ChatOpenAI({
      model: name,
      apiKey: settings.openai.apiKey,
      configuration: settings.openai.baseUrl ? { baseURL: settings.openai.baseUrl } : undefined,
      timeout: settings.modelTimeoutMs,
      maxRetries: 0,
      temperature: 0,
    }),
  };
}
