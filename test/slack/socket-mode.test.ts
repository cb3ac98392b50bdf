// Socket Mode, the default for internal tools: the same app, reached over a
// WebSocket that apps.connections.open hands out, with no public URL.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildAgentDeps } from "../../src/agents/deps.js";
import { parseSettings } from "../../src/config/settings.js";
import { readFixtureDir } from "../../src/data/fixtures.js";
import { seedFixtures } from "../../src/data/seed.js";
import { outboxSender } from "../../src/integrations/email/outbox.js";
import { createSlackApp, type SlackApp } from "../../src/slack/app.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";
import { MOCK_DIR } from "../support/fixtures.js";
import { type FakeSlack, startFakeSlack } from "../support/slack/fake-slack.js";
import { type SocketModeServer, startSocketModeServer } from "../support/slack/socket-mode-server.js";

const APP_TOKEN = "xapp-1-test-socket-mode";
let socket: SocketModeServer;
let fake: FakeSlack;
let db: TestDatabase;
let bot: SlackApp;
const outbox = fs.mkdtempSync(path.join(os.tmpdir(), "poolpatrol-socket-"));

beforeAll(async () => {
  socket = await startSocketModeServer();
  fake = await startFakeSlack({
    tokens: [APP_TOKEN],
    socketModeUrl: socket.url,
    users: [{ id: "U0ALICE", name: "alice" }],
  });
  db = await createTestDatabase();
  await seedFixtures(db.prisma, readFixtureDir(MOCK_DIR));
  const deps = await buildAgentDeps(db, parseSettings({}), { sender: outboxSender(outbox) });
  bot = await createSlackApp({
    slack: {
      botToken: fake.botToken,
      appToken: APP_TOKEN,
      signingSecret: undefined,
      apiUrl: fake.apiUrl,
      port: 0,
      auditChannel: "C0AUDIT",
      approvers: ["U0ALICE"],
      restrictAudits: true,
    },
    deps,
    retries: 0,
  });
  await bot.app.start();
  await socket.connected();
});

afterAll(async () => {
  await bot.idle();
  await bot.app.stop();
  await socket.close();
  await fake.close();
  await db.drop();
  fs.rmSync(outbox, { recursive: true, force: true });
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
