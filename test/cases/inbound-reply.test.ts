// Inbound email over the real webhook: the Bolt app in HTTP mode serves POST
// /webhooks/resend, Resend's part is the stub (receiving API, signed deliveries), and
// every effect is counted at the stub, in the database and in the local Slack.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import type { AddressInfo, Server } from "node:net";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { AgentDeps } from "../../src/agents/deps.js";
import { buildAppDeps } from "../../src/app/container.js";
import { createSlackApp, type SlackApp } from "../../src/bot/app.js";
import { createCaseWorkflow } from "../../src/cases/case-workflow.js";
import { seedFolder } from "../../src/cases/seed-folder.js";
import { quarantineCommand } from "../../src/cli/quarantine-command.js";
import { parseSettings } from "../../src/config/settings.js";
import { findThreadForCase } from "../../src/data/email-repository.js";
import { listDeliveryEvents } from "../../src/data/inbound-repository.js";
import { signResendWebhook } from "../../src/integrations/email/inbound/webhook-signature.js";
import { compiledChild } from "../support/compiled-child.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";
import {
  endStalledWrites,
  failNextInsert,
  failNextWrite,
  faultFired,
  stallNextInsertAfter,
} from "../support/db-faults.js";
import { copyMockDir } from "../support/fixtures.js";
import {
  postWebhook,
  type ResendStub,
  receivedEvent,
  startResendStub,
  WEBHOOK_SECRET,
} from "../support/resend-stub.js";
import { type FakeSlack, startFakeSlack } from "../support/slack/fake-slack.js";

const INBOUND = "replies@inbound.northwind.example";
const WENDELL = "wendell.ashby@northwind.example";
const DIEGO = "diego.fuentes@northwind.example";
const LINH = "linh.tran@northwind.example";

let stub: ResendStub;
let slack: FakeSlack;
let db: TestDatabase;
let deps: AgentDeps;
let bot: SlackApp;
let webhook = "";
let settingsEnv: Record<string, string> = {};

