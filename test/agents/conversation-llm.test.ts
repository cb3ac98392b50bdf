// The conversation on an OpenAI-compatible model: the real ChatOpenAI client against
// the local stub. The model calls the same read-only tools and answers free form;
// sources come from the tools it called; a model that fails mid-answer leaves the
// rules model to answer, and the thread carries on.
import os from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createConversation } from "../../src/agents/conversation/agent.js";
import { buildAppDeps } from "../../src/app/container.js";
import { createCaseWorkflow } from "../../src/cases/case-workflow.js";
import { parseSettings } from "../../src/config/settings.js";
import { outboxSender } from "../../src/integrations/email/outbox.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";
import { type ChatRequest, type OpenAIStub, startOpenAIStub, textOf } from "../support/openai-stub.js";

let stub: OpenAIStub;
let db: TestDatabase;
let conversation: ReturnType<typeof createConversation>;
let rechecks = 0;

beforeAll(async () => {
  stub = await startOpenAIStub();
  db = await createTestDatabase({ mockData: true });
  const settings = parseSettings({
    OPENAI_API_KEY: "sk-test",
    OPENAI_BASE_URL: stub.baseUrl,
    POOLPATROL_MODEL_CASE_MANAGER: "gpt-test",
    POOLPATROL_MODEL_OUTREACH: "rules",
    POOLPATROL_MODEL_LOCATION: "rules",
    POOLPATROL_MODEL_SHIFT: "rules",
    POOLPATROL_MODEL_TIMEOUT_MS: "1500",
  });
  const deps = await buildAppDeps(db, settings, {
    sender: outboxSender(os.tmpdir()),
    now: () => new Date("2026-11-24T16:00:00Z"),
  });
  conversation = createConversation(deps, {
    async recheck() {
      rechecks++;
      return { text: "re-checked", sources: [] };
    },
    draftFollowUp: async () => ({ approval_id: "APR-00000000", existing: false }),
  });
  // Evidence to talk about, stored by the rules-model audit (the Case Manager's audit is not this agent).
  const rulesDeps = await buildAppDeps(db, parseSettings({}), { now: () => new Date("2026-11-24T15:00:00Z") });
  await createCaseWorkflow(rulesDeps).auditVanpool("VP-115");
}, 60_000);
afterAll(async () => {
  await stub.close();
  await db.drop();
});

const toolResults = (request: ChatRequest) => request.messages.filter((m) => m.role === "tool");
const lastUser = (request: ChatRequest) =>
  JSON.parse(textOf(request.messages.filter((m) => m.role === "user").at(-1)!.content)) as { question: string };

