import { ChatOpenAI } from "@langchain/openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { understandWithModel } from "../../src/slack/conversation/understand-with-model.js";
import { type OpenAIStub, startOpenAIStub, structuredAnswer } from "../support/openai-stub.js";

let stub: OpenAIStub;
let model: ChatOpenAI;
beforeAll(async () => {
  stub = await startOpenAIStub();
  model = new ChatOpenAI({
    model: "gpt-4.1",
    apiKey: "sk-test",
    configuration: { baseURL: stub.baseUrl },
    maxRetries: 0,
  });
});
afterAll(async () => {
  await stub.close();
});

describe("free-form thread questions with a model", () => {
  it("takes the model's reading of a free-form question, with the thread as context", async () => {
    stub.script("You route questions", (request) =>
      structuredAnswer(
        request,
        {
          intent: "why_failed",
          check: "location",
          employee_id: "EMP-1028",
          refers_to_other_rider: false,
          confidence: 0.92,
        },
        "CaseQuestion",
      ),
    );
    const understood = await understandWithModel(model, "what's up with the Oakdale guy's commute?", [
      "which riders are flagged?",
    ]);
    expect(understood).toMatchObject({ intent: "why_failed", check: "location", employeeId: "EMP-1028" });
    const request = stub.requests.at(-1)!;
    expect(JSON.stringify(request.messages)).toContain("which riders are flagged?");
  });

  it("asks for clarification when the model is unsure, and falls back offline when it fails", async () => {
    stub.script("You route questions", (request) =>
      structuredAnswer(
        request,
        { intent: "status", check: "none", employee_id: "", refers_to_other_rider: false, confidence: 0.4 },
        "CaseQuestion",
      ),
    );
    expect((await understandWithModel(model, "hmm?", [])).intent).toBeNull();
    stub.script("You route questions", () => ({ httpStatus: 500 }));
    expect((await understandWithModel(model, "why did this case fail?", [])).intent).toBe("why_failed");
  });
});
