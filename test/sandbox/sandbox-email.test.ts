// "Simulate a rider's email reply" takes the real path in every email mode: with Resend
// configured (here its local stub, and no webhook secret yet), the sandbox still posts a
// signed email.received to the bot's webhook and the hand-written reply is served from the
// local inbox, never asked of Resend.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliContext, openContext } from "../../src/app/context.js";
import { type RunningSandbox, startSandbox } from "../../src/app/sandbox.js";
import { parseSettings } from "../../src/config/settings.js";
import { signResendWebhook } from "../../src/integrations/email/inbound/webhook-signature.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";
import { type ResendStub, receivedEvent, startResendStub, WEBHOOK_SECRET } from "../support/resend-stub.js";

const WENDELL = "wendell.ashby@northwind.example";
let db: TestDatabase;
let ctx: CliContext;
let sandbox: RunningSandbox;
let resend: ResendStub;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "poolpatrol-sandbox-email-"));

beforeAll(async () => {
  resend = await startResendStub();
  db = await createTestDatabase({ mockData: true });
  const settings = parseSettings({
    DATABASE_URL: db.url,
    POOLPATROL_DATA_DIR: dataDir,
    RESEND_API_KEY: "re_test_key",
    RESEND_BASE_URL: resend.baseUrl,
    POOLPATROL_INBOUND_ADDRESS: "replies@inbound.northwind.example",
  });
  ctx = await openContext(settings, () => {}, { jobs: "bot" });
  sandbox = await startSandbox(ctx, { port: 0 });
}, 60_000);

afterAll(async () => {
  await sandbox?.close();
  await ctx?.close();
  await db?.drop();
  await resend?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const api = (route: string, body: unknown) =>
  fetch(`${sandbox.url}${route}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

describe("the sandbox's simulated reply with Resend configured", () => {
  it("reaches the webhook signed, is read from the local inbox and moves the case like a real reply", async () => {
    expect((await api("/sandbox/command", { user: "U0ALEX", text: "/poolpatrol audit VP-111" })).status).toBe(200);
    await sandbox.bot.idle();
    const record = await db.prisma.case.findFirstOrThrow({ where: { vanpoolId: "VP-111", status: "pending_reply" } });
    const thread = await db.prisma.emailThread.findUniqueOrThrow({ where: { caseId: record.id } });
    expect(resend.sent.some((s) => (s.body.to as string[]).includes(WENDELL))).toBe(true);
    const events = await db.prisma.resendWebhookEvent.count();

    const emailed = await api("/sandbox/email", {
      user: "U0ALEX",
      thread_id: thread.id,
      from: WENDELL,
      body: "This is wrong, I have lived in Hayward for years. I want to speak to a manager.",
    });
    expect(emailed.status).toBe(200);
    const delivered = (await emailed.json()) as { ok: boolean; note: string };
    expect(delivered.ok).toBe(true);
    expect(delivered.note).toBe(`Reply delivered to ${record.id}: see its thread in the channel.`);
    await sandbox.bot.idle();

    expect(await db.prisma.resendWebhookEvent.count()).toBe(events + 1);
    const reply = await db.prisma.message.findFirstOrThrow({
      where: { threadId: thread.id, direction: "inbound", fromAddress: WENDELL },
    });
    expect(reply.body).toMatch(/lived in Hayward for years/);
    expect(reply.bucket).toBe("escalation");
    // Kept under the local inbox's id, as a real reply is under Resend's: a redelivery finds it.
    expect(reply.providerMessageId).toMatch(/^local-/);
    expect(resend.receivingGets).toEqual([]);
    expect((await db.prisma.case.findUniqueOrThrow({ where: { id: record.id } })).status).toBe("hitl_review");
  });

  it("refuses Resend's own deliveries until RESEND_WEBHOOK_SECRET is set, and says so", async () => {
    const email = resend.receive({
      from: WENDELL,
      to: ["replies@inbound.northwind.example"],
      subject: "hi",
      text: "hi",
    });
    const inbound = await db.prisma.message.count({ where: { direction: "inbound" } });
    // Signed the way Resend signs: with the secret on the webhook's page, which Pool Patrol was not given.
    const rawBody = JSON.stringify(receivedEvent(email));
    const answer = await sandbox.bot.inbound.handleWebhook({
      rawBody,
      headers: signResendWebhook(rawBody, WEBHOOK_SECRET),
    });
    expect(answer.status).toBe(401);
    expect(JSON.stringify(answer.body)).toMatch(/RESEND_WEBHOOK_SECRET is not set/);
    expect(await db.prisma.message.count({ where: { direction: "inbound" } })).toBe(inbound);
    expect(resend.receivingGets).toEqual([]);
  });
});