beforeAll(async () => {
  stub = await startResendStub();
  slack = await startFakeSlack({ users: [{ id: "U0ALICE", name: "alice" }] });
  db = await createTestDatabase();
  const dir = copyMockDir((files) => {
    const linh = files["employees.json"]!.find((e) => e.employee_id === "EMP-1071");
    Object.assign(linh, { home_city: "Los Banos", home_zip: "93635", home_coords: null });
  });
  await seedFolder(db, dir);
  settingsEnv = {
    RESEND_API_KEY: "re_test_key",
    RESEND_BASE_URL: stub.baseUrl,
    RESEND_WEBHOOK_SECRET: WEBHOOK_SECRET,
    POOLPATROL_INBOUND_ADDRESS: INBOUND,
    // Posts to the channel a second apart would only make this file wait (test/slack/shared-pace.test.ts tests the pace).
    POOLPATROL_SLACK_POST_INTERVAL_MS: "0",
  };
  const settings = parseSettings(settingsEnv);
  deps = await buildAppDeps(db, settings);
  bot = await createSlackApp({
    slack: {
      botToken: slack.botToken,
      signingSecret: "test-signing-secret",
      appToken: undefined,
      apiUrl: slack.apiUrl,
      port: 0,
      auditChannel: "C0AUDIT",
      approvers: ["U0ALICE"],
      restrictAudits: true,
      webUrl: "http://localhost",
    },
    deps,
    retries: 0,
  });
  const server = (await bot.app.start(0)) as unknown as Server;
  webhook = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/resend`;
});
afterAll(async () => {
  await bot.idle();
  await bot.app.stop();
  await slack.close();
  await stub.close();
  await db.drop();
});

const workflow = () => createCaseWorkflow(deps);
const threadOf = async (vanpoolId: string) => {
  const record = await db.prisma.case.findFirstOrThrow({ where: { vanpoolId }, orderBy: { createdAt: "desc" } });
  return (await findThreadForCase(db.prisma, record.id))!;
};
const plus = (threadId: string) => `replies+${threadId}@inbound.northwind.example`;

/** A case of its own, opened now (a rider of `vanpoolId` moved to Redding), and that rider's reply with no Message-ID. */
async function replyWithoutMessageId(vanpoolId: string, employeeId: string, text: string) {
  await db.prisma.employee.update({
    where: { id: employeeId },
    data: { homeCity: "Redding", homeZip: "96001", homeLat: null, homeLng: null },
  });
  expect(await workflow().auditVanpool(vanpoolId)).toMatchObject({ status: "pending_reply" });
  const thread = await threadOf(vanpoolId);
  const reply = stub.receive({
    from: thread.messages.find((m) => m.direction === "outbound")!.to[0]!,
    to: [plus(thread.thread_id)],
    subject: `Re: ${thread.subject}`,
    text,
    message_id: "",
  });
  return { thread, reply };
}
const inboundCount = () => db.prisma.message.count({ where: { direction: "inbound" } });

describe("the webhook refuses what it cannot verify and changes nothing", () => {
  it("forged, stale and unsigned deliveries get 401", async () => {
    const email = stub.receive({ from: WENDELL, to: [INBOUND], subject: "hello", text: "hi" });
    const before = { events: await db.prisma.resendWebhookEvent.count(), inbound: await inboundCount() };
    const forged = await postWebhook(webhook, receivedEvent(email), {
      secret: `whsec_${Buffer.from("someone else").toString("base64")}`,
    });
    const stale = await postWebhook(webhook, receivedEvent(email), { at: new Date(Date.now() - 10 * 60_000) });
    const unsigned = await fetch(webhook, { method: "POST", body: JSON.stringify(receivedEvent(email)) });
    expect([forged.status, stale.status, unsigned.status]).toEqual([401, 401, 401]);
    expect(await db.prisma.resendWebhookEvent.count()).toBe(before.events);
    expect(await inboundCount()).toBe(before.inbound);
    expect(stub.receivingGets).not.toContain(email.id);
  });
});

describe("a full loop: audit, replies over the webhook, re-audit, resolution", () => {
  it("finds the thread by plus address, strips the quoted mail for the classifier and resolves the case", async () => {
    const opened = await workflow().auditVanpool("VP-111");
    expect(opened.status).toBe("pending_reply");
    const thread = await threadOf("VP-111");

    await db.prisma.employee.update({ where: { id: "EMP-1028" }, data: { homeCity: "San Jose", homeZip: "95123" } });
    const reply = stub.receive({
      from: `Wendell Ashby <${WENDELL}>`,
      to: [plus(thread.thread_id)],
      subject: `Re: ${thread.subject}`,
      text: `I moved to San Jose last month and updated my address in the portal.\n\nThanks,\nWendell\n\nOn Mon, Nov 23, 2026 at 8:00 AM Pool Patrol wrote:\n> Hi Wendell,\n> Our records show your home in Oakdale.`,
      attachments: [{ filename: "lease.pdf", content_type: "application/pdf", size: 48213 }],
    });
    const answer = await postWebhook(webhook, receivedEvent(reply), { id: "msg_wendell_1" });
    expect(answer.status).toBe(200);
    expect(stub.receivingGets.filter((id) => id === reply.id)).toHaveLength(1);

    const stored = await db.prisma.message.findUniqueOrThrow({ where: { rfcMessageId: reply.message_id } });
    expect(stored.replyText).toBe("I moved to San Jose last month and updated my address in the portal.");
    expect(stored.body).toContain("> Our records show your home in Oakdale.");
    expect(stored.bucket).toBe("update");
    expect(stored.attachments).toEqual([{ filename: "lease.pdf", content_type: "application/pdf", size: 48213 }]);
    // Wendell's record passes now; Diego's does not: Wendell hears back, Diego gets nothing new.
    const toWendellNow = stub.sent.filter((s) => (s.body.to as string[]).includes(WENDELL));
    expect(toWendellNow).toHaveLength(2);
    expect((toWendellNow[1]!.body.headers as Record<string, string>)["In-Reply-To"]).toBe(reply.message_id);
    expect(String(toWendellNow[1]!.body.text)).toContain("nothing more is needed from you");
    expect(stub.sent.filter((s) => (s.body.to as string[]).includes(DIEGO))).toHaveLength(1);

    // Diego answers from his mail client: no plus address, but In-Reply-To names the email he got.
    await db.prisma.employee.update({ where: { id: "EMP-1083" }, data: { homeCity: "San Jose", homeZip: "95125" } });
    const toDiego = stub.sent.find((s) => (s.body.to as string[]).includes(DIEGO))!;
    const diego = stub.receive({
      from: DIEGO,
      to: [INBOUND],
      subject: `RE: ${thread.subject}`,
      text: "Updated my address in Workday yesterday, I live in San Jose now.",
      headers: { "In-Reply-To": (toDiego.body.headers as Record<string, string>)["Message-ID"]! },
    });
    expect((await postWebhook(webhook, receivedEvent(diego))).status).toBe(200);
    const record = await db.prisma.case.findUniqueOrThrow({ where: { id: thread.case_id } });
    expect(record.status).toBe("resolved");
    expect(stub.sent.filter((s) => (s.body.to as string[]).includes(DIEGO))).toHaveLength(2);
  });

  it("processes a redelivery (same svix-id) once", async () => {
    const thread = await threadOf("VP-113");
    const rider = thread.messages.find((m) => m.direction === "outbound")!.to[0]!;
    const first = stub.receive({ from: rider, to: [plus(thread.thread_id)], subject: "Re: x", text: "A first note." });
    expect((await postWebhook(webhook, receivedEvent(first), { id: "msg_redelivered_1" })).status).toBe(200);
    const again = stub.receive({ from: rider, to: [plus(thread.thread_id)], subject: "Re: x", text: "Another note." });
    expect(await postWebhook(webhook, receivedEvent(again), { id: "msg_redelivered_1" })).toMatchObject({
      status: 200,
      body: { duplicate: true },
    });
    expect(stub.receivingGets.filter((id) => id === first.id)).toHaveLength(1);
    expect(stub.receivingGets).not.toContain(again.id);
    expect(await db.prisma.message.count({ where: { threadId: thread.thread_id, body: "Another note." } })).toBe(0);
  });
});

/** An email to an unknown thread and one from a stranger on VP-102's thread: both quarantined. */
async function quarantineTwo(subject: string) {
  const unknown = stub.receive({
    from: "someone@elsewhere.example",
    to: [INBOUND],
    subject,
    text: `${subject}: is there a van from Gilroy?`,
  });
  const thread = await threadOf("VP-102");
  const stranger = stub.receive({
    from: "stranger@elsewhere.example",
    to: [plus(thread.thread_id)],
    subject: `Re: ${thread.subject}`,
    text: `${subject}: I heard Maribel moved, just so you know.`,
  });
  const answers = [
    await postWebhook(webhook, receivedEvent(unknown)),
    await postWebhook(webhook, receivedEvent(stranger)),
  ];
  const held = await Promise.all(
    [unknown, stranger].map((email) =>
      db.prisma.quarantinedEmail.findFirstOrThrow({ where: { body: email.text ?? "", fromAddress: email.from } }),
    ),
  );
  return { thread, answers, held };
}

describe("mail that matches no thread or sender is quarantined for a person", () => {
  it("an unknown thread and a stranger on a known thread", async () => {
    const before = { inbound: await inboundCount(), posts: slack.messages("C0AUDIT").length };
    const { thread, answers, held } = await quarantineTwo("Carpool question");
    expect(answers.map((a) => a.body)).toMatchObject([
      { quarantined: "unknown thread" },
      { quarantined: "sender not written to" },
    ]);
    expect(await inboundCount()).toBe(before.inbound);
    expect(held.map((q) => [q.status, q.reason])).toEqual([
      ["open", "unknown thread"],
      ["open", "sender not written to"],
    ]);
    const posts = slack
      .messages("C0AUDIT")
      .slice(before.posts)
      .filter((m) => String(m.text).startsWith("An email could not be matched"));
    expect(posts).toHaveLength(2);
    for (const post of posts) expect(String(post.text)).not.toMatch(/@/);
    expect(String(posts[1]!.text)).toContain(thread.case_id);
  });

  it("a stranger's reply handed to the workflow directly waits with the same reason as over the webhook", async () => {
    const thread = await threadOf("VP-102");
    const body = "Handed in directly: I heard Maribel moved.";
    await expect(
      workflow().receiveReply({ threadId: thread.thread_id, from: "stranger@elsewhere.example", body }),
    ).rejects.toThrow(/stranger@elsewhere\.example was not written to .* kept in quarantine/);
    const held = await db.prisma.quarantinedEmail.findFirstOrThrow({ where: { body } });
    expect([held.status, held.reason, held.threadId]).toEqual(["open", "sender not written to", thread.thread_id]);
    const people = { prisma: db.prisma, workflow: workflow(), now: () => new Date() };
    expect(await quarantineCommand(people, ["list"])).toMatch(
      new RegExp(`${held.id} .*from stranger@elsewhere\\.example .*\\(sender not written to\\)`),
    );
  });

  it("a person attaches one to its thread and discards the other, each once", async () => {
    const people = { prisma: db.prisma, workflow: workflow(), now: () => new Date() };
    const { thread, held } = await quarantineTwo("Another carpool question");
    const [unknownId, strangerId] = held.map((q) => q.id);
    const listed = await quarantineCommand(people, ["list"]);
    expect(listed).toContain(`${unknownId}  `);
    expect(listed).toContain("(unknown thread)");
    const assigned = await quarantineCommand(people, ["assign", strangerId!, thread.thread_id], "U0ALICE");
    expect(assigned).toContain(`${strangerId} attached to ${thread.thread_id}`);
    const message = await db.prisma.message.findUniqueOrThrow({ where: { id: strangerId } });
    expect(message).toMatchObject({ threadId: thread.thread_id, direction: "inbound" });
    expect(await quarantineCommand(people, ["discard", unknownId!])).toBe(`${unknownId} discarded.`);
    await expect(quarantineCommand(people, ["discard", unknownId!])).rejects.toThrow(/already discarded/);
    await expect(quarantineCommand(people, ["assign", "MSG-00000000", thread.thread_id])).rejects.toThrow(
      /No quarantined email MSG-00000000/,
    );
    const after = await quarantineCommand(people, ["list"]);
    expect(after).not.toContain(unknownId);
    expect(after).not.toContain(strangerId);
  });
});

describe("a rider's address written with a name and in capitals", () => {
  it("is the rider's reply, not a stranger's, by the webhook and by the workflow alike", async () => {
    await db.prisma.employee.update({
      where: { id: "EMP-1054" },
      data: { homeCity: "Redding", homeZip: "96001", homeLat: null, homeLng: null },
    });
    expect(await workflow().auditVanpool("VP-114")).toMatchObject({ status: "pending_reply" });
    const thread = await threadOf("VP-114");
    const rider = thread.messages.find((m) => m.direction === "outbound")!.to[0]!;
    const written = `  Rider Of VP-114 <${rider.toUpperCase()}> `;

    const direct = await workflow().receiveReply({
      threadId: thread.thread_id,
      from: written,
      body: "Yes, I moved to Redding in September.",
    });
    const email = stub.receive({
      from: written,
      to: [plus(thread.thread_id)],
      subject: `Re: ${thread.subject}`,
      text: "Sending this again in case the first one got lost.",
    });
    const { body: overWebhook } = await postWebhook(webhook, receivedEvent(email));

    expect(overWebhook).not.toHaveProperty("quarantined");
    expect(overWebhook).toMatchObject({ case_id: thread.case_id });
    const replies = await db.prisma.message.findMany({
      where: { id: { in: [direct.message_id, String(overWebhook.message_id)] } },
      orderBy: { createdAt: "asc" },
    });
    expect(replies.map((m) => [m.id, m.threadId, m.fromAddress])).toEqual([
      [direct.message_id, thread.thread_id, rider],
      [overWebhook.message_id, thread.thread_id, rider],
    ]);
    expect(await db.prisma.quarantinedEmail.count({ where: { threadId: thread.thread_id } })).toBe(0);
  });
});

describe("a redelivery after processing failed", () => {
  it("quarantines the email and tells the channel once", async () => {
    // The notice reaches Slack, then recording the event as processed fails: Resend delivers it again.
    await failNextWrite(db.prisma, {
      name: "processed",
      table: "resend_webhook_events",
      column: "processed_at",
      when: "NEW.svix_id = 'msg_redelivered'",
    });
    const email = stub.receive({
      from: "someone@elsewhere.example",
      to: [INBOUND],
      subject: "Redelivered question",
      text: "Redelivered question: is there a van from Hollister?",
    });
    const before = slack.messages("C0AUDIT").length;
    const first = await postWebhook(webhook, receivedEvent(email), { id: "msg_redelivered" });
    expect(first.status).toBe(500);
    const again = await postWebhook(webhook, receivedEvent(email), { id: "msg_redelivered" });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ duplicate: true, quarantined: "unknown thread" });
    const held = await db.prisma.quarantinedEmail.findMany({ where: { body: email.text ?? "" } });
    expect(held).toHaveLength(1);
    const notices = slack
      .messages("C0AUDIT")
      .slice(before)
      .filter((m) => String(m.text).includes("Redelivered question"));
    expect(notices).toHaveLength(1);
    expect(String(notices[0]!.text)).toContain(held[0]!.id);
  });
});

describe("an email without a Message-ID is kept once, by the id Resend gives it", () => {
  it("quarantines a stranger's email once and tells the channel once, redelivered or under another svix-id", async () => {
    await failNextWrite(db.prisma, {
      name: "processed_no_id",
      table: "resend_webhook_events",
      column: "processed_at",
      when: "NEW.svix_id = 'msg_no_id_held'",
    });
    const email = stub.receive({
      from: "someone@elsewhere.example",
      to: [INBOUND],
      subject: "Question without an id",
      text: "Question without an id: is there a van from Morgan Hill?",
      message_id: "",
    });
    const before = slack.messages("C0AUDIT").length;
    expect((await postWebhook(webhook, receivedEvent(email), { id: "msg_no_id_held" })).status).toBe(500);
    const again = await postWebhook(webhook, receivedEvent(email), { id: "msg_no_id_held" });
    const otherDelivery = await postWebhook(webhook, receivedEvent(email), { id: "msg_no_id_held_2" });
    expect([again.status, otherDelivery.status]).toEqual([200, 200]);
    expect(again.body).toMatchObject({ duplicate: true, quarantined: "unknown thread" });
    expect(otherDelivery.body).toMatchObject({ duplicate: false, quarantined: "unknown thread" });
    const held = await db.prisma.quarantinedEmail.findMany({ where: { body: email.text ?? "" } });
    expect(held).toHaveLength(1);
    expect(otherDelivery.body.message_id).toBe(held[0]!.id);
    const notices = slack
      .messages("C0AUDIT")
      .slice(before)
      .filter((m) => String(m.text).includes("Question without an id"));
    expect(notices).toHaveLength(1);
    expect(stub.receivingGets.filter((id) => id === email.id)).toHaveLength(1);
  });

  it("records a rider's reply once and classifies it once, redelivered or under another svix-id", async () => {
    const { thread, reply } = await replyWithoutMessageId(
      "VP-104",
      "EMP-1025",
      "I moved to Redding in September. Can I still ride the van from there?",
    );
    await failNextWrite(db.prisma, {
      name: "processed_reply_no_id",
      table: "resend_webhook_events",
      column: "processed_at",
      when: "NEW.svix_id = 'msg_no_id_reply'",
    });
    expect((await postWebhook(webhook, receivedEvent(reply), { id: "msg_no_id_reply" })).status).toBe(500);
    const sentAfterFirst = stub.sent.length;
    const again = await postWebhook(webhook, receivedEvent(reply), { id: "msg_no_id_reply" });
    const otherDelivery = await postWebhook(webhook, receivedEvent(reply), { id: "msg_no_id_reply_2" });
    expect([again.status, otherDelivery.status]).toEqual([200, 200]);
    const onThread = await db.prisma.message.findMany({
      where: { threadId: thread.thread_id, direction: "inbound" },
    });
    expect(onThread).toHaveLength(1);
    expect(onThread[0]!.bucket).not.toBeNull();
    expect(otherDelivery.body).toMatchObject({ case_id: thread.case_id, message_id: onThread[0]!.id });
    const classified = await db.prisma.auditEvent.count({
      where: { subjectId: thread.case_id, action: "reply.classified" },
    });
    expect(classified).toBe(1);
    expect(stub.sent.length).toBe(sentAfterFirst);
    expect(stub.receivingGets.filter((id) => id === reply.id)).toHaveLength(1);
  });
});

describe("a reply kept but not yet read", () => {
  it("is read once when the email comes again, after the database failed as the Case Manager started", async () => {
    const { thread, reply } = await replyWithoutMessageId(
      "VP-107",
      "EMP-1015",
      "Yes, that address is right, I live in Redding now.",
    );
    // The reply is stored; then the database fails as the Case Manager's run is recorded, before it reads anything.
    await failNextInsert(db.prisma, { name: "case_manager_run", table: "agent_runs" });
    expect((await postWebhook(webhook, receivedEvent(reply), { id: "msg_unread_reply" })).status).toBe(500);
    const inbound = { threadId: thread.thread_id, direction: "inbound" as const };
    expect((await db.prisma.message.findMany({ where: inbound })).map((m) => m.bucket)).toEqual([null]);

    const again = await postWebhook(webhook, receivedEvent(reply), { id: "msg_unread_reply" });
    const later = await postWebhook(webhook, receivedEvent(reply), { id: "msg_unread_reply_2" });
    expect([again.status, later.status]).toEqual([200, 200]);
    const onThread = await db.prisma.message.findMany({ where: inbound });
    expect(onThread).toHaveLength(1);
    expect(onThread[0]!.bucket).not.toBeNull();
    expect(await db.prisma.auditEvent.count({ where: { subjectId: thread.case_id, action: "reply.classified" } })).toBe(
      1,
    );
    expect(again.body.outcome).toMatch(/kept before but not yet read, is read now/);
    expect(later.body.outcome).toMatch(/^Already recorded as /);
  });
});

/**
 * A rider of `vanpoolId` writes that they moved back home (unless `text` says otherwise), and it is true; another
 * bot process takes the email
 * and is killed (SIGKILL) at its first write once `after` holds. Its leases then run out (20 s after its last
 * renewal; moved forward here rather than waited for).
 */
async function replyReadByKilledProcess(input: {
  vanpoolId: string;
  employeeId: string;
  svixId: string;
  after: (thread: { thread_id: string }) => string;
  /** What the rider writes instead. */
  text?: string;
}) {
  const home = await db.prisma.employee.findUniqueOrThrow({ where: { id: input.employeeId } });
  const { thread, reply } = await replyWithoutMessageId(
    input.vanpoolId,
    input.employeeId,
    input.text ?? `I moved back to ${home.homeCity} last week and updated my address in Workday.`,
  );
  const toRider = () => stub.sent.filter((s) => (s.body.to as string[]).includes(reply.from)).length;
  const emailedBefore = toRider();
  await db.prisma.employee.update({
    where: { id: input.employeeId },
    data: { homeCity: home.homeCity, homeZip: home.homeZip, homeLat: home.homeLat, homeLng: home.homeLng },
  });
  const fault = `killed_${input.svixId}`;
  await stallNextInsertAfter(db.prisma, {
    name: fault,
    table: "agent_run_logs",
    after: input.after(thread),
    seconds: 60,
  });
  const child = await startWebhookChild();
  const dying = postWebhook(child.webhook, receivedEvent(reply), { id: input.svixId }).catch((e) => e);
  try {
    await vi.waitFor(async () => expect(await faultFired(db.prisma, fault)).toBe(true), {
      timeout: 30_000,
      interval: 50,
    });
  } finally {
    // Killed whatever happened: a child left running would hold the test database's connections.
    child.process.kill("SIGKILL");
    await once(child.process, "exit");
  }
  await dying;
  await endStalledWrites(db.prisma);
  await db.prisma.workLease.updateMany({
    where: { key: { in: [`vanpool:${input.vanpoolId}`, `resend-event:${input.svixId}`] } },
    data: { expiresAt: new Date(0) },
  });
  const caseStatus = async () => (await db.prisma.case.findUniqueOrThrow({ where: { id: thread.case_id } })).status;
  const classified = () =>
    db.prisma.auditEvent.count({ where: { subjectId: thread.case_id, action: "reply.classified" } });
  return { thread, reply, toRider, emailedBefore, caseStatus, classified };
}

describe("a reply whose reading stopped part-way", () => {
  it("is finished once when the email comes again, after the process died right after classifying it", async () => {
    const { thread, reply, toRider, emailedBefore, caseStatus, classified } = await replyReadByKilledProcess({
      vanpoolId: "VP-110",
      employeeId: "EMP-1018",
      svixId: "msg_killed_after_classifying",
      after: (t) => `EXISTS (SELECT 1 FROM messages WHERE thread_id = '${t.thread_id}' AND bucket IS NOT NULL)`,
    });
    const inbound = { threadId: thread.thread_id, direction: "inbound" as const };
    expect((await db.prisma.message.findMany({ where: inbound })).map((m) => m.bucket)).toEqual(["update"]);
    expect(await caseStatus()).toBe("pending_reply");
    expect(toRider()).toBe(emailedBefore);

    const again = await postWebhook(webhook, receivedEvent(reply), { id: "msg_killed_after_classifying" });
    expect(again.status).toBe(200);
    expect(again.body.outcome).toMatch(/kept before but not yet read, is read now/);
    // As if the first reading had finished: re-audited, the rider thanked once, the case closed.
    expect(await caseStatus()).toBe("resolved");
    expect(toRider()).toBe(emailedBefore + 1);
    expect(await classified()).toBe(1);
    const later = await postWebhook(webhook, receivedEvent(reply), { id: "msg_killed_after_classifying_2" });
    expect(later.status).toBe(200);
    expect(later.body.outcome).toMatch(/^Already recorded as /);
    expect(toRider()).toBe(emailedBefore + 1);
  }, 90_000);

  it("thanks the rider once when the process died after the thanks went out, before the case was closed", async () => {
    const { reply, toRider, emailedBefore, caseStatus, classified } = await replyReadByKilledProcess({
      vanpoolId: "VP-112",
      employeeId: "EMP-1049",
      svixId: "msg_killed_after_thanking",
      after: (t) =>
        `EXISTS (SELECT 1 FROM messages WHERE thread_id = '${t.thread_id}' AND status = 'sent' AND idempotency_key LIKE '%:confirmation:%')`,
    });
    expect(await caseStatus()).toBe("pending_reply");
    expect(toRider()).toBe(emailedBefore + 1);

    const again = await postWebhook(webhook, receivedEvent(reply), { id: "msg_killed_after_thanking" });
    expect(again.status).toBe(200);
    expect(await caseStatus()).toBe("resolved");
    expect(toRider()).toBe(emailedBefore + 1);
    expect(await classified()).toBe(1);
  }, 90_000);

  it("keeps the draft that guesses nothing when the process died after classifying a reply in Korean", async () => {
    const { reply, toRider, emailedBefore, caseStatus, classified } = await replyReadByKilledProcess({
      vanpoolId: "VP-118",
      employeeId: "EMP-1085",
      svixId: "msg_killed_after_classifying_korean",
      after: (t) => `EXISTS (SELECT 1 FROM messages WHERE thread_id = '${t.thread_id}' AND bucket IS NOT NULL)`,
      // "You say my address changed, but I have not moved. Please check again." (written for this test)
      text: "주소가 바뀌었다고 하셨는데, 저는 이사하지 않았습니다. 다시 확인해 주세요.",
    });
    expect(await caseStatus()).toBe("pending_reply");

    const again = await postWebhook(webhook, receivedEvent(reply), { id: "msg_killed_after_classifying_korean" });
    expect(again.status).toBe(200);
    expect(await caseStatus()).toBe("hitl_review");
    expect(toRider()).toBe(emailedBefore);
    expect(await classified()).toBe(1);
    const record = await db.prisma.message.findFirstOrThrow({ where: { providerMessageId: reply.id } });
    const thread = await db.prisma.emailThread.findUniqueOrThrow({ where: { id: record.threadId } });
    const approval = await db.prisma.approvalRequest.findFirstOrThrow({
      where: { caseId: thread.caseId, kind: "escalation_reply" },
    });
    expect(approval.payload).toMatchObject({ reply_reason: "reply in Korean: a person should read it" });
    expect((approval.payload as { body: string }).body).toContain("will read it and write back to you");
  }, 90_000);

  it("keeps one draft for a person when the process died after drafting it, before the case was handed over", async () => {
    const { thread, reply, toRider, emailedBefore, caseStatus, classified } = await replyReadByKilledProcess({
      vanpoolId: "VP-116",
      employeeId: "EMP-1058",
      svixId: "msg_killed_after_drafting",
      text: "This is unfair and I want to speak to a manager.",
      after: (t) =>
        `EXISTS (SELECT 1 FROM approval_requests a JOIN email_threads t ON t.case_id = a.case_id WHERE t.id = '${t.thread_id}')`,
    });
    const drafts = () =>
      db.prisma.approvalRequest.count({ where: { caseId: thread.case_id, kind: "escalation_reply" } });
    expect(await caseStatus()).toBe("pending_reply");
    expect(await drafts()).toBe(1);

    const again = await postWebhook(webhook, receivedEvent(reply), { id: "msg_killed_after_drafting" });
    expect(again.status).toBe(200);
    expect(await caseStatus()).toBe("hitl_review");
    expect(await drafts()).toBe(1);
    expect(toRider()).toBe(emailedBefore);
    expect(await classified()).toBe(1);
  }, 90_000);
});

/** A second bot process (test/support/children/webhook-child.ts) on this test's database, stubs and secrets. */
async function startWebhookChild(): Promise<{ process: ChildProcess; webhook: string }> {
  const child = spawn(process.execPath, [compiledChild("webhook-child")], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  child.stdin!.write(
    `${JSON.stringify({ databaseUrl: db.url, env: settingsEnv, slackToken: slack.botToken, slackApiUrl: slack.apiUrl })}\n`,
  );
  for await (const line of createInterface({ input: child.stdout! })) {
    const ready = /^ready (\d+)$/.exec(line);
    if (ready) return { process: child, webhook: `http://127.0.0.1:${ready[1]}/webhooks/resend` };
  }
  throw new Error("The webhook child ended before it was ready.");
}

