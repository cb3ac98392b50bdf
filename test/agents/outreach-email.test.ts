// What each rider reads, asserted at the Resend stub: own checks and own facts only,
// the right rider hears back after a partial fix, threading headers, and the removal
// notice exactly once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AgentDeps, buildAgentDeps } from "../../src/agents/deps.js";
import { sendRemovalNotices } from "../../src/agents/outreach/removal-notices.js";
import { createCaseWorkflow } from "../../src/cases/case-workflow.js";
import { parseSettings } from "../../src/config/settings.js";
import { findThreadForCase } from "../../src/data/email-repository.js";
import { readFixtureDir } from "../../src/data/fixtures.js";
import { seedFixtures } from "../../src/data/seed.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";
import { copyMockDir } from "../support/fixtures.js";
import { type ResendStub, startResendStub } from "../support/resend-stub.js";

const LINH = "linh.tran@northwind.example"; // location fails (moved to Los Banos)
const REBECCA = "rebecca.hollis@northwind.example"; // shift fails (nights)

let stub: ResendStub;
let db: TestDatabase;
let deps: AgentDeps;
let clock = new Date("2026-11-23T16:00:00Z");

beforeAll(async () => {
  stub = await startResendStub();
  db = await createTestDatabase();
  const dir = copyMockDir((files) => {
    const linh = files["employees.json"]!.find((e) => e.employee_id === "EMP-1071");
    Object.assign(linh, {
      home_city: "Los Banos",
      home_zip: "93635",
      home_address: "12 Pacheco Blvd",
      home_coords: null,
    });
    files["employees.json"]!.find((e) => e.employee_id === "EMP-1047").shift_id = "SHIFT_NIGHT";
  });
  await seedFixtures(db.prisma, readFixtureDir(dir));
  const settings = parseSettings({
    RESEND_API_KEY: "re_test_key",
    RESEND_BASE_URL: stub.baseUrl,
    POOLPATROL_INBOUND_ADDRESS: "replies@inbound.northwind.example",
    POOLPATROL_SHIFT_TOLERANCE_MINUTES: "90",
  });
  deps = await buildAgentDeps(db, settings, { now: () => clock });
});
afterAll(async () => {
  await stub.close();
  await db.drop();
});

const sentTo = (address: string) => stub.sent.filter((s) => (s.body.to as string[]).includes(address));
const text = (s: ResendStub["sent"][number]) => String(s.body.text);

// One rider story, step by step: each test continues the case the one before left.
describe("per-rider outreach", { shuffle: false }, () => {
  let caseId = "";

  it("tells each rider only about their own failing check, with the configured shift tolerance", async () => {
    const result = await createCaseWorkflow(deps).auditVanpool("VP-101");
    caseId = result.case_id!;
    expect(result.status).toBe("pending_reply");
    expect(sentTo(LINH)).toHaveLength(1);
    expect(sentTo(REBECCA)).toHaveLength(1);

    const linh = text(sentTo(LINH)[0]!);
    expect(linh).toContain("could not confirm your home location.");
    expect(linh).toContain("Los Banos (93635)");
    expect(linh).not.toMatch(/shift/i);

    const rebecca = text(sentTo(REBECCA)[0]!);
    expect(rebecca).toContain("could not confirm your work shift.");
    expect(rebecca).toContain("Night Shift");
    expect(rebecca).toContain("within 90 minutes of the van's");
    expect(rebecca).not.toMatch(/miles|home in/i);
    expect(rebecca).not.toContain("Linh");
  });

  it("gives every email a thread reply address and its own Message-ID", async () => {
    const thread = (await findThreadForCase(db.prisma, caseId))!;
    for (const email of stub.sent) {
      expect(email.body.reply_to).toBe(`replies+${thread.thread_id}@inbound.northwind.example`);
      expect((email.body.headers as Record<string, string>)["Message-ID"]).toMatch(
        /^<MSG-[0-9A-F]{16}@inbound\.northwind\.example>$/,
      );
    }
  });

  it("after a partial fix answers the rider who wrote, and writes nothing to the one who did not", async () => {
    await db.prisma.employee.update({
      where: { id: "EMP-1071" },
      data: { homeCity: "San Jose", homeZip: "95123", homeAddress: "400 Blossom Hill Rd" },
    });
    const thread = (await findThreadForCase(db.prisma, caseId))!;
    clock = new Date("2026-11-24T16:00:00Z");
    const result = await createCaseWorkflow(deps).receiveReply({
      threadId: thread.thread_id,
      from: LINH,
      body: "Hi, I moved back to San Jose last week and updated my address in the portal.",
    });
    expect(result.status).toBe("pending_reply");
    const record = await db.prisma.case.findUniqueOrThrow({ where: { id: caseId } });
    expect(record.failedChecks).toEqual(["shift"]);

    expect(sentTo(REBECCA)).toHaveLength(1);
    expect(sentTo(LINH)).toHaveLength(2);
    const ack = sentTo(LINH)[1]!;
    expect(text(ack)).toContain("your details now meet the program's rules for VP-101");
    expect(text(ack)).not.toMatch(/still do not meet|shift/i);
    const first = (sentTo(LINH)[0]!.body.headers as Record<string, string>)["Message-ID"];
    expect((ack.body.headers as Record<string, string>)["In-Reply-To"]).toBe(first);
  });

  it("sends each removed rider the removal notice with the appeal route, exactly once", async () => {
    const workflow = createCaseWorkflow(deps);
    const timeouts = await workflow.tick(new Date("2026-12-31T17:00:00Z"));
    expect(timeouts.timeouts.find((t) => t.case_id === caseId)).toMatchObject({ status: "pre_cancel" });
    const approval = await db.prisma.approvalRequest.findFirstOrThrow({ where: { caseId, kind: "cancellation" } });
    expect(approval.payload).toMatchObject({ employee_ids: ["EMP-1047"] });

    await workflow.decide(approval.id, "approve", "U_ALICE");
    await workflow.tick(new Date("2026-12-31T18:00:00Z"));
    const again = await sendRemovalNotices(deps, { caseId, employeeIds: ["EMP-1047"], actor: "test" });
    expect(again).toMatchObject([{ employee_id: "EMP-1047", already_sent: true }]);

    const notices = sentTo(REBECCA).filter((s) => String(s.body.subject).includes("has ended"));
    expect(notices).toHaveLength(1);
    expect(text(notices[0]!)).toContain("Email vanpool-program@northwind.example within 14 days");
    expect(text(notices[0]!)).toContain("Night Shift");
    expect(sentTo(LINH).filter((s) => String(s.body.subject).includes("has ended"))).toHaveLength(0);
  });
});
