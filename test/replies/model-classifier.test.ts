// Replies classified by a chat model: the real ChatOpenAI client over HTTP to a local stub, with the embedded
// classifier as the floor (its sure patterns win, and it answers whenever the model cannot be read).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { AgentDeps } from "../../src/agents/deps.js";
import { outreachRules } from "../../src/agents/outreach/agent.js";
import { createCaseWorkflow } from "../../src/cases/case-workflow.js";
import { parseSettings } from "../../src/config/settings.js";
import { createRulesClassifier } from "../../src/replies/classifier.js";
import { replyClassifierFor } from "../../src/replies/model-classifier.js";
import type { TestDatabase } from "../support/database.js";
import {
  type ChatRequest,
  followsPolicy,
  type OpenAIStub,
  type StubAnswer,
  startOpenAIStub,
  structuredAnswer,
  textOf,
} from "../support/openai-stub.js";
import { type SeededAgents, seededAgents } from "../support/seeded-agents.js";

const PROMPT = "Pool Patrol's reply classifier";
const TIMEOUT_MS = 1000;
/** A plain confirmation the embedded classifier alone sends to a person (checked below, not assumed). */
const CONFIRMATION = "Checked it over, nothing to flag.";

let stub: OpenAIStub;
const settingsWith = (baseUrl: string, extra: Record<string, string> = {}) =>
  parseSettings({
    OPENAI_API_KEY: "sk-test",
    OPENAI_BASE_URL: baseUrl,
    POOLPATROL_MODEL_OUTREACH: "gpt-4o-mini",
    POOLPATROL_MODEL_TIMEOUT_MS: String(TIMEOUT_MS),
    ...extra,
  });
const modelAnswers = (value: Record<string, unknown>) => (request: ChatRequest) =>
  structuredAnswer(request, value, "ReplyClassification");
const classifierCalls = () =>
  stub.requests.filter((r) => textOf(r.messages.find((m) => m.role === "system")?.content).includes(PROMPT));

beforeAll(async () => {
  stub = await startOpenAIStub();
});
afterAll(async () => {
  await stub.close();
});
beforeEach(() => {
  stub.requests.length = 0;
});