describe("two deliveries of one email racing under different svix-ids (two replicas)", () => {
  it("keep one quarantined email with one notice, and one reply classified once", async () => {
    const stranger = stub.receive({
      from: "someone@elsewhere.example",
      to: [INBOUND],
      subject: "Raced question",
      text: "Raced question: does a van leave from Salinas?",
      message_id: "",
    });
    const before = slack.messages("C0AUDIT").length;
    // Both deliveries have looked for the email and fetched it before either keeps it.
    stub.gateReceiving(2);
    const held = await Promise.all([
      postWebhook(webhook, receivedEvent(stranger), { id: "msg_race_held_a" }),
      postWebhook(webhook, receivedEvent(stranger), { id: "msg_race_held_b" }),
    ]);
    expect(held.map((a) => a.status)).toEqual([200, 200]);
    expect(stub.receivingGets.filter((id) => id === stranger.id)).toHaveLength(2);
    expect(await db.prisma.quarantinedEmail.count({ where: { body: stranger.text ?? "" } })).toBe(1);
    const notices = slack
      .messages("C0AUDIT")
      .slice(before)
      .filter((m) => String(m.text).includes("Raced question"));
    expect(notices).toHaveLength(1);

    const { thread, reply } = await replyWithoutMessageId(
      "VP-106",
      "EMP-1091",
      "I moved to Redding this fall. Is there a van that could work for me?",
    );
    stub.gateReceiving(2);
    const replies = await Promise.all([
      postWebhook(webhook, receivedEvent(reply), { id: "msg_race_reply_a" }),
      postWebhook(webhook, receivedEvent(reply), { id: "msg_race_reply_b" }),
    ]);
    expect(replies.map((a) => a.status)).toEqual([200, 200]);
    expect(stub.receivingGets.filter((id) => id === reply.id)).toHaveLength(2);
    expect(await db.prisma.message.count({ where: { threadId: thread.thread_id, direction: "inbound" } })).toBe(1);
    expect(await db.prisma.auditEvent.count({ where: { subjectId: thread.case_id, action: "reply.classified" } })).toBe(
      1,
    );
  });
});

