// Faults injected while the Case Manager works a case (the database failing one write, a model failing): each test
// counts what the riders and the people reviewing would see, in the database and at the stubs.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caseManagerRules, createCaseManagerAgent } from "../../src/agents/case-manager/agent.js";
import type { AgentDeps } from "../../src/agents/deps.js";
import { pendingInterrupts } from "../../src/agents/run-agent.js";
import { buildAppDeps } from "../../src/app/container.js";
import { createCaseWorkflow } from "../../src/cases/case-workflow.js";
import { seedFolder } from "../../src/cases/seed-folder.js";
import { parseSettings } from "../../src/config/settings.js";
import { findThreadForCase } from "../../src/data/email-repository.js";
import { Prisma } from "../../src/data/prisma.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";
import { failNextInsert, failNextWrite, faultFired } from "../support/db-faults.js";
import { copyMockDir } from "../support/fixtures.js";
import { followsPolicy, type OpenAIStub, startOpenAIStub } from "../support/openai-stub.js";

let db: TestDatabase;
let deps: AgentDeps;

beforeAll(async () => {
  db = await createTestDatabase();
  await seedFolder(db, copyMockDir());
  deps = await buildAppDeps(db, parseSettings({}));
});
afterAll(async () => {
  await db.drop();
});

const workflow = () => createCaseWorkflow(deps);

/** The app with the Case Manager on the OpenAI stub's model, the other agents on the rules. */
const caseManagerOn = (stub: OpenAIStub) =>
  buildAppDeps(
    db,
    parseSettings({
      OPENAI_API_KEY: "sk-test",
      OPENAI_BASE_URL: stub.baseUrl,
      POOLPATROL_MODEL_OUTREACH: "rules",
      POOLPATROL_MODEL_LOCATION: "rules",
      POOLPATROL_MODEL_SHIFT: "rules",
    }),
  );

/**
 * A case of its own on `vanpoolId`: `employeeId` is recorded as living in Redding, the audit emails them, and then
 * the record is put right (so a re-audit now passes). Returns the thread, the rider's address and counters.
 */
async function caseWithFixedRecord(vanpoolId: string, employeeId: string) {
  const home = await db.prisma.employee.findUniqueOrThrow({ where: { id: employeeId } });
  await db.prisma.employee.update({
    where: { id: employeeId },
    data: { homeCity: "Redding", homeZip: "96001", homeLat: null, homeLng: null },
  });
  const audit = await workflow().auditVanpool(vanpoolId);
  expect(audit.status).toBe("pending_reply");
  await db.prisma.employee.update({
    where: { id: employeeId },
    data: { homeCity: home.homeCity, homeZip: home.homeZip, homeLat: home.homeLat, homeLng: home.homeLng },
  });
  const thread = (await findThreadForCase(db.prisma, audit.case_id!))!;
  const caseId = audit.case_id!;
  return {
    caseId,
    thread,
    rider: home.email,
    record: () => db.prisma.case.findUniqueOrThrow({ where: { id: caseId } }),
    replies: () => db.prisma.message.findMany({ where: { threadId: thread.thread_id, direction: "inbound" } }),
    emailsTo: (to: string) =>
      db.prisma.message.count({
        where: { threadId: thread.thread_id, direction: "outbound", toAddresses: { has: to } },
      }),
    reAuditRuns: () => db.prisma.verificationRun.count({ where: { caseId, trigger: "re_audit" } }),
    drafts: () => db.prisma.approvalRequest.count({ where: { caseId, kind: "escalation_reply" } }),
  };
}

describe("a state-changing tool that fails ends the agent's run", () => {
  it("an angry reply whose classification failed to store is not re-audited; read again, it goes to a person", async () => {
    const c = await caseWithFixedRecord("VP-104", "EMP-1025");
    const emailed = await c.emailsTo(c.rider);
    await failNextWrite(db.prisma, {
      name: "classification",
      table: "messages",
      column: "bucket",
      when: `NEW.thread_id = '${c.thread.thread_id}'`,
    });
    const angry = "This is unfair and I want to speak to a manager.";
    await expect(workflow().receiveReply({ threadId: c.thread.thread_id, from: c.rider, body: angry })).rejects.toThrow(
      /classify_reply failed/,
    );
    expect(await faultFired(db.prisma, "classification")).toBe(true);
    // Nothing was decided on a reply no one has read: no re-audit, no email, the case still waits, the reply unread.
    expect((await c.record()).status).toBe("pending_reply");
    expect((await c.record()).reAuditCount).toBe(0);
    expect(await c.reAuditRuns()).toBe(0);
    expect(await c.emailsTo(c.rider)).toBe(emailed);
    const [reply] = await c.replies();
    expect(reply).toMatchObject({ bucket: null, readAt: null });

    // Resend delivers it again: read this time, it is an escalation held for a person, still not re-audited.
    const again = await workflow().resumeUnreadReply(reply!.id);
    expect(again).toMatchObject({ handled: true, status: "hitl_review" });
    expect((await c.replies()).map((m) => m.bucket)).toEqual(["escalation"]);
    expect(await c.drafts()).toBe(1);
    expect(await c.reAuditRuns()).toBe(0);
    expect(await c.emailsTo(c.rider)).toBe(emailed);
  });
});

