// Faults injected while the Case Manager works a case (the database failing one write, a model failing): each test
// counts what the riders and the people reviewing would see, in the database and at the stubs.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentDeps } from "../../src/agents/deps.js";
import { buildAppDeps } from "../../src/app/container.js";
import { createCaseWorkflow } from "../../src/cases/case-workflow.js";
import { parseSettings } from "../../src/config/settings.js";
import { findThreadForCase } from "../../src/data/email-repository.js";
import { readFixtureDir } from "../../src/data/fixtures.js";
import { seedFixtures } from "../../src/data/seed.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";
import { failNextWrite, faultFired } from "../support/db-faults.js";
import { copyMockDir } from "../support/fixtures.js";

let db: TestDatabase;
let deps: AgentDeps;

beforeAll(async () => {
  db = await createTestDatabase();
  await seedFixtures(db.prisma, readFixtureDir(copyMockDir()));
  deps = await buildAppDeps(db, parseSettings({}));
});
afterAll(async () => {
  await db.drop();
});

const workflow = () => createCaseWorkflow(deps);

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