describe("attachments", () => {
  it("are kept on the reply and listed on the approval card a person reviews", async () => {
    // A case of its own, waiting for replies whatever the other tests' ticks did to the seeded ones.
    expect(await workflow().auditVanpool("VP-109")).toMatchObject({ status: "pending_reply" });
    const thread = await threadOf("VP-109");
    const rider = thread.messages.find((m) => m.direction === "outbound")!.to[0]!;
    const angry = stub.receive({
      from: rider,
      to: [plus(thread.thread_id)],
      subject: `Re: ${thread.subject}`,
      text: "This is unfair and I want to speak to a manager. My schedule is attached.",
      attachments: [{ filename: "schedule.png", content_type: "image/png", size: 20480 }],
    });
    expect((await postWebhook(webhook, receivedEvent(angry))).status).toBe(200);
    await bot.idle();
    const record = await db.prisma.case.findUniqueOrThrow({ where: { id: thread.case_id } });
    expect(record.status).toBe("hitl_review");
    const card = slack
      .thread("C0AUDIT", record.slackTs!)
      .find((m) => String(JSON.stringify(m.blocks)).includes("Reply to review"));
    expect(JSON.stringify(card?.blocks)).toContain("📎 Attached: schedule.png (image/png, 20 KB)");
  });
});

