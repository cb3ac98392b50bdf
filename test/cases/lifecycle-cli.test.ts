// The whole life of cases through the real `poolpatrol` command: every step is a
// new process, so each pending approval also survives a restart. Each test starts from the mock data
// on a fresh database and takes its case to the step it checks itself: a copy of the one `poolpatrol db seed`
// seeded once for the file.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { recordDecision } from "../../src/data/approval-repository.js";
import { runCli } from "../support/cli.js";
import { createTestDatabase, type TestDatabase, tableCounts } from "../support/database.js";

let seeded: TestDatabase;
let db: TestDatabase;
let env: Record<string, string>;
let dataDir: string;
beforeAll(async () => {
  seeded = await createTestDatabase();
  const seedDir = fs.mkdtempSync(path.join(os.tmpdir(), "poolpatrol-lifecycle-"));
  try {
    const result = await runCli(["db", "seed"], { DATABASE_URL: seeded.url, POOLPATROL_DATA_DIR: seedDir });
    expect(result.code, result.stderr).toBe(0);
  } finally {
    fs.rmSync(seedDir, { recursive: true, force: true });
  }
});
afterAll(async () => {
  await seeded?.drop();
});
beforeEach(async () => {
  db = await createTestDatabase({ copyOf: seeded });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "poolpatrol-lifecycle-"));
  env = { DATABASE_URL: db.url, POOLPATROL_DATA_DIR: dataDir };
});
afterEach(async () => {
  await db.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const outbox = () => (fs.existsSync(path.join(dataDir, "outbox")) ? fs.readdirSync(path.join(dataDir, "outbox")) : []);
const sentCount = () => db.prisma.message.count({ where: { direction: "outbound", status: "sent" } });
const ok = async (args: string[]) => {
  const result = await runCli(args, env);
  expect(result.code, `${args.join(" ")}\n${result.stderr}`).toBe(0);
  return result.stdout;
};
async function threadOf(vanpoolId: string) {
  const record = await db.prisma.case.findFirstOrThrow({
    where: { vanpoolId, status: { notIn: ["resolved", "cancelled"] } },
  });
  const thread = await db.prisma.emailThread.findUniqueOrThrow({
    where: { caseId: record.id },
    include: { messages: true },
  });
  return {
    caseId: record.id,
    threadId: thread.id,
    recipients: thread.messages.filter((m) => m.direction === "outbound").flatMap((m) => m.toAddresses),
  };
}
const pendingFor = (caseId: string) =>
  db.prisma.approvalRequest.findFirstOrThrow({ where: { caseId, status: "pending" } });
/** The reply deadline of every waiting case has passed: each asks for a cancellation. */
const afterTheDeadline = () => ok(["tick", "--now", "2026-12-31T17:00:00Z"]);

describe("a case from audit to decisions", () => {
  it("audit opens the case and emails each flagged rider only their own facts", async () => {
    const out = await ok(["audit", "VP-111"]);
    expect(out).toMatch(/Case: CASE-[0-9A-F]{16} \(VP-111\): pending_reply/);
    const { recipients } = await threadOf("VP-111");
    expect(recipients.sort()).toEqual(["diego.fuentes@northwind.example", "wendell.ashby@northwind.example"]);
    const emails = outbox().map((f) => fs.readFileSync(path.join(dataDir, "outbox", f), "utf8"));
    const toWendell = emails.find((e) => e.includes("To: wendell.ashby@"))!;
    expect(toWendell).toContain("Oakdale");
    expect(toWendell).not.toContain("Salinas"); // Diego's home is never shown to Wendell
    expect(toWendell).not.toMatch(/\d+ [A-Z][a-z]+ (St|Ave|Rd|Dr|Ln|Ct|Way)\b.*Oakdale/); // no street address
  });

  it("holds the reply to an angry rider for a person; an edit in a new process sends it once", async () => {
    await ok(["audit", "VP-111"]);
    const { caseId, threadId } = await threadOf("VP-111");
    const replied = await ok([
      "reply",
      threadId,
      "--from",
      "wendell.ashby@northwind.example",
      "--body",
      "This is ridiculous. I've ridden this van for six years and I want to talk to a manager.",
    ]);
    expect(replied).toMatch(/the case is waiting for a person to review it\./);
    const approval = await pendingFor(caseId);
    expect(await ok(["approvals"])).toContain(approval.id);

    const before = await sentCount();
    const edited = await ok([
      "edit",
      approval.id,
      "--as",
      "U_ALICE",
      "--body",
      "Hi Wendell, a coordinator will call you this week. Nothing changes meanwhile.",
    ]);
    expect(edited).toMatch(new RegExp(`${approval.id} edited by U_ALICE: Email sent to EMP-1028`));
    expect(await sentCount()).toBe(before + 1);
    const sent = await db.prisma.message.findFirstOrThrow({
      where: { direction: "outbound", idempotencyKey: `approval:${approval.id}` },
    });
    expect(sent.body).toBe("Hi Wendell, a coordinator will call you this week. Nothing changes meanwhile.");
    expect((await db.prisma.case.findUniqueOrThrow({ where: { id: caseId } })).status).toBe("pending_reply");

    const again = await runCli(["approve", approval.id, "--as", "U_BOB"], env);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(new RegExp(`${approval.id} was already edited by U_ALICE at 20\\d\\d-`));
    expect(await sentCount()).toBe(before + 1);
  });

  it("carries out a decision exactly once even if the process died before resuming the agent", async () => {
    await ok(["audit", "VP-111"]);
    const { caseId, threadId } = await threadOf("VP-111");
    await ok([
      "reply",
      threadId,
      "--from",
      "diego.fuentes@northwind.example",
      "--body",
      "This is wrong and honestly insulting. Who reported me?",
    ]);
    const approval = await pendingFor(caseId);
    // The decision is committed, then the process "dies" before resuming the paused agent.
    await recordDecision(db.prisma, {
      approvalId: approval.id,
      decision: "approve",
      actor: "U_CAROL",
      now: new Date(),
    });
    const before = await sentCount();

    const tick = await ok(["tick"]);
    expect(tick).toMatch(
      new RegExp(`carried out ${approval.id} \\(approved\\): (Email sent to|The email to) EMP-\\d+`),
    );
    expect(await sentCount()).toBe(before + 1);
    expect(await ok(["tick"])).not.toContain(approval.id);
    expect(await sentCount()).toBe(before + 1);
  });

  it("after the reply deadline, asks before cancelling; a rejection keeps the riders, an approval removes them", async () => {
    await ok(["audit", "VP-111"]);
    const out = await afterTheDeadline();
    expect(out).toMatch(/timeout CASE-[0-9A-F]{16} \(VP-111\): pre_cancel/);
    const vp111 = await threadOf("VP-111");
    const cancellation = await pendingFor(vp111.caseId);
    expect(cancellation.kind).toBe("cancellation");

    const ridersBefore = await db.prisma.rider.count({ where: { vanpoolId: "VP-111", status: "active" } });
    const refused = await runCli(["edit", cancellation.id, "--as", "U_ALICE", "--body", "x"], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("can be approved or rejected, not edited");

    expect(
      await ok(["reject", cancellation.id, "--as", "U_ALICE", "--reason", "Both riders are moving closer next month"]),
    ).toContain("No one was removed");
    const resolved = await db.prisma.case.findUniqueOrThrow({ where: { id: vp111.caseId } });
    expect(resolved).toMatchObject({ status: "resolved", outcome: "resolved" });
    expect(await db.prisma.rider.count({ where: { vanpoolId: "VP-111", status: "active" } })).toBe(ridersBefore);

    const other = await db.prisma.approvalRequest.findFirstOrThrow({
      where: { kind: "cancellation", status: "pending" },
      include: { case: true },
    });
    const flagged = (other.payload as { employee_ids: string[] }).employee_ids;
    expect(await ok(["approve", other.id, "--as", "U_ALICE"])).toContain(`removed from ${other.case.vanpoolId}`);
    expect(await db.prisma.case.findUniqueOrThrow({ where: { id: other.caseId } })).toMatchObject({
      status: "cancelled",
      outcome: "cancelled",
    });
    expect(
      await db.prisma.rider.count({
        where: { vanpoolId: other.case.vanpoolId, employeeId: { in: flagged }, status: "active" },
      }),
    ).toBe(0);
    const shown = await ok(["case", "show", other.caseId]);
    expect(shown).toMatch(/approval\.approved/);
    expect(shown).toMatch(/rider\.removed/);
  });

  it("records a reply to a closed case without reopening it", async () => {
    await afterTheDeadline();
    const cancellation = await db.prisma.approvalRequest.findFirstOrThrow({
      where: { kind: "cancellation", status: "pending" },
    });
    await ok(["approve", cancellation.id, "--as", "U_ALICE"]);
    const closed = await db.prisma.case.findUniqueOrThrow({ where: { id: cancellation.caseId } });
    expect(closed.status).toBe("cancelled");
    const thread = await db.prisma.emailThread.findUniqueOrThrow({
      where: { caseId: closed.id },
      include: { messages: true },
    });
    const from = thread.messages.find((m) => m.direction === "outbound")!.toAddresses[0]!;
    const out = await ok(["reply", thread.id, "--from", from, "--body", "Wait, I did update my address!"]);
    expect(out).toContain("Nothing was reopened");
    expect((await db.prisma.case.findUniqueOrThrow({ where: { id: closed.id } })).status).toBe("cancelled");
    expect(await db.prisma.auditEvent.count({ where: { subjectId: closed.id, action: "reply.after_close" } })).toBe(1);
  });
});

describe("refusals", () => {
  it("refuses a reply to an unknown thread or from a sender not on the thread, and stores nothing", async () => {
    const before = await tableCounts(db.prisma);
    const unknown = await runCli(
      ["reply", "THREAD-0000000000000000", "--from", "someone@example.com", "--body", "hello"],
      env,
    );
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/No email thread THREAD-0000000000000000\./);
    const thread = await db.prisma.emailThread.findFirstOrThrow({ orderBy: { createdAt: "asc" } });
    const stranger = await runCli(["reply", thread.id, "--from", "stranger@example.com", "--body", "I moved"], env);
    expect(stranger.code).toBe(2);
    expect(stranger.stderr).toContain("stranger@example.com was not written to");
    expect(`${unknown.stderr}${stranger.stderr}`).not.toMatch(/quarantine/);
    expect(await tableCounts(db.prisma)).toEqual(before);
    expect(await db.prisma.quarantinedEmail.count()).toBe(0);
  });

  it("expires a pending decision when its case closes first: deciding it then changes nothing", async () => {
    await ok(["audit", "VP-109"]);
    const { caseId, threadId } = await threadOf("VP-109");
    const record = await db.prisma.case.findUniqueOrThrow({ where: { id: caseId } });
    const flagged = (record.meta as { flagged: string[] }).flagged[0]!;
    const employee = await db.prisma.employee.findUniqueOrThrow({ where: { id: flagged } });
    await ok([
      "reply",
      threadId,
      "--from",
      employee.email,
      "--body",
      "This is unfair and I will be filing a complaint with HR.",
    ]);
    const approval = await pendingFor(caseId);
    expect(approval.kind).toBe("escalation_reply");
    // The rider's shift is corrected to the van's hours; a new audit passes and closes the case.
    await db.prisma.employee.update({ where: { id: flagged }, data: { shiftId: "SHIFT_DAY" } });
    expect(await ok(["audit", "VP-109"])).toMatch(/Case: CASE-[0-9A-F]{16} \(VP-109\): resolved/);
    const before = await sentCount();
    const late = await runCli(["approve", approval.id, "--as", "U_ALICE"], env);
    expect(late.code).toBe(2);
    expect(late.stderr).toMatch(new RegExp(`${approval.id} expired at .* without a decision; nothing was done`));
    expect(await sentCount()).toBe(before);
  });
});