describe("reply classifier on a chat model", () => {
  const embedded = createRulesClassifier();
  const classifier = () => replyClassifierFor(settingsWith(stub.baseUrl));

  it("is the embedded classifier alone when no model is configured, and names the model when one is", () => {
    expect(replyClassifierFor(parseSettings({}))).toBe(createRulesClassifier());
    expect(classifier().name).toBe("model:gpt-4o-mini+rules-floor");
  });

  it("lets the model answer a plain confirmation that the embedded classifier alone would send to a person", async () => {
    expect((await embedded.classify(CONFIRMATION)).bucket).toBe("escalation");
    stub.script(
      PROMPT,
      modelAnswers({ bucket: "acknowledgment", confidence: 0.93, reason: "The rider confirms the details." }),
    );
    const result = await classifier().classify(CONFIRMATION, "Re: Your vanpool membership");
    expect(result).toMatchObject({ bucket: "acknowledgment", confidence: 0.93 });
    expect(result.reasons[0]).toMatch(
      /^the model gpt-4o-mini decided an acknowledgment \(0.93 sure\): The rider confirms the details\.$/,
    );
    expect(classifierCalls()).toHaveLength(1);
    // The model reads the subject and the rider's words.
    const asked = textOf(classifierCalls()[0]!.messages.at(-1)!.content);
    expect(asked).toContain("Re: Your vanpool membership");
    expect(asked).toContain(CONFIRMATION);
  });

  it("gives the model only the rider's own words, not the quoted email below them", async () => {
    stub.script(PROMPT, modelAnswers({ bucket: "acknowledgment", confidence: 0.9, reason: "A confirmation." }));
    const body = ["All accurate, thanks.", "", "On Tue, Nov 17, 2026 at 8:30 AM Pool Patrol wrote:", "> unfair"].join(
      "\n",
    );
    await classifier().classify(body);
    const asked = textOf(classifierCalls()[0]!.messages.at(-1)!.content);
    expect(asked).toContain("All accurate, thanks.");
    expect(asked).not.toContain("unfair");
  });

  it("keeps a reply the embedded sure patterns escalate with a person, whatever the model would say", async () => {
    stub.script(PROMPT, modelAnswers({ bucket: "acknowledgment", confidence: 0.99, reason: "Polite." }));
    const result = await classifier().classify("Please stop emailing me about this.");
    expect(result).toMatchObject({ bucket: "escalation", definite: true });
    expect(result.reasons).toContain("wants contact to stop");
    expect(result.reasons[0]).toMatch(/sure patterns decided/);
    expect(classifierCalls()).toHaveLength(0);
  });

  it("sends a reply the model reads as an escalation to a person, even one the embedded classifier would answer", async () => {
    const body = "Everything is correct as listed.";
    expect((await embedded.classify(body)).bucket).toBe("acknowledgment");
    stub.script(PROMPT, modelAnswers({ bucket: "escalation", confidence: 0.8, reason: "Reads as curt." }));
    expect(await classifier().classify(body)).toMatchObject({ bucket: "escalation", confidence: 0.8 });
  });

  it("counts a bucket the model is unsure of as an escalation", async () => {
    stub.script(PROMPT, modelAnswers({ bucket: "acknowledgment", confidence: 0.3, reason: "Hard to tell." }));
    const result = await classifier().classify("Everything is correct as listed.");
    expect(result.bucket).toBe("escalation");
    expect(result.reasons.join(" ")).toMatch(/low confidence counts as escalation/);
  });

  // Issue 29: replies in languages the embedded reader cannot read, written for these tests.
  const OTHER_LANGUAGES = [
    ["Korean", "acknowledgment", "네, 주소와 근무 시간 모두 맞습니다. 감사합니다."],
    ["Russian", "question", "Скажите, пожалуйста, учитывается ли оплачиваемый отпуск в эти 80%?"],
    ["Portuguese", "update", "Mudei para o turno da noite a partir de 3 de março. Meu supervisor já atualizou."],
  ] as const;
  it.each(OTHER_LANGUAGES)("lets the model read a reply in %s as the %s it is", async (language, bucket, body) => {
    expect(await embedded.classify(body)).toMatchObject({ bucket: "escalation", language, unread: true });
    stub.script(PROMPT, modelAnswers({ bucket, confidence: 0.9, reason: "Read in its own language." }));
    const result = await classifier().classify(body);
    expect(result).toMatchObject({ bucket, confidence: 0.9, language });
    expect(result.unread).toBeUndefined();
    expect(textOf(classifierCalls()[0]!.messages.at(-1)!.content)).toContain(body);
  });

  it.each([
    ["fails", { httpStatus: 500 } as StubAnswer],
    ["is unsure", { content: JSON.stringify({ bucket: "acknowledgment", confidence: 0.4, reason: "Maybe." }) }],
  ])(
    "sends a reply in another language to a person, unread and its language named, when the model %s",
    async (_, answer) => {
      stub.script(PROMPT, () => answer);
      const result = await classifier().classify(OTHER_LANGUAGES[0][2]);
      expect(result).toMatchObject({ bucket: "escalation", language: "Korean", unread: true });
      expect(result.reasons.join(" ")).toContain("reply in Korean: a person should read it");
    },
  );

  const unreadable: [string, StubAnswer, RegExp][] = [
    ["answers 500", { httpStatus: 500 }, /could not be read/],
    ["answers garbage", { content: "acknowledgment, I think!! {not json" }, /could not be read/],
    ["refuses", { refusal: "I'm sorry, I can't help with that." }, /could not be read/],
    ["answers in words instead", { content: "It's an acknowledgment, I'd say." }, /could not be read/],
    [
      "answers a confidence out of range",
      { content: JSON.stringify({ bucket: "acknowledgment", confidence: 7, reason: "Sure." }) },
      /could not be read/,
    ],
    [
      "hangs past the timeout",
      { delayMs: TIMEOUT_MS * 4, answer: { content: "{}" } },
      /could not be read \(.*timed out after 1 s/i,
    ],
  ];
  it.each(unreadable)("falls back to the embedded classifier, once, when the model %s", async (_, answer, why) => {
    stub.script(PROMPT, () => answer);
    for (const body of [CONFIRMATION, "Everything is correct as listed.", "When will you check again?"]) {
      const expected = await embedded.classify(body);
      const started = Date.now();
      const result = await classifier().classify(body);
      expect(Date.now() - started).toBeLessThan(TIMEOUT_MS * 2.5);
      expect(result).toMatchObject({ bucket: expected.bucket, confidence: expected.confidence });
      expect(result.reasons[0]).toMatch(why);
      expect(result.reasons.slice(1)).toEqual(expected.reasons);
    }
    // One request per reply: the client is built without retries.
    expect(classifierCalls()).toHaveLength(3);
  });
});

describe("a rider's reply on a deployment with a model", () => {
  let db: TestDatabase;
  let deps: AgentDeps;
  let agents: SeededAgents;

  beforeAll(async () => {
    agents = await seededAgents(
      settingsWith(stub.baseUrl, {
        POOLPATROL_MODEL_CASE_MANAGER: "rules",
        POOLPATROL_MODEL_LOCATION: "rules",
        POOLPATROL_MODEL_SHIFT: "rules",
      }),
    );
    ({ db, deps } = agents);
  });
  afterAll(() => agents.close());

  it("is classified by the model, and the case's trail says which model decided", async () => {
    stub.script("Pool Patrol's Outreach Agent", followsPolicy(outreachRules));
    stub.script(
      PROMPT,
      modelAnswers({ bucket: "acknowledgment", confidence: 0.95, reason: "The rider confirms the details." }),
    );
    const record = await db.prisma.case.findFirstOrThrow({ where: { vanpoolId: "VP-114", status: "pending_reply" } });
    const thread = await db.prisma.emailThread.findUniqueOrThrow({ where: { caseId: record.id } });
    const [flagged] = (record.meta as { flagged: string[] }).flagged;
    const rider = await db.prisma.employee.findUniqueOrThrow({ where: { id: flagged } });

    await createCaseWorkflow(deps).receiveReply({ threadId: thread.id, from: rider.email, body: CONFIRMATION });

    const classified = await db.prisma.auditEvent.findFirstOrThrow({
      where: { action: "reply.classified", subjectId: record.id },
    });
    expect(classified.details).toMatchObject({
      bucket: "acknowledgment",
      confidence: 0.95,
      classifier: "model:gpt-4o-mini+rules-floor",
      reasons: expect.arrayContaining([expect.stringMatching(/the model gpt-4o-mini decided an acknowledgment/)]),
    });
    expect(classifierCalls()).toHaveLength(1);
    // Answered as a confirmation: no reply held for a person's approval.
    expect(await db.prisma.approvalRequest.count({ where: { caseId: record.id, kind: "escalation_reply" } })).toBe(0);
  });

  it("in Russian is read by the model, and the Outreach Agent's model is told its language to answer in", async () => {
    stub.script("Pool Patrol's Outreach Agent", followsPolicy(outreachRules));
    stub.script(PROMPT, modelAnswers({ bucket: "question", confidence: 0.9, reason: "Asks whether PTO counts." }));
    const record = await db.prisma.case.findFirstOrThrow({ where: { vanpoolId: "VP-113", status: "pending_reply" } });
    const thread = await db.prisma.emailThread.findUniqueOrThrow({ where: { caseId: record.id } });
    const [flagged] = (record.meta as { flagged: string[] }).flagged;
    const rider = await db.prisma.employee.findUniqueOrThrow({ where: { id: flagged } });

    const body = "Скажите, пожалуйста, учитывается ли оплачиваемый отпуск в эти 80%?";
    await createCaseWorkflow(deps).receiveReply({ threadId: thread.id, from: rider.email, body });

    const classified = await db.prisma.auditEvent.findFirstOrThrow({
      where: { action: "reply.classified", subjectId: record.id },
      orderBy: { id: "desc" },
    });
    expect(classified.details).toMatchObject({ bucket: "question", language: "Russian" });
    expect(classified.details).not.toHaveProperty("unread");
    const outreach = stub.requests.filter((r) =>
      textOf(r.messages.find((m) => m.role === "system")?.content).includes("Pool Patrol's Outreach Agent"),
    );
    const told = outreach.at(-1)!;
    expect(textOf(told.messages[0]!.content)).toContain("write any answer or draft in that language");
    const toolResult = told.messages.find((m) => m.role === "tool" && textOf(m.content).includes('"language"'));
    expect(textOf(toolResult?.content)).toContain('"language":"Russian"');
  });
});