describe("a reply in a language the embedded reader cannot read", () => {
  it("goes to a person unread, with its language on the card and a draft that only says a person will read it", async () => {
    // A Korean confirmation, written for this test, above the review email quoted by a Korean mail client.
    const korean = [
      "네, 주소와 근무 시간 모두 맞습니다. 감사합니다.",
      "",
      "2026년 11월 23일 (월) 오전 9:14, Pool Patrol <pool-patrol@northwind.example>님이 작성:",
      "If you think this is wrong, reply to dispute it; your membership may be cancelled.",
    ].join("\n");
    const { thread, reply } = await replyWithoutMessageId("VP-117", "EMP-1076", korean);
    const sentBefore = stub.sent.length;
    expect((await postWebhook(webhook, receivedEvent(reply))).status).toBe(200);
    await bot.idle();

    const record = await db.prisma.case.findUniqueOrThrow({ where: { id: thread.case_id } });
    expect(record.status).toBe("hitl_review");
    const message = await db.prisma.message.findFirstOrThrow({
      where: { threadId: thread.thread_id, direction: "inbound" },
    });
    expect(message.replyText).toBe("네, 주소와 근무 시간 모두 맞습니다. 감사합니다.");
    // Nothing is sent in answer: the drafted answer waits for a person and guesses nothing of what the rider said.
    expect(stub.sent.length).toBe(sentBefore);
    const approval = await db.prisma.approvalRequest.findFirstOrThrow({
      where: { caseId: thread.case_id, kind: "escalation_reply" },
    });
    const draft = (approval.payload as { body: string }).body;
    expect(draft).toContain("will read it and write back to you");
    expect(draft).not.toMatch(/frustration|appeal/i);
    const card = slack
      .thread("C0AUDIT", record.slackTs!)
      .find((m) => String(JSON.stringify(m.blocks)).includes("Reply to review"));
    expect(JSON.stringify(card?.blocks)).toContain("🌐 Reply in Korean: a person should read it");
  });
});