describe("a state-changing tool that fails, with a model configured", () => {
  it("ends the run there too: the rules model does not take the step over, and the reply is read again later", async () => {
    const stub = await startOpenAIStub();
    try {
      stub.script("Pool Patrol's Case Manager", followsPolicy(caseManagerRules));
      const withModel = createCaseWorkflow(await caseManagerOn(stub));
      const c = await caseWithFixedRecord("VP-117", "EMP-1076");
      await failNextWrite(db.prisma, {
        name: "classification_with_model",
        table: "messages",
        column: "bucket",
        when: `NEW.thread_id = '${c.thread.thread_id}'`,
      });
      const angry = "This is unfair and I want to speak to a manager.";
      await expect(
        withModel.receiveReply({ threadId: c.thread.thread_id, from: c.rider, body: angry }),
      ).rejects.toThrow(/classify_reply failed/);
      expect(await faultFired(db.prisma, "classification_with_model")).toBe(true);
      expect(
        await db.prisma.auditEvent.count({ where: { action: "agent.fallback_to_rules", subjectId: c.caseId } }),
      ).toBe(0);
      expect((await c.record()).status).toBe("pending_reply");
      expect(await c.reAuditRuns()).toBe(0);
      const [reply] = await c.replies();
      expect(reply).toMatchObject({ bucket: null, readAt: null });

      const again = await withModel.resumeUnreadReply(reply!.id);
      expect(again).toMatchObject({ handled: true, status: "hitl_review" });
      expect((await c.replies()).map((m) => m.bucket)).toEqual(["escalation"]);
    } finally {
      await stub.close();
    }
  });
});

/** The next status change of the case fails once (the database drops out as the Case Manager decides). */
const failNextStatusChange = (name: string, caseId: string) =>
  failNextInsert(db.prisma, {
    name,
    table: "audit_events",
    after: `NEW.action = 'case.status_changed' AND NEW.subject_id = '${caseId}'`,
  });

describe("a re-audit counts once per reply and per timeout, however often it is read or retried", () => {
  it("a reply read again after the database failed is not a second re-audit (no early cancellation)", async () => {
    // Still failing after one re-audit: a second counted re-audit leaves it with a person, a third proposes cancellation.
    const c = await caseWithFixedRecord("VP-107", "EMP-1015");
    await db.prisma.employee.update({
      where: { id: "EMP-1015" },
      data: { homeCity: "Redding", homeZip: "96001", homeLat: null, homeLng: null },
    });
    await db.prisma.case.update({ where: { id: c.caseId }, data: { reAuditCount: 1 } });
    await failNextStatusChange("ack_status", c.caseId);
    const body = "Thanks, I got your email. Everything on file is correct.";
    await expect(workflow().receiveReply({ threadId: c.thread.thread_id, from: c.rider, body })).rejects.toThrow();
    expect(await faultFired(db.prisma, "ack_status")).toBe(true);
    expect((await c.record()).status).toBe("pending_reply");

    const [reply] = await c.replies();
    const again = await workflow().resumeUnreadReply(reply!.id);
    expect(again).toMatchObject({ handled: true, status: "hitl_review" });
    expect((await c.record()).reAuditCount).toBe(2);
    expect(await db.prisma.approvalRequest.count({ where: { caseId: c.caseId, kind: "cancellation" } })).toBe(0);
  });

  it("a timeout retried after the database failed is one re-audit", async () => {
    const c = await caseWithFixedRecord("VP-110", "EMP-1018");
    await db.prisma.employee.update({
      where: { id: "EMP-1018" },
      data: { homeCity: "Redding", homeZip: "96001", homeLat: null, homeLng: null },
    });
    const { lastOutboundAt } = await c.record();
    const late = new Date(lastOutboundAt!.getTime() + 8 * 86_400_000);
    await failNextStatusChange("timeout_status", c.caseId);
    await expect(workflow().replyTimeout(c.caseId, late, lastOutboundAt!)).rejects.toThrow();
    expect(await faultFired(db.prisma, "timeout_status")).toBe(true);
    // The job's retry, then a `tick` at the same time: the one timeout re-audited once, one cancellation request.
    expect(await workflow().replyTimeout(c.caseId, late, lastOutboundAt!)).toMatchObject({ status: "pre_cancel" });
    await workflow().tick(late);
    expect((await c.record()).reAuditCount).toBe(1);
    const requests = await db.prisma.approvalRequest.findMany({ where: { caseId: c.caseId, kind: "cancellation" } });
    expect(requests).toHaveLength(1);
    expect(requests[0]!.payload).toMatchObject({ reason: expect.stringMatching(/after 1 re-audit\(s\) \(timeout\)/) });
  });
});

