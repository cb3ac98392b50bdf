// A bot process that takes Resend webhooks, for tests that kill it with SIGKILL in the middle of
// handling one. It runs the compiled dist/ (built by the integration tests' global setup), reads one
// line on stdin naming its database, Resend stub and fake Slack, and prints "ready <port>" once its
// HTTP listener (POST /webhooks/resend) takes requests.
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { createInterface } from "node:readline";
import { buildAppDeps } from "../../../src/app/container.js";
import { createSlackApp } from "../../../src/bot/app.js";
import { parseSettings } from "../../../src/config/settings.js";
import { createDataClients } from "../../../src/data/prisma.js";

const [line] = await once(createInterface({ input: process.stdin }), "line");
/** The line the test writes on stdin. */
interface WebhookChildConfig {
  databaseUrl: string;
  env: Record<string, string | undefined>;
  slackToken: string;
  slackApiUrl: string;
}
const config: WebhookChildConfig = JSON.parse(line);
const settings = parseSettings(config.env);
const deps = await buildAppDeps(createDataClients(config.databaseUrl), settings);
const bot = await createSlackApp({
  slack: {
    botToken: config.slackToken,
    signingSecret: "test-signing-secret",
    appToken: undefined,
    apiUrl: config.slackApiUrl,
    port: 0,
    webUrl: "http://localhost",
    auditChannel: "C0AUDIT",
    approvers: ["U0ALICE"],
    restrictAudits: true,
  },
  deps,
  retries: 0,
});
const server = await bot.app.start(0);
process.stdout.write(`ready ${(server.address() as AddressInfo).port}\n`);