describe("automatic mail and delivery events", () => {
  it("records an out-of-office on the thread, never classifies it, and moves the deadline to its return date + 2 days", async () => {
    // A case of its own, opened now (other tests' ticks time out the seeded ones): a VP-105 rider moved far away.
    await db.prisma.employee.update({
      where: { id: "EMP-1101" },
      data: { homeCity: "Los Banos", homeZip: "93635", homeLat: null, homeLng: null },
    });
    expect(await workflow().auditVanpool("VP-105")).toMatchObject({ status: "pending_reply" });
    const thread = await threadOf("VP-105");
    const ooo = stub.receive({
      from: thread.messages.find((m) => m.direction === "outbound")!.to[0]!,
      to: [plus(thread.thread_id)],
      subject: `Automatic reply: ${thread.subject}`,
      text: "I am out of the office until December 14, 2026 with limited access to email.",
      headers: { "Auto-Submitted": "auto-replied" },
    });
    expect((await postWebhook(webhook, receivedEvent(ooo))).status).toBe(200);
    const stored = await db.prisma.message.findUniqueOrThrow({ where: { rfcMessageId: ooo.message_id } });
    expect(stored).toMatchObject({ autoReply: "out_of_office", bucket: null });
    const record = await db.prisma.case.findUniqueOrThrow({ where: { id: thread.case_id } });
    expect(record.replyExtendedUntil?.toISOString()).toBe("2026-12-16T00:00:00.000Z");
    // A week after the last email the case would time out; the extension holds it until Dec 16.
    const tick = await workflow().tick(new Date("2026-12-15T12:00:00Z"));
    expect(tick.timeouts.map((t) => t.case_id)).not.toContain(thread.case_id);
    expect((await db.prisma.case.findUniqueOrThrow({ where: { id: thread.case_id } })).status).toBe("pending_reply");
  });

  it("records delivery events on the message; a bounce sends the case to a person and starts no timeout", async () => {
    await workflow().auditVanpool("VP-101");
    const thread = await threadOf("VP-101");
    const toLinh = stub.sent.find((s) => (s.body.to as string[]).includes(LINH))!;
    const event = (type: string, extra: Record<string, unknown> = {}) => ({
      type,
      data: { email_id: toLinh.id, created_at: new Date().toISOString(), to: [LINH], subject: "x", ...extra },
    });
    expect((await postWebhook(webhook, event("email.delivery_delayed"))).status).toBe(200);
    const bounced = await postWebhook(
      webhook,
      event("email.bounced", { bounce: { type: "Permanent", subType: "General", message: "mailbox does not exist" } }),
    );
    expect(bounced.status).toBe(200);
    const message = await db.prisma.message.findFirstOrThrow({ where: { providerMessageId: toLinh.id } });
    expect(message.deliveryStatus).toBe("bounced");
    expect((await listDeliveryEvents(db.prisma, message.id)).map((e) => e.type)).toEqual([
      "delivery_delayed",
      "bounced",
    ]);
    const record = await db.prisma.case.findUniqueOrThrow({ where: { id: thread.case_id } });
    expect(record.status).toBe("hitl_review");
    expect((record.meta as { details?: string }).details).toBe("email to EMP-1071 bounced: fix the address");
    const tick = await workflow().tick(new Date("2027-01-31T12:00:00Z"));
    expect(tick.timeouts.map((t) => t.case_id)).not.toContain(thread.case_id);
  });
});