describe("a cancellation proposed by the rules model after the configured model failed", () => {
  it("names the thread that waits on it, so the approval resumes that agent and leaves no thread waiting", async () => {
    const stub = await startOpenAIStub();
    try {
      stub.script("Pool Patrol's Case Manager", () => ({ httpStatus: 500 }));
      const withModel = await caseManagerOn(stub);
      const c = await caseWithFixedRecord("VP-112", "EMP-1049");
      await db.prisma.employee.update({
        where: { id: "EMP-1049" },
        data: { homeCity: "Redding", homeZip: "96001", homeLat: null, homeLng: null },
      });
      const { lastOutboundAt } = await c.record();
      const late = new Date(lastOutboundAt!.getTime() + 8 * 86_400_000);
      const timedOut = await createCaseWorkflow(withModel).replyTimeout(c.caseId, late, lastOutboundAt!);
      expect(timedOut).toMatchObject({ status: "pre_cancel", approval_id: expect.stringMatching(/^APR-/) });
      expect(
        await db.prisma.auditEvent.count({ where: { action: "agent.fallback_to_rules", subjectId: c.caseId } }),
      ).toBe(1);
      const request = await db.prisma.approvalRequest.findUniqueOrThrow({ where: { id: timedOut.approval_id! } });
      const caseManager = createCaseManagerAgent(deps).agent;
      expect(await pendingInterrupts(caseManager, request.graphThreadId!)).toContain(request.interruptId);

      const decided = await workflow().decide(request.id, "approve", "U0ALICE");
      expect(decided.note).toMatch(/EMP-1049/);
      expect((await c.record()).status).toBe("cancelled");
      expect(await pendingInterrupts(caseManager, request.graphThreadId!)).toEqual([]);
      const resumed = await db.prisma.agentRun.findMany({
        where: { agent: "case_manager", caseId: c.caseId, input: { path: ["resume"], not: Prisma.AnyNull } },
      });
      expect(resumed.map((r) => r.status)).toEqual(["succeeded"]);
    } finally {
      await stub.close();
    }
  });
});

describe("a Case Manager thread left with a tool call that has no result", () => {
  it("stays on the configured model: its next turn is sent with that call answered, not refused by the API", {
    timeout: 90_000,
  }, async () => {
    const stub = await startOpenAIStub();
    try {
      stub.script("Pool Patrol's Case Manager", followsPolicy(caseManagerRules));
      const withModel = createCaseWorkflow(await caseManagerOn(stub));
      const c = await caseWithFixedRecord("VP-108", "EMP-1099");
      await db.prisma.employee.update({
        where: { id: "EMP-1099" },
        data: { homeCity: "Redding", homeZip: "96001", homeLat: null, homeLng: null },
      });
      const fallbacks = () =>
        db.prisma.auditEvent.count({ where: { action: "agent.fallback_to_rules", subjectId: c.caseId } });
      // The first reply is read (the Case Manager's tool ran), then the step's checkpoint is never stored: the case's
      // thread keeps the model's tool call with no result, as after a kill -9 at that point.
      await failNextInsert(db.prisma, {
        name: "tool_result",
        table: "langgraph.checkpoints",
        after: `NEW.thread_id = 'case:${c.caseId}' AND EXISTS (SELECT 1 FROM public.messages WHERE thread_id = '${c.thread.thread_id}' AND bucket IS NOT NULL)`,
      });
      const reply = (body: string) => withModel.receiveReply({ threadId: c.thread.thread_id, from: c.rider, body });
      await reply("Could you tell me when the next check happens?").catch(() => undefined);
      expect(await faultFired(db.prisma, "tool_result")).toBe(true);
      const before = await fallbacks();

      stub.requests.length = 0;
      const second = await reply("Thanks for checking, everything you have on file is correct.");
      expect(second).toMatchObject({ handled: true });
      expect(stub.requests.length).toBeGreaterThan(0);
      expect(stub.rejected).toEqual([]);
      expect(await fallbacks()).toBe(before);
    } finally {
      await stub.close();
    }
  });
});

