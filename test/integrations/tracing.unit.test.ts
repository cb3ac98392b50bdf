import { describe, expect, it } from "vitest";
import { configureTracing } from "../../src/integrations/tracing.js";

describe("LangSmith tracing", () => {
  it("stays off without a key, even when the environment asks for it", () => {
    const env: NodeJS.ProcessEnv = { LANGSMITH_TRACING: "true", LANGCHAIN_TRACING_V2: "true" };
    expect(configureTracing({ langsmith: undefined }, env)).toBe(false);
    expect(env).toMatchObject({ LANGSMITH_TRACING: "false", LANGCHAIN_TRACING_V2: "false" });
  });

  it("turns on with a key, for the configured project", () => {
    const env: NodeJS.ProcessEnv = {};
    expect(
      configureTracing({ langsmith: { apiKey: "ls-key", endpoint: undefined, project: "pool-patrol-eu" } }, env),
    ).toBe(true);
    expect(env).toMatchObject({
      LANGSMITH_TRACING: "true",
      LANGSMITH_API_KEY: "ls-key",
      LANGSMITH_PROJECT: "pool-patrol-eu",
    });
  });
});