describe("text with NUL bytes and control characters", () => {
  it("takes in a rider's reply with NUL bytes in its subject and text, once, without them", async () => {
    await db.prisma.employee.update({
      where: { id: "EMP-1099" },
      data: { homeCity: "Redding", homeZip: "96001", homeLat: null, homeLng: null },
    });
    expect(await workflow().auditVanpool("VP-108")).toMatchObject({ status: "pending_reply" });
    const thread = await threadOf("VP-108");
    const reply = stub.receive({
      from: thread.messages.find((m) => m.direction === "outbound")!.to[0]!,
      to: [plus(thread.thread_id)],
      subject: `Re: ${thread.subject}\u0000`,
      text: "Got it\u0000, thanks.\u0007 I moved to Redding\u0000 in May.",
    });
    const first = await postWebhook(webhook, receivedEvent(reply), { id: "msg_nul_reply" });
    const again = await postWebhook(webhook, receivedEvent(reply), { id: "msg_nul_reply" });
    expect([first.status, again.status]).toEqual([200, 200]);
    const stored = await db.prisma.message.findMany({ where: { threadId: thread.thread_id, direction: "inbound" } });
    expect(stored).toHaveLength(1);
    expect(stored[0]!.body).toBe("Got it, thanks. I moved to Redding in May.");
    expect(stored[0]!.subject).toBe(`Re: ${thread.subject}`);
    expect(stored[0]!.bucket).not.toBeNull();
    const event = await db.prisma.resendWebhookEvent.findUniqueOrThrow({ where: { svixId: "msg_nul_reply" } });
    expect(event.processedAt).not.toBeNull();
    expect(JSON.stringify(event.payload)).not.toMatch(/\\u0000/);
  });
});