describe("a case proposed for cancellation whose run died before the request was stored", () => {
  it("gets its one cancellation request (the card) when the timeout job is retried, and never a second", async () => {
    const c = await caseWithFixedRecord("VP-116", "EMP-1058");
    await db.prisma.employee.update({
      where: { id: "EMP-1058" },
      data: { homeCity: "Redding", homeZip: "96001", homeLat: null, homeLng: null },
    });
    const { lastOutboundAt } = await c.record();
    const late = new Date(lastOutboundAt!.getTime() + 8 * 86_400_000);
    const requests = () => db.prisma.approvalRequest.findMany({ where: { caseId: c.caseId, kind: "cancellation" } });
    await failNextInsert(db.prisma, { name: "cancellation_request", table: "approval_requests" });
    await expect(workflow().replyTimeout(c.caseId, late, lastOutboundAt!)).rejects.toThrow();
    expect(await faultFired(db.prisma, "cancellation_request")).toBe(true);
    expect((await c.record()).status).toBe("pre_cancel");
    expect(await requests()).toHaveLength(0);

    // The job's retry, then another retry and a `tick`: one request waits for an approver.
    const retried = await workflow().replyTimeout(c.caseId, late, lastOutboundAt!);
    expect(retried).toMatchObject({ status: "pre_cancel", approval_id: expect.stringMatching(/^APR-/) });
    await workflow().replyTimeout(c.caseId, late, lastOutboundAt!);
    await workflow().tick(late);
    const waiting = await requests();
    expect(waiting.map((r) => [r.id, r.status])).toEqual([[retried.approval_id, "pending"]]);
    expect((await c.record()).reAuditCount).toBe(1);
    expect((await workflow().decide(retried.approval_id!, "approve", "U0ALICE")).note).toMatch(/EMP-1058/);
    expect((await c.record()).status).toBe("cancelled");
  });
});

describe("an audit whose first email could not be written", () => {
  it("is finished by the retried audit: the rider never written to gets it, no rider gets it twice", async () => {
    await db.prisma.employee.update({
      where: { id: "EMP-1028" },
      data: { homeCity: "Redding", homeZip: "96001", homeLat: null, homeLng: null },
    });
    await failNextInsert(db.prisma, { name: "first_email", table: "messages", after: "NEW.direction = 'outbound'" });
    await expect(workflow().auditVanpool("VP-111")).rejects.toThrow();
    expect(await faultFired(db.prisma, "first_email")).toBe(true);
    const record = await db.prisma.case.findFirstOrThrow({ where: { vanpoolId: "VP-111", status: "pending_reply" } });
    const flagged = (record.meta as { flagged: string[] }).flagged;
    const riders = await db.prisma.employee.findMany({ where: { id: { in: flagged } } });
    const written = async () => {
      const sent = await db.prisma.message.findMany({
        where: { direction: "outbound", thread: { caseId: record.id } },
      });
      return riders.map((r) => sent.filter((m) => m.toAddresses.includes(r.email)).length);
    };
    expect(flagged.length).toBe(2);
    expect((await written()).sort()).toEqual([0, 1]);

    // The audit job's retry (or the Re-audit button): the email never written goes out; none goes twice.
    expect(await workflow().auditVanpool("VP-111")).toMatchObject({ case_id: record.id, status: "pending_reply" });
    expect(await written()).toEqual([1, 1]);
    expect((await db.prisma.case.findUniqueOrThrow({ where: { id: record.id } })).lastOutboundAt).not.toBeNull();
    await workflow().auditVanpool("VP-111");
    expect(await written()).toEqual([1, 1]);
  });
});

