// `eval` on a reply set with a model configured (POOLPATROL_MODEL_OUTREACH): the set is scored by the model classifier
// over the real ChatOpenAI client, talking to the OpenAI-compatible stub, with the embedded reader as the floor when
// the model fails or is unsure. The replies were written for this test.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { evalContext, runDataset } from "../../evals/runner.js";
import { parseSettings } from "../../src/config/settings.js";
import {
  type ChatRequest,
  type OpenAIStub,
  type StubAnswer,
  startOpenAIStub,
  structuredAnswer,
  textOf,
} from "../support/openai-stub.js";

const PROMPT = "Pool Patrol's reply classifier";

const REPLIES = [
  { id: "ack", body: "All of that is still right, thanks.", bucket: "acknowledgment" },
  { id: "korean-ack", body: "네, 주소와 근무 시간 모두 맞습니다. 감사합니다.", bucket: "acknowledgment" },
  { id: "spanish-question", body: "¿Cuenta el tiempo de vacaciones para el 80%?", bucket: "question" },
  {
    id: "passing-safety",
    body: "I'm on days from Monday. I can't take the early van for safety reasons.",
    bucket: "escalation",
  },
] as const;

/** What the model answers for each reply: the bucket it is labelled with, sure of it. */
const answersByBody = new Map<string, StubAnswer | undefined>();

let stub: OpenAIStub;
let dataset: string;

beforeAll(async () => {
  stub = await startOpenAIStub();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reply-eval-"));
  dataset = path.join(dir, "reply-model-check.jsonl");
  fs.writeFileSync(
    dataset,
    REPLIES.map((reply) =>
      JSON.stringify({
        id: reply.id,
        kind: "reply",
        inputs: { body: reply.body },
        expected: { bucket: reply.bucket, hitl_required: reply.bucket === "escalation" },
      }),
    ).join("\n"),
  );
});
afterAll(async () => {
  await stub.close();
  fs.rmSync(path.dirname(dataset), { recursive: true, force: true });
});
beforeEach(() => {
  stub.requests.length = 0;
  answersByBody.clear();
  stub.script(PROMPT, (request: ChatRequest) => {
    const asked = textOf(request.messages.at(-1)!.content);
    const reply = REPLIES.find((r) => asked.includes(r.body))!;
    return (
      answersByBody.get(reply.body) ??
      structuredAnswer(request, { bucket: reply.bucket, confidence: 0.9, reason: "Read it." }, "ReplyClassification")
    );
  });
});

const settings = () =>
  parseSettings({
    OPENAI_API_KEY: "sk-test",
    OPENAI_BASE_URL: stub.baseUrl,
    POOLPATROL_MODEL_OUTREACH: "gpt-4o-mini",
    POOLPATROL_MODEL_TIMEOUT_MS: "5000",
  });
const classifierCalls = () =>
  stub.requests.filter((r) => textOf(r.messages.find((m) => m.role === "system")?.content).includes(PROMPT));

describe("eval on a reply set with a model configured", () => {
  it("scores the model classifier, asking the model once for each reply the floor's sure rules leave open", async () => {
    const report = await runDataset(dataset, evalContext(settings()));
    const metrics = report.metrics as Record<string, number>;
    expect(report.results.map((r) => [r.id, r.pass])).toEqual(REPLIES.map((r) => [r.id, true]));
    expect(metrics.bucket_accuracy).toBe(1);
    expect(metrics.unread_to_person).toBe(0);
    expect(metrics.other_languages).toBe(2);
    // The safety concern is the floor's: the model is not asked about it.
    expect(classifierCalls()).toHaveLength(3);
    const reasons = (id: string) => (report.results.find((r) => r.id === id)!.actual as { reasons: string[] }).reasons;
    expect(reasons("korean-ack")[0]).toMatch(/^the model gpt-4o-mini decided an acknowledgment/);
    expect(reasons("passing-safety").join(" ")).toMatch(/safety concern/);
  });

  it("falls back to the embedded reader when the model fails or is unsure: a reply it cannot read goes to a person, named", async () => {
    answersByBody.set(REPLIES[1].body, { httpStatus: 500 });
    answersByBody.set(REPLIES[2].body, {
      content: JSON.stringify({ bucket: "question", confidence: 0.3, reason: "Not sure." }),
    });
    const report = await runDataset(dataset, evalContext(settings()));
    const metrics = report.metrics as Record<string, number>;
    const actual = (id: string) =>
      report.results.find((r) => r.id === id)!.actual as { bucket: string; language?: string; unread?: boolean };
    expect(actual("korean-ack")).toMatchObject({ bucket: "escalation", language: "Korean", unread: true });
    expect(actual("spanish-question")).toMatchObject({ bucket: "escalation", language: "Spanish", unread: true });
    expect(metrics.unread_to_person).toBe(2);
    // Handled as the rule says (to a person, language named), so the run still passes them; the English replies
    // are scored as read.
    expect(report.results.every((r) => r.pass)).toBe(true);
    expect(metrics.escalation_recall).toBe(1);
  });
});
