// The local Slack sandbox: Pool Patrol's real Bolt app, unchanged, against a local
// Slack-compatible server with a browser UI, so a team can use the product before
// anyone creates a Slack app. The app receives signed HTTP requests exactly as from Slack.
import { randomBytes } from "node:crypto";
import type { AddressInfo, Server } from "node:net";
import { createSlackApp, type SlackApp } from "../bot/app.js";
import type { SlackSettings } from "../config/settings.js";
import { loadSandboxWorkspace, saveSandboxWorkspace } from "../data/sandbox-workspace-repository.js";
import { RESEND_WEBHOOK_PATH } from "../http/resend-webhook-route.js";
import { isWebPath } from "../http/web/app.js";
import { deliverLocally } from "../integrations/email/inbound/local-delivery.js";
import { webhookSecret } from "../integrations/email/inbound/webhook-secret.js";
import {
  type FakeSlack,
  foreignRequest,
  startLocalSlack,
  type WorkspaceSnapshot,
} from "../sandbox/slack/local-slack.js";
import { createSandboxRoutes, type SandboxPeople } from "../sandbox/ui-routes.js";
import { startBotJobs } from "./bot-jobs.js";
import { createBotSweeps } from "./bot-sweeps.js";
import type { CliContext } from "./context.js";

export const SANDBOX_PEOPLE: SandboxPeople = {
  users: [
    { id: "U0ALEX", name: "Alex Rivera", role: "approver" },
    { id: "U0BLAIR", name: "Blair Chen", role: "approver (via the Auditors group)" },
    { id: "U0CASEY", name: "Casey Morgan", role: "not an approver" },
  ],
  channel: { id: "C0AUDIT", name: "vanpool-audit" },
};

const WORKSPACE_ID = "sandbox";

export interface RunningSandbox {
  url: string;
  slack: FakeSlack;
  bot: SlackApp;
  /** Where the local Slack sends the bot its signed requests, and the secret it signs them with. */
  appUrl: string;
  signingSecret: string;
  close(): Promise<void>;
}

export async function startSandbox(
  ctx: CliContext,
  /** `auditSweepPages: false` when worker processes audit a sweep's pages (the default is true). */
  options: { port: number; host?: string; auditSweepPages?: boolean },
): Promise<RunningSandbox> {
  const signingSecret = randomBytes(16).toString("hex");
  let slack!: FakeSlack;
  let bot!: SlackApp;
  let appUrl = "";
  const routes = createSandboxRoutes({
    slack: () => slack,
    appUrl: () => appUrl,
    signingSecret,
    people: SANDBOX_PEOPLE,
    timeZone: ctx.settings.timeZone,
    prisma: ctx.db.prisma,
    deliverEmail: (reply) => deliverLocally(ctx.settings, reply, webhookSecret(ctx.settings)),
    idle: () => bot.idle(),
  });
  // Sign in with Slack works against the local Slack too, with credentials made for this run.
  const signInClient = { clientId: "sandbox.web", clientSecret: randomBytes(16).toString("hex") };
  slack = await startLocalSlack({
    port: options.port,
    host: options.host,
    users: SANDBOX_PEOPLE.users.map((u) => ({
      id: u.id,
      name: u.name.split(" ")[0]!.toLowerCase(),
      real_name: u.name,
      tz: ctx.settings.timeZone,
    })),
    usergroups: { S0AUDITORS: ["U0BLAIR"] },
    openIdClients: [signInClient],
    // The channel, its threads and App Home survive a restart, kept in the app's own database.
    store: {
      load: async () => (await loadSandboxWorkspace(ctx.db.prisma, WORKSPACE_ID)) as WorkspaceSnapshot | undefined,
      save: (snapshot) => saveSandboxWorkspace(ctx.db.prisma, WORKSPACE_ID, snapshot),
    },
    routes,
    // The REST API on PORT beside the page (once the bot is up).
    // The bot's REST API, web pages and the Resend webhook answer on PORT too, as they do in HTTP and Socket Mode.
    before: (req, res) => {
      if (!bot) return false;
      if (req.method === "POST" && new URL(req.url ?? "/", "http://localhost").pathname === RESEND_WEBHOOK_PATH) {
        bot.handleWebhookRequest(req, res);
        return true;
      }
      if (bot.api.handle(req, res)) return true;
      if (!isWebPath(new URL(req.url ?? "/", "http://localhost").pathname)) return false;
      // The web pages take what every route of the page's port takes: this machine's own names, never another site.
      const refusal = foreignRequest(req, Number(new URL(slack.baseUrl).port));
      if (refusal) {
        res.writeHead(403, { "content-type": "text/plain; charset=utf-8" }).end(refusal);
        return true;
      }
      return bot.web.handle(req, res);
    },
  });
  const settings: SlackSettings = {
    botToken: slack.botToken,
    signingSecret,
    appToken: undefined,
    apiUrl: slack.apiUrl,
    port: 0,
    auditChannel: SANDBOX_PEOPLE.channel.id,
    approvers: ["U0ALEX", "S0AUDITORS"],
    restrictAudits: true,
    webUrl: slack.baseUrl.replace("127.0.0.1", "localhost"),
    // The browser stays on one host from the sign-in page to the approval and back: the pages take no other site.
    signIn: {
      ...signInClient,
      authorizeUrl: `${slack.baseUrl.replace("127.0.0.1", "localhost")}/openid/connect/authorize`,
    },
  };
  if (!ctx.jobs) throw new Error('The sandbox needs the job engine: open the context with jobs: "bot".');
  const sweeps = createBotSweeps({
    engine: ctx.jobs,
    agent: ctx.agentDeps,
    settings: ctx.settings,
    log: (line) => process.stderr.write(`${line}\n`),
    auditPages: options.auditSweepPages,
  });
  // The local Slack has no rate limits: posts are not spaced out.
  bot = await createSlackApp({
    slack: settings,
    deps: ctx.agentDeps,
    jobs: ctx.jobs,
    channelIntervalMs: 0,
    startSweep: sweeps.startSweep,
  });
  await sweeps.attach(bot, settings.auditChannel);
  // Only the local Slack reaches the bot: it listens on loopback.
  const server = (await bot.app.start({ port: 0, host: "127.0.0.1" })) as unknown as Server;
  appUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`;
  // Alerts and cards for the cases already open are queued as the jobs start.
  const clock = await startBotJobs(bot, ctx.jobs, ctx.settings);
  return {
    url: slack.baseUrl.replace("127.0.0.1", "localhost"),
    slack,
    bot,
    appUrl,
    signingSecret,
    async close() {
      clock.stop();
      sweeps.stop();
      await bot.idle();
      // The job engine belongs to the caller and may serve a restarted sandbox: its workers used this one's Slack.
      await ctx.jobs?.stopWorkers();
      await bot.app.stop();
      await slack.close();
    },
  };
}
