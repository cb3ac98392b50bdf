// Socket Mode, the default for internal tools: the same app, reached over a
// WebSocket that apps.connections.open hands out, with no public URL.
import { type AddressInfo, createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentDeps } from "../../src/agents/deps.js";
import { startBotJobs } from "../../src/app/bot-jobs.js";
import { buildAppDeps } from "../../src/app/container.js";
import { createSlackApp, type SlackApp } from "../../src/bot/app.js";
import { createCaseWorkflow } from "../../src/cases/case-workflow.js";
import { parseSettings } from "../../src/config/settings.js";
import type { Clock } from "../../src/queue/clock.js";
import { type JobEngine, startJobEngine } from "../../src/queue/engine.js";
import { QUEUE_OPTIONS } from "../../src/queue/queues.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";
import {
  postWebhook,
  type ResendStub,
  receivedEvent,
  startResendStub,
  WEBHOOK_SECRET,
} from "../support/resend-stub.js";
import { type FakeSlack, startFakeSlack } from "../support/slack/fake-slack.js";
import { type SocketModeServer, startSocketModeServer } from "../support/slack/socket-mode-server.js";

const APP_TOKEN = "xapp-1-test-socket-mode";
let socket: SocketModeServer;
let fake: FakeSlack;
let db: TestDatabase;
let bot: SlackApp;
let resend: ResendStub;
let deps: AgentDeps;
let jobs: JobEngine;
let clock: Clock;
let webhook = "";
const INBOUND = "replies@inbound.northwind.example";

/** Socket Mode's HTTP server (the webhook's) listens on a fixed PORT: take one that is free now. */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
    probe.on("error", reject);
  });

beforeAll(async () => {
  socket = await startSocketModeServer();
  resend = await startResendStub();
  fake = await startFakeSlack({
    tokens: [APP_TOKEN],
    socketModeUrl: socket.url,
    users: [{ id: "U0ALICE", name: "alice" }],
  });
  db = await createTestDatabase({ mockData: true });
  const settings = parseSettings({
    RESEND_API_KEY: "re_test_key",
    RESEND_BASE_URL: resend.baseUrl,
    RESEND_WEBHOOK_SECRET: WEBHOOK_SECRET,
    POOLPATROL_INBOUND_ADDRESS: INBOUND,
    // Posts not spaced a second apart: this file tests no pacing (test/slack/shared-pace.test.ts does).
    POOLPATROL_SLACK_POST_INTERVAL_MS: "0",
  });
  jobs = await startJobEngine({
    databaseUrl: db.url,
    log: () => {},
    pollingIntervalSeconds: 0.5,
    queues: QUEUE_OPTIONS,
  });
  deps = { ...(await buildAppDeps(db, settings)), jobs };
  const port = await freePort();
  webhook = `http://127.0.0.1:${port}/webhooks/resend`;
  bot = await createSlackApp({
    slack: {
      botToken: fake.botToken,
      appToken: APP_TOKEN,
      signingSecret: undefined,
      apiUrl: fake.apiUrl,
      port,
      auditChannel: "C0AUDIT",
      approvers: ["U0ALICE"],
      restrictAudits: true,
      webUrl: "http://localhost",
    },
    deps,
    jobs,
    retries: 0,
  });
  await bot.app.start();
  clock = await startBotJobs(bot, jobs, settings);
  await socket.connected();
});

afterAll(async () => {
  clock.stop();
  await bot.idle();
  await bot.app.stop();
  await jobs.stop();
  await socket.close();
  await fake.close();
  await resend.close();
  await db.drop();
});

describe("Socket Mode", () => {
  it("connects through apps.connections.open with the app token, acks a slash command over the socket and posts the alert", async () => {
    expect(bot.socketMode).toBe(true);
    expect(fake.callsTo("apps.connections.open")).toHaveLength(1);
    const ack = await socket.send("slash_commands", {
      command: "/poolpatrol",
      text: "audit VP-111",
      user_id: "U0ALICE",
      channel_id: "C0AUDIT",
      team_id: fake.teamId,
      trigger_id: fake.issueTriggerId("U0ALICE"),
      response_url: fake.responseUrl({ channel: "C0AUDIT", user: "U0ALICE" }),
    });
    expect(ack).toMatchObject({ response_type: "ephemeral", text: "Auditing VP-111…" });
    await bot.idle();
    expect(fake.messages("C0AUDIT").some((m) => /VP-111 .*location check failed/.test(String(m.text)))).toBe(true);
  });
});

describe("the Resend webhook in Socket Mode, on the bot's PORT", () => {
  it("takes a signed email.received in and records the rider's reply; a forged one gets 401 and changes nothing", async () => {
    await createCaseWorkflow(deps).auditVanpool("VP-109");
    const record = await db.prisma.case.findFirstOrThrow({
      where: { vanpoolId: "VP-109" },
      orderBy: { createdAt: "desc" },
    });
    const thread = await db.prisma.emailThread.findUniqueOrThrow({ where: { caseId: record.id } });
    const kyle = "kyle.jorgensen@northwind.example";
    const inbound = () => db.prisma.message.count({ where: { direction: "inbound", threadId: thread.id } });
    const before = await inbound();

    const forgedEmail = resend.receive({ from: kyle, to: [INBOUND], subject: "hello", text: "Cancel my review." });
    const forged = await postWebhook(webhook, receivedEvent(forgedEmail), {
      secret: `whsec_${Buffer.from("someone else").toString("base64")}`,
    });
    expect(forged.status).toBe(401);
    expect(await inbound()).toBe(before);
    expect(await db.prisma.resendWebhookEvent.count()).toBe(0);
    expect(resend.receivingGets).not.toContain(forgedEmail.id);

    const reply = resend.receive({
      from: `Kyle Jorgensen <${kyle}>`,
      to: [`replies+${thread.id}@inbound.northwind.example`],
      subject: `Re: ${thread.subject}`,
      text: "Which policy rule applies to my shift?",
    });
    const accepted = await postWebhook(webhook, receivedEvent(reply));
    expect(accepted.status).toBe(200);
    await bot.idle();
    expect(resend.receivingGets.filter((id) => id === reply.id)).toHaveLength(1);
    expect(await inbound()).toBe(before + 1);
    const stored = await db.prisma.message.findUniqueOrThrow({ where: { rfcMessageId: reply.message_id } });
    expect(stored.fromAddress).toBe(kyle);
    expect(stored.bucket).toBe("question");
  });
});

describe("the REST API in Socket Mode, on the bot's PORT", () => {
  it("answers /healthz, /readyz and /openapi.json on the small HTTP server beside the webhook", async () => {
    const base = webhook.replace(/\/webhooks\/resend$/, "");
    expect(await (await fetch(`${base}/healthz`)).json()).toEqual({ status: "ok" });
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    expect(((await (await fetch(`${base}/openapi.json`)).json()) as { openapi: string }).openapi).toBe("3.1.0");
  });
});

describe("the web pages in Socket Mode, on the bot's PORT", () => {
  it("serve the sign-in page and send a page asked for without a session to it", async () => {
    const base = webhook.replace(/\/webhooks\/resend$/, "");
    const signIn = await fetch(`${base}/web/sign-in`);
    expect(signIn.status).toBe(200);
    expect(await signIn.text()).toMatch(/<code>\/poolpatrol web<\/code>/);
    const dashboard = await fetch(`${base}/web/`, { redirect: "manual" });
    expect(dashboard.status).toBe(303);
    expect(dashboard.headers.get("location")).toBe("/web/sign-in");
  });
});
