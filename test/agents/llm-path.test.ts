// The agents on an OpenAI-compatible model: the real ChatOpenAI client talks over
// HTTP to a local stub that answers like a model would (tool calls, structured
// output), or badly (garbage, errors, silence).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { caseManagerRules } from "../../src/agents/case-manager/agent.js";
import type { AgentDeps } from "../../src/agents/deps.js";
import { outreachRules } from "../../src/agents/outreach/agent.js";
import { createCaseWorkflow } from "../../src/cases/case-workflow.js";
import { parseSettings } from "../../src/config/settings.js";
import type { TestDatabase } from "../support/database.js";
import {
  type ChatRequest,
  followsPolicy,
  type OpenAIStub,
  startOpenAIStub,
  structuredAnswer,
  textOf,
  turnOf,
} from "../support/openai-stub.js";
import { type SeededAgents, seededAgents } from "../support/seeded-agents.js";

let stub: OpenAIStub;
let db: TestDatabase;
let deps: AgentDeps;
let agents: SeededAgents;

beforeAll(async () => {
  stub = await startOpenAIStub();
  agents = await seededAgents(
    parseSettings({
      OPENAI_API_KEY: "sk-test",
      OPENAI_BASE_URL: stub.baseUrl,
      POOLPATROL_MODEL_SHIFT: "rules",
      // The stub answers at once unless a test makes it late: 4 s is far past a busy machine's answer.
      POOLPATROL_MODEL_TIMEOUT_MS: "4000",
    }),
  );
  ({ db, deps } = agents);
});
afterAll(async () => {
  await stub.close();
  await agents.close();
});
beforeEach(() => {
  stub.requests.length = 0;
  stub.script("Pool Patrol's Case Manager", followsPolicy(caseManagerRules));
  stub.script("Pool Patrol's Outreach Agent", followsPolicy(outreachRules));
  // The location specialist checks each rider, then answers in the structured format, agreeing with the data.
  stub.script("Pool Patrol's Location Specialist", (request) => {
    const task = turnOf(request);
    if (task.called.length === 0)
      return {
        toolCalls: (task.task.riders as string[]).map((id) => ({
          name: "check_commute_distance",
          args: { employee_id: id, vanpool_id: task.task.vanpool_id },
        })),
      };
    const failing = task.results
      .filter((r) => (r.content as { verdict: string }).verdict === "fail")
      .map((r) => (r.content as { employee_id: string }).employee_id);
    return structured(request, {
      verdict: failing.length ? "fail" : "pass",
      confidence: 4,
      reasoning: failing.length
        ? `${failing.join(", ")} live too far from the pickup.`
        : "Everyone lives close enough.",
      flagged: failing,
    });
  });
});

const structured = (request: ChatRequest, value: Record<string, unknown>) =>
  structuredAnswer(request, value, "SpecialistResult");

