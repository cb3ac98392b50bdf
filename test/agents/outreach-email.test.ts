// What each rider reads, asserted at the Resend stub: own checks and own facts only,
// the right rider hears back after a partial fix, threading headers, and the removal
// notice exactly once.
import { afterEach, describe, expect, it } from "vitest";
import type { AgentDeps } from "../../src/agents/deps.js";
import { sendRemovalNotices } from "../../src/agents/outreach/removal-notices.js";
import { buildAppDeps } from "../../src/app/container.js";
import { createCaseWorkflow } from "../../src/cases/case-workflow.js";
import { seedFolder } from "../../src/cases/seed-folder.js";
import { parseSettings } from "../../src/config/settings.js";
import { findThreadForCase } from "../../src/data/email-repository.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";
import { copyMockDir } from "../support/fixtures.js";
import { type ResendStub, startResendStub } from "../support/resend-stub.js";

const LINH = "linh.tran@northwind.example"; // location fails (moved to Los Banos)
const REBECCA = "rebecca.hollis@northwind.example"; // shift fails (nights)

interface Story {
  stub: ResendStub;
  db: TestDatabase;
  deps: AgentDeps;
  /** The workflow's clock: the day of the audit until a test moves it. */
  clock: Date;
  /** VP-101's case, emailing Linh (location) and Rebecca (shift). */
  caseId: string;
}

const stories: Story[] = [];
afterEach(async () => {
  for (const story of stories.splice(0)) {
    await story.stub.close();
    await story.db.drop();
  }
});

/** Each test's own database and outbox, with VP-101 audited: one case, both riders emailed. */
async function auditedStory(): Promise<Story> {
  const stub = await startResendStub();
  const db = await createTestDatabase();
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
  await seedFolder(db, dir);
  const settings = parseSettings({
    RESEND_API_KEY: "re_test_key",
    RESEND_BASE_URL: stub.baseUrl,
    POOLPATROL_INBOUND_ADDRESS: "replies@inbound.northwind.example",
    POOLPATROL_SHIFT_TOLERANCE_MINUTES: "90",
  });
  const story = { stub, db, clock: new Date("2026-11-23T16:00:00Z"), caseId: "" } as Story;
  stories.push(story);
  story.deps = await buildAppDeps(db, settings, { now: () => story.clock });
  const result = await createCaseWorkflow(story.deps).auditVanpool("VP-101");
  expect(result.status).toBe("pending_reply");
  story.caseId = result.case_id!;
  return story;
}

/** A day later Linh's address is fixed and she writes back; Rebecca's shift still fails. */
async function linhMovesBack(story: Story) {
  await story.db.prisma.employee.update({
    where: { id: "EMP-1071" },
    data: { homeCity: "San Jose", homeZip: "95123", homeAddress: "400 Blossom Hill Rd" },
  });
  const thread = (await findThreadForCase(story.db.prisma, story.caseId))!;
  story.clock = new Date("2026-11-24T16:00:00Z");
  return createCaseWorkflow(story.deps).receiveReply({
    threadId: thread.thread_id,
    from: LINH,
    body: "Hi, I moved back to San Jose last week and updated my address in the portal.",
  });
}

const sentTo = ({ stub }: Story, address: string) => stub.sent.filter((s) => (s.body.to as string[]).includes(address));
const text = (s: ResendStub["sent"][number]) => String(s.body.text);

describe("per-rider outreach", () => {
  it("tells each rider only about their own failing check, with the configured shift tolerance", async () => {
    const story = await auditedStory();
    expect(sentTo(story, LINH)).toHaveLength(1);
    expect(sentTo(story, REBECCA)).toHaveLength(1);

    const linh = text(sentTo(story, LINH)[0]!);
    expect(linh).toContain("could not confirm your home location.");
    expect(linh).toContain("Los Banos (93635)");
    expect(linh).not.toMatch(/shift/i);

    const rebecca = text(sentTo(story, REBECCA)[0]!);
    expect(rebecca).toContain("could not confirm your work shift.");
    expect(rebecca).toContain("Night Shift");
    expect(rebecca).toContain("within 90 minutes of the van's");
    expect(rebecca).not.toMatch(/miles|home in/i);
    expect(rebecca).not.toContain("Linh");
  });

  it("gives every email a thread reply address and its own Message-ID", async () => {
    const story = await auditedStory();
    const thread = (await findThreadForCase(story.db.prisma, story.caseId))!;
    expect(story.stub.sent).toHaveLength(2);
    for (const email of story.stub.sent) {
      expect(email.body.reply_to).toBe(`replies+${thread.thread_id}@inbound.northwind.example`);
      expect((email.body.headers as Record<string, string>)["Message-ID"]).toMatch(
        /^<MSG-[0-9A-F]{16}@inbound\.northwind\.example>$/,
      );
    }
  });

  it("after a partial fix answers the rider who wrote, and writes nothing to the one who did not", async () => {
    const story = await auditedStory();
    const result = await linhMovesBack(story);
    expect(result.status).toBe("pending_reply");
    const record = await story.db.prisma.case.findUniqueOrThrow({ where: { id: story.caseId } });
    expect(record.failedChecks).toEqual(["shift"]);

    expect(sentTo(story, REBECCA)).toHaveLength(1);
    expect(sentTo(story, LINH)).toHaveLength(2);
    const ack = sentTo(story, LINH)[1]!;
    expect(text(ack)).toContain("your details now meet the program's rules for VP-101");
    expect(text(ack)).not.toMatch(/still do not meet|shift/i);
    const first = (sentTo(story, LINH)[0]!.body.headers as Record<string, string>)["Message-ID"];
    expect((ack.body.headers as Record<string, string>)["In-Reply-To"]).toBe(first);
  });

  it("sends each removed rider the removal notice with the appeal route, exactly once", async () => {
    const story = await auditedStory();
    const { caseId, deps } = story;
    await linhMovesBack(story);
    const workflow = createCaseWorkflow(deps);
    const timeouts = await workflow.tick(new Date("2026-12-31T17:00:00Z"));
    expect(timeouts.timeouts.find((t) => t.case_id === caseId)).toMatchObject({ status: "pre_cancel" });
    const approval = await story.db.prisma.approvalRequest.findFirstOrThrow({
      where: { caseId, kind: "cancellation" },
    });
    expect(approval.payload).toMatchObject({ employee_ids: ["EMP-1047"] });

    await workflow.decide(approval.id, "approve", "U_ALICE");
    await workflow.tick(new Date("2026-12-31T18:00:00Z"));
    const again = await sendRemovalNotices(deps, { caseId, employeeIds: ["EMP-1047"], actor: "test" });
    expect(again).toMatchObject([{ employee_id: "EMP-1047", already_sent: true }]);

    const notices = sentTo(story, REBECCA).filter((s) => String(s.body.subject).includes("has ended"));
    expect(notices).toHaveLength(1);
    expect(text(notices[0]!)).toContain("Email vanpool-program@northwind.example within 14 days");
    expect(text(notices[0]!)).toContain("Night Shift");
    expect(sentTo(story, LINH).filter((s) => String(s.body.subject).includes("has ended"))).toHaveLength(0);
  });
});