describe("signed bodies that are no event, and oversized ones", () => {
  const signedPost = (raw: string, id: string) =>
    fetch(webhook, {
      method: "POST",
      headers: { "content-type": "application/json", ...signResendWebhook(raw, WEBHOOK_SECRET, { id }) },
      body: raw,
    });

  it("answers 400 to null, an array or an event without its email id, records each once, and 200s nothing", async () => {
    const before = { inbound: await inboundCount(), quarantined: await db.prisma.quarantinedEmail.count() };
    const bodies = ["null", "[1,2,3]", JSON.stringify({ type: "email.received", data: {} })];
    for (const [i, raw] of bodies.entries()) {
      const answers = [await signedPost(raw, `msg_unreadable_${i}`), await signedPost(raw, `msg_unreadable_${i}`)];
      expect(answers.map((a) => a.status)).toEqual([400, 400]);
      expect(((await answers[0]!.json()) as { error: string }).error).toMatch(/^Refused: .*will not be processed\.$/);
      const recorded = await db.prisma.resendWebhookEvent.findUniqueOrThrow({
        where: { svixId: `msg_unreadable_${i}` },
      });
      expect(recorded.processedAt).not.toBeNull();
      expect(recorded.outcome).toMatch(/^Refused: /);
    }
    expect(await inboundCount()).toBe(before.inbound);
    expect(await db.prisma.quarantinedEmail.count()).toBe(before.quarantined);
  });

  it("answers a 5 MB body with 413 and records nothing", async () => {
    const events = await db.prisma.resendWebhookEvent.count();
    const raw = JSON.stringify({ type: "email.received", data: { email_id: "x", text: "a".repeat(5_000_000) } });
    const answer = await signedPost(raw, "msg_too_large");
    expect(answer.status).toBe(413);
    expect(((await answer.json()) as { error: string }).error).toMatch(/over 1000000 bytes/);
    expect(await db.prisma.resendWebhookEvent.count()).toBe(events);
  });
});