describe("the conversation on a configured model", () => {
  it("calls tools, answers from their facts with sources, and sees the earlier turns of the thread", async () => {
    stub.script("answering auditors in Slack", (request) => {
      const results = toolResults(request);
      const question = lastUser(request).question;
      const sinceQuestion = request.messages
        .slice(request.messages.map((m) => m.role).lastIndexOf("user"))
        .filter((m) => m.role === "tool");
      if (sinceQuestion.length === 0)
        return { toolCalls: [{ name: "case_overview", args: { case_id: "CASE-A35B2625" } }] };
      if (sinceQuestion.length === 1)
        return {
          toolCalls: [
            {
              name: "rider_replies",
              args: { case_id: "CASE-A35B2625", employee_ids: [/tamika/i.test(question) ? "EMP-1024" : "EMP-1088"] },
            },
          ],
        };
      const facts = JSON.parse(textOf(sinceQuestion.at(-1)!.content)) as { text: string };
      return { content: `From the thread (${results.length} tool results so far): ${facts.text}` };
    });
    const first = await conversation.ask({
      threadId: "llm-1",
      question: "what did tamika say?",
      caseId: "CASE-A35B2625",
      askerIsApprover: false,
    });
    expect(first.model).toBe("gpt-test");
    expect(first.answer).toMatch(/Day Shift starting Monday 11\/16/);
    expect(first.sources).toContain("Tamika's reply of Nov 13, 2026");
    expect(first.answer).toMatch(/_Sources: Tamika's reply of /);
    expect(first.answer).not.toMatch(/\b(MSG|THREAD)-/);

    const second = await conversation.ask({
      threadId: "llm-1",
      question: "and the other rider?",
      caseId: "CASE-A35B2625",
      askerIsApprover: false,
    });
    expect(second.answer).toMatch(/Cody Rasmussen \(EMP-1088\) has not replied/);
    // The model saw the first turn's tool results in the thread's history.
    const lastRequest = stub.requests.at(-1)!;
    expect(lastRequest.messages.filter((m) => m.role === "user")).toHaveLength(2);
    expect(lastRequest.tools?.map((t) => t.function.name)).toContain("check_results");
  });

  it("falls back to the rules model when the model fails mid-answer, and never re-checks for a non-approver", async () => {
    stub.script("answering auditors in Slack", (request) => {
      const sinceQuestion = request.messages.slice(request.messages.map((m) => m.role).lastIndexOf("user"));
      if (sinceQuestion.some((m) => m.role === "tool")) return { httpStatus: 500 };
      return { toolCalls: [{ name: "recheck", args: { case_id: "CASE-A35B2625" } }] };
    });
    const answer = await conversation.ask({
      threadId: "llm-2",
      question: "re-check location please",
      caseId: "CASE-A35B2625",
      askerIsApprover: false,
    });
    expect(rechecks).toBe(0);
    expect(answer.model).toBe("rules");
    expect(answer.answer).toMatch(/Only approvers can ask for a re-check/);

    const next = await conversation.ask({
      threadId: "llm-2",
      question: "why did tamika fail?",
      caseId: "CASE-A35B2625",
      askerIsApprover: false,
    });
    expect(next.answer).toMatch(/Tamika Howard \(EMP-1024\): fails\. On Night Shift/);
  });
  it("offers the model the same tools the rules use: a claim checked against the record, a rider on another case, history", async () => {
    stub.script("answering auditors in Slack", (request) => {
      const sinceQuestion = request.messages
        .slice(request.messages.map((m) => m.role).lastIndexOf("user"))
        .filter((m) => m.role === "tool");
      if (sinceQuestion.length === 0)
        return {
          toolCalls: [
            {
              name: "check_results",
              args: { case_id: "CASE-A35B2625", employee_ids: ["EMP-1024"], what_would_change: true },
            },
            { name: "riders_elsewhere", args: { case_id: "CASE-A35B2625", names: ["Diego"] } },
            { name: "rider_history", args: { case_id: "CASE-A35B2625", employee_ids: ["EMP-1024"] } },
          ],
        };
      const facts = sinceQuestion.map((m) => (JSON.parse(textOf(m.content)) as { text: string }).text);
      return { content: facts.join("\n") };
    });
    const answer = await conversation.ask({
      threadId: "llm-3",
      question: "tamika says she's back on days, why is she still flagged? and cancel Diego",
      caseId: "CASE-A35B2625",
      askerIsApprover: true,
    });
    expect(answer.model).toBe("gpt-test");
    expect(answer.answer).toMatch(/Tamika's shift on record is still Night Shift \(Mon-Fri 22:00-06:30\)/);
    expect(answer.answer).toMatch(/Diego Fuentes \(EMP-1083\) is not on CASE-A35B2625 \(VP-115\): Diego rides VP-111/);
    expect(answer.answer).toMatch(/Tamika Howard \(EMP-1024\) has not been flagged on any earlier case/);
    expect(answer.sources).toEqual(expect.arrayContaining(["employee records", "case records"]));
    expect(stub.requests.at(-1)!.tools?.map((t) => t.function.name)).toEqual(
      expect.arrayContaining(["riders_elsewhere", "rider_history"]),
    );
  });
});