describe("an agent's checkpoint that could not be stored", () => {
  it("stops the run there: the cancellation request is made once, from a stored checkpoint its approval resumes", async () => {
    const c = await caseWithFixedRecord("VP-105", "EMP-1041");
    await db.prisma.employee.update({
      where: { id: "EMP-1041" },
      data: { homeCity: "Redding", homeZip: "96001", homeLat: null, homeLng: null },
    });
    const { lastOutboundAt } = await c.record();
    const late = new Date(lastOutboundAt!.getTime() + 8 * 86_400_000);
    await failNextInsert(db.prisma, {
      name: "checkpoint",
      table: "langgraph.checkpoints",
      after: `EXISTS (SELECT 1 FROM public.cases WHERE id = '${c.caseId}' AND status = 'pre_cancel')`,
    });
    const requests = () => db.prisma.approvalRequest.findMany({ where: { caseId: c.caseId, kind: "cancellation" } });
    await expect(workflow().replyTimeout(c.caseId, late, lastOutboundAt!)).rejects.toThrow(/injected fault/);
    expect(await faultFired(db.prisma, "checkpoint")).toBe(true);
    expect(await requests()).toHaveLength(0);

    const retried = await workflow().replyTimeout(c.caseId, late, lastOutboundAt!);
    expect((await requests()).map((r) => r.id)).toEqual([retried.approval_id]);
    const request = (await requests())[0]!;
    const caseManager = createCaseManagerAgent(deps).agent;
    expect(await pendingInterrupts(caseManager, request.graphThreadId!)).toContain(request.interruptId);
  });
});

describe("a reply whose reading failed and that Resend does not deliver again", () => {
  const failClassification = (name: string, threadId: string) =>
    failNextWrite(db.prisma, { name, table: "messages", column: "bucket", when: `NEW.thread_id = '${threadId}'` });
  const minutesFromNow = (minutes: number) => new Date(Date.now() + minutes * 60_000);

  it("is read by the clock ten minutes after it came, not before", async () => {
    const c = await caseWithFixedRecord("VP-101", "EMP-1074");
    await failClassification("stranded_once", c.thread.thread_id);
    const body = "Thanks for checking, everything you have on file is correct.";
    await expect(workflow().receiveReply({ threadId: c.thread.thread_id, from: c.rider, body })).rejects.toThrow();
    expect(await faultFired(db.prisma, "stranded_once")).toBe(true);

    // Resend may still deliver it again in the first minutes: the clock leaves it alone then.
    expect(await workflow().readStrandedReplies(minutesFromNow(2))).toEqual({ read: 0, toPerson: 0 });
    expect((await c.replies())[0]).toMatchObject({ bucket: null, readAt: null });

    expect(await workflow().readStrandedReplies(minutesFromNow(11))).toEqual({ read: 1, toPerson: 0 });
    const [reply] = await c.replies();
    expect(reply!.bucket).toBe("acknowledgment");
    expect(reply!.readAt).not.toBeNull();
    expect((await c.record()).status).not.toBe("pending_reply");
  });

  it("goes to a person with the reason when it still cannot be read an hour after it came", async () => {
    const c = await caseWithFixedRecord("VP-106", "EMP-1091");
    const emailed = await c.emailsTo(c.rider);
    await failClassification("unreadable_1", c.thread.thread_id);
    const body = "I don't agree with this at all.";
    await expect(workflow().receiveReply({ threadId: c.thread.thread_id, from: c.rider, body })).rejects.toThrow();

    await failClassification("unreadable_2", c.thread.thread_id);
    expect(await workflow().readStrandedReplies(minutesFromNow(20))).toEqual({ read: 0, toPerson: 0 });
    expect(await faultFired(db.prisma, "unreadable_2")).toBe(true);
    expect((await c.record()).status).toBe("pending_reply");

    await failClassification("unreadable_3", c.thread.thread_id);
    expect(await workflow().readStrandedReplies(minutesFromNow(61))).toEqual({ read: 0, toPerson: 1 });
    const record = await c.record();
    expect(record.status).toBe("hitl_review");
    expect(JSON.stringify(record.meta)).toMatch(/reply from EMP-1091 could not be read automatically/);
    expect((await c.replies())[0]!.readAt).not.toBeNull();
    // No one answered a reply no one read.
    expect(await c.emailsTo(c.rider)).toBe(emailed);
    expect(await workflow().readStrandedReplies(minutesFromNow(62))).toEqual({ read: 0, toPerson: 0 });
  });
});