describe("agents on an OpenAI-compatible model", () => {
  it("offer their tools with schemas and run a whole audit: specialists, case, email", async () => {
    const result = await createCaseWorkflow(deps).auditVanpool("VP-111");
    expect(result).toMatchObject({
      status: "pending_reply",
      tools_used: expect.arrayContaining([
        "run_location_specialist",
        "run_shift_specialist",
        "upsert_case",
        "run_outreach",
      ]),
    });
    const caseManagerCall = stub.requests.find((r) =>
      textOf(r.messages[0]?.content).includes("Pool Patrol's Case Manager"),
    )!;
    const tools = Object.fromEntries(caseManagerCall.tools!.map((t) => [t.function.name, t.function.parameters]));
    expect(Object.keys(tools).sort()).toEqual([
      "cancel_membership",
      "close_case",
      "run_employment_specialist",
      "run_location_specialist",
      "run_outreach",
      "run_shift_specialist",
      "upsert_case",
    ]);
    expect(tools.run_outreach).toMatchObject({
      type: "object",
      properties: { purpose: { enum: ["initial", "reply", "confirmation", "follow_up"] } },
      required: expect.arrayContaining(["case_id", "purpose"]),
    });
    const location = await db.prisma.specialistResult.findFirstOrThrow({
      where: { check: "location", run: { vanpoolId: "VP-111" } },
      orderBy: { run: { seq: "desc" } },
    });
    expect(location).toMatchObject({
      verdict: "fail",
      model: "gpt-4.1-mini",
      reasoning: expect.stringContaining("live too far"),
    });
    expect(
      await db.prisma.message.count({
        where: { thread: { case: { vanpoolId: "VP-111" } }, direction: "outbound", status: "sent" },
      }),
    ).toBe(2);
    // The run record carries the model and the tokens the provider reported (the stub reports 100 in, 20 out per call).
    const run = await db.prisma.agentRun.findFirstOrThrow({
      where: { agent: "case_manager", vanpoolId: "VP-111" },
      include: { logs: true },
    });
    const modelCalls = run.logs.filter((l) => l.kind === "model_call");
    expect(run).toMatchObject({
      model: "gpt-4.1",
      status: "succeeded",
      tokensIn: 100 * modelCalls.length,
      tokensOut: 20 * modelCalls.length,
    });
    expect(modelCalls.length).toBeGreaterThanOrEqual(4);
    expect(run.logs.filter((l) => l.kind === "tool_call").map((l) => l.message)).toEqual(
      expect.arrayContaining(["run_location_specialist", "upsert_case", "run_outreach"]),
    );
  });

  it("pause an escalation for a person and send it after approval", async () => {
    // A seeded case waiting for replies that no other test here touches.
    const record = await db.prisma.case.findFirstOrThrow({ where: { vanpoolId: "VP-114", status: "pending_reply" } });
    const thread = await db.prisma.emailThread.findUniqueOrThrow({ where: { caseId: record.id } });
    const [flagged] = (record.meta as { flagged: string[] }).flagged;
    const rider = await db.prisma.employee.findUniqueOrThrow({ where: { id: flagged } });
    const workflow = createCaseWorkflow(deps);
    const reply = await workflow.receiveReply({
      threadId: thread.id,
      from: rider.email,
      body: "This is unfair. I want to speak to a manager.",
    });
    expect(reply.status).toBe("hitl_review");
    const approval = await db.prisma.approvalRequest.findFirstOrThrow({
      where: { caseId: record.id, status: "pending" },
    });
    expect(approval).toMatchObject({
      kind: "escalation_reply",
      payload: expect.objectContaining({ tool: "send_email_for_review", to: rider.email }),
    });
    const outreachCalls = stub.requests.filter((r) =>
      textOf(r.messages[0]?.content).includes("Pool Patrol's Outreach Agent"),
    );
    expect(
      outreachCalls.some((r) =>
        r.messages.some((m) => m.tool_calls?.some((c) => c.function.name === "classify_reply")),
      ),
    ).toBe(true);
    const decided = await workflow.decide(approval.id, "approve", "U_ALICE");
    expect(decided.note).toMatch(/(Email sent to|The email to) EMP-\d+/);
  });

  it("turn a specialist that disagrees with the data into an inconclusive result for a person", async () => {
    stub.script("Pool Patrol's Location Specialist", (request) =>
      structured(request, { verdict: "pass", confidence: 5, reasoning: "All fine.", flagged: [] }),
    );
    const result = await createCaseWorkflow(deps).auditVanpool("VP-113");
    const location = await db.prisma.specialistResult.findFirstOrThrow({
      where: { check: "location", run: { vanpoolId: "VP-113" } },
      orderBy: { run: { seq: "desc" } },
    });
    expect(location.verdict).toBe("inconclusive");
    expect(location.reasoning).toMatch(/answered pass .* but the data gives fail/);
    expect(result.case_id).toBeTruthy();
  });

  it("fall back to the rules engine on an unparseable answer, and say so in the run log", async () => {
    stub.script("Pool Patrol's Location Specialist", () => ({ content: "I think it is probably fine?? {not json" }));
    await createCaseWorkflow(deps).auditVanpool("VP-102");
    const location = await db.prisma.specialistResult.findFirstOrThrow({
      where: { check: "location", run: { vanpoolId: "VP-102" } },
      orderBy: { run: { seq: "desc" } },
    });
    expect(location).toMatchObject({ verdict: "fail", model: "rules" });
    expect(
      await db.prisma.agentRunLog.count({
        where: { kind: "fallback", message: { contains: "location specialist model gpt-4.1-mini failed" } },
      }),
    ).toBeGreaterThan(0);
  });

  it("hand a step to the rules model when the Case Manager's model times out, and record it", async () => {
    stub.script("Pool Patrol's Case Manager", () => ({ delayMs: 8000, answer: { content: "too late" } }));
    const result = await createCaseWorkflow(deps).auditVanpool("VP-116");
    expect(result).toMatchObject({ status: "hitl_review", case_id: expect.stringMatching(/^CASE-/) });
    const fallback = await db.prisma.auditEvent.findFirstOrThrow({
      where: { action: "agent.fallback_to_rules", subjectId: "VP-116" },
    });
    expect((fallback.details as { error: string }).error).toMatch(/timed out after 4 s/);
    expect(
      await db.prisma.agentRun.count({ where: { agent: "case_manager", vanpoolId: "VP-116", status: "failed" } }),
    ).toBe(1);
  });
});
