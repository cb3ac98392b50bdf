// The real Bolt app in HTTP mode against the fake Slack, on a fresh database.
import fs from "node:fs";
import type { AddressInfo, Server } from "node:net";
import os from "node:os";
import path from "node:path";
import type { AgentDeps } from "../../src/agents/deps.js";
import { startBotJobs } from "../../src/app/bot-jobs.js";
import { createBotSweeps } from "../../src/app/bot-sweeps.js";
import { buildAppDeps } from "../../src/app/container.js";
import { createSlackApp, type SlackApp } from "../../src/bot/app.js";
import { parseSettings, type SlackSettings } from "../../src/config/settings.js";
import { createDataClients } from "../../src/data/prisma.js";
import type { ApprovalRequest } from "../../src/generated/prisma/client.js";
import type { EmailSender } from "../../src/integrations/email/email-sender.js";
import { outboxSender } from "../../src/integrations/email/outbox.js";
import type { Clock } from "../../src/queue/clock.js";
import { type JobEngine, startJobEngine } from "../../src/queue/engine.js";
import { QUEUE_OPTIONS } from "../../src/queue/queues.js";
import { createTestDatabase, type TestDatabase } from "./database.js";
import { quickRetries } from "./quick-retries.js";
import { type FakeSlack, postSigned, type SlackMessage, startFakeSlack } from "./slack/fake-slack.js";
import { alertOf, buttonOf, cardOf, titled, withButton } from "./slack/messages.js";

export const SIGNING_SECRET = "test-signing-secret";
export const AUDIT_CHANNEL = "C0AUDIT";
export const ALICE = "U0ALICE"; // approver by name
export const BOB = "U0BOB"; // approver through the user group
export const CAROL = "U0CAROL"; // not an approver
/** The app's client credentials for Sign in with Slack, when a harness turns it on. */
export const SIGN_IN_CLIENT = { clientId: "1111.2222", clientSecret: "sign-in-client-secret" };

export interface Harness {
  fake: FakeSlack;
  db: TestDatabase;
  deps: AgentDeps;
  slack: SlackSettings;
  bot: SlackApp;
  /** The running instance's job engine and clock. */
  jobs: JobEngine;
  clock: Clock;
  url: string;
  post(body: string, options?: { timestamp?: number; headers?: Record<string, string> }): Promise<Response>;
  /** What `/poolpatrol …` answers `user`, in its ack or, once the listener is done, through its response URL. */
  command(user: string, text: string): Promise<{ text: string; response_type?: string }>;
  /** `user` (ALICE unless told) types `/poolpatrol audit <vanpool>` in the audit channel; resolves once the app is idle. */
  audit(vanpoolId: string, user?: string): Promise<Response>;
  /**
   * Nine days pass without a reply: every case still waiting for riders proposes a cancellation. Resolves to
   * the pending cancellation of `vanpoolId`, its card posted in the thread of the case alert.
   */
  cancellationProposedFor(vanpoolId: string): Promise<ApprovalRequest>;
  /** The case alert of a vanpool in the audit channel. */
  alertOf(vanpoolId: string): SlackMessage;
  /** The cancellation card in the thread of a vanpool's case alert. */
  cancellationCardOf(vanpoolId: string): SlackMessage;
  /** The card with this button in the thread of a vanpool's case alert. */
  cardWith(vanpoolId: string, actionId: string): SlackMessage;
  /** `user` clicks the message's button `actionId` (or the one matching it); resolves once the app is idle. */
  click(user: string, message: SlackMessage, actionId: string | RegExp): Promise<Response>;
  /**
   * `user` clicks Keep … for a rider on a cancellation card and submits the form it opens (a reason, why they
   * are kept, optionally fewer days); resolves once the app is idle.
   */
  keep(
    user: string,
    card: SlackMessage,
    employeeId: string,
    values?: { reason?: string; exception_reason?: string; exception_days?: string },
  ): Promise<Response>;
  /** Stops this app instance and starts another on the same database and fake Slack: a restart. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export async function startHarness(
  options: {
    triggerTtlMs?: number;
    sender?: EmailSender;
    env?: Record<string, string>;
    now?: () => Date;
    /** The URL the bot reaches the test database by (a DatabaseProxy's), given the database's own. */
    botDatabase?: (url: string) => Promise<string>;
    /** `/poolpatrol audit all` starts a sweep, audited and announced by this instance. */
    sweeps?: boolean;
    /** Sign in with Slack on the web pages, the audit channel having these members. */
    slackSignIn?: { auditChannelMembers: string[] };
    /** Failed jobs retried a second later, not after the product's doubling pauses (the same retry limits). */
    quickRetries?: boolean;
  } = {},
): Promise<Harness> {
  const fake = await startFakeSlack({
    triggerTtlMs: options.triggerTtlMs,
    users: [
      { id: ALICE, name: "alice" },
      { id: BOB, name: "bob" },
      { id: CAROL, name: "carol" },
    ],
    usergroups: { S0APPROVERS: [BOB] },
    ...(options.slackSignIn && {
      openIdClients: [SIGN_IN_CLIENT],
      channelMembers: { [AUDIT_CHANNEL]: options.slackSignIn.auditChannelMembers },
    }),
  });
  const db = await createTestDatabase({ mockData: true });
  const outbox = fs.mkdtempSync(path.join(os.tmpdir(), "poolpatrol-slack-outbox-"));
  // Posts not spaced a second apart, unless a test says so: only test/slack/shared-pace.test.ts tests the pace.
  const settings = parseSettings({ POOLPATROL_SLACK_POST_INTERVAL_MS: "0", ...options.env });
  const botUrl = options.botDatabase ? await options.botDatabase(db.url) : db.url;
  const botClients = botUrl === db.url ? db : createDataClients(botUrl);
  const baseDeps = await buildAppDeps(botClients, settings, {
    sender: options.sender ?? outboxSender(outbox),
    now: options.now,
  });
  const slack: SlackSettings = {
    botToken: fake.botToken,
    signingSecret: SIGNING_SECRET,
    appToken: undefined,
    apiUrl: fake.apiUrl,
    port: 0,
    auditChannel: AUDIT_CHANNEL,
    approvers: [ALICE, "S0APPROVERS"],
    restrictAudits: true,
    // Set to the bot's own address once it listens.
    webUrl: "http://localhost",
    ...(options.slackSignIn && { signIn: SIGN_IN_CLIENT }),
  };

  let bot!: SlackApp;
  let jobs!: JobEngine;
  let clock!: Clock;
  let deps!: AgentDeps;
  let url = "";
  let stopSweeps = () => {};
  async function boot() {
    jobs = await startJobEngine({
      databaseUrl: botUrl,
      log: () => {},
      pollingIntervalSeconds: 0.5,
      queues: options.quickRetries ? quickRetries(QUEUE_OPTIONS) : QUEUE_OPTIONS,
    });
    deps = { ...baseDeps, jobs };
    const sweeps = options.sweeps
      ? createBotSweeps({
          engine: jobs,
          agent: deps,
          settings: { ...settings, sweep: { ...settings.sweep, cron: "0 0 1 1 *" } },
          log: () => {},
        })
      : undefined;
    bot = await createSlackApp({ slack, deps, jobs, retries: 0, startSweep: sweeps?.startSweep });
    await sweeps?.attach(bot, AUDIT_CHANNEL);
    stopSweeps = () => sweeps?.stop();
    const server = (await bot.app.start(0)) as unknown as Server;
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`;
    slack.webUrl = url.replace(/\/slack\/events$/, "");
    clock = await startBotJobs(bot, jobs, settings);
  }
  async function shutdown() {
    stopSweeps();
    clock.stop();
    await bot.idle();
    await bot.app.stop();
    await jobs.stop();
  }
  await boot();
  const slashCommand = (user: string, text: string) =>
    fake.slashCommandBody({ command: "/poolpatrol", text, user_id: user, channel_id: AUDIT_CHANNEL });
  const harness: Harness = {
    fake,
    db,
    get deps() {
      return deps;
    },
    slack,
    get bot() {
      return bot;
    },
    get jobs() {
      return jobs;
    },
    get clock() {
      return clock;
    },
    get url() {
      return url;
    },
    post: async (body, o = {}) => {
      const response = await postSigned(url, SIGNING_SECRET, body, { timestamp: o.timestamp });
      // Bolt answers at the ack; the tests look at what the listener did after it.
      await bot.settled();
      return response;
    },
    async command(user, text) {
      const body = slashCommand(user, text);
      const acked = await (await harness.post(body)).text();
      if (acked) return JSON.parse(acked);
      const responseUrl = new URLSearchParams(body).get("response_url")!;
      return fake.responses(responseUrl).at(-1)!.body as { text: string; response_type?: string };
    },
    async audit(vanpoolId, user = ALICE) {
      const response = await harness.post(slashCommand(user, `audit ${vanpoolId}`));
      await bot.idle();
      return response;
    },
    async cancellationProposedFor(vanpoolId) {
      await bot.ctx.workflow.tick(new Date(Date.now() + 9 * 86_400_000));
      await bot.idle();
      const approval = await db.prisma.approvalRequest.findFirstOrThrow({
        where: { status: "pending", kind: "cancellation", case: { vanpoolId } },
      });
      await bot.messages.syncCase(approval.caseId);
      return approval;
    },
    alertOf: (vanpoolId) => alertOf(fake, AUDIT_CHANNEL, vanpoolId),
    cancellationCardOf: (vanpoolId) =>
      found(cardOf(fake, AUDIT_CHANNEL, vanpoolId, titled("Cancellation of")), vanpoolId),
    cardWith: (vanpoolId, actionId) => found(cardOf(fake, AUDIT_CHANNEL, vanpoolId, withButton(actionId)), vanpoolId),
    async click(user, message, actionId) {
      const action = buttonOf(message, actionId);
      const response = await harness.post(
        fake.blockActionPayload({ user: { id: user }, channel: AUDIT_CHANNEL, message, action: { ...action } }),
      );
      await bot.idle();
      return response;
    },
    async keep(user, card, employeeId, values = {}) {
      await harness.click(user, card, `keep_rider:${employeeId}`);
      const view = fake.views(user).at(-1)!;
      const response = await harness.post(
        fake.viewSubmissionPayload({
          user: { id: user },
          view,
          values: { reason: "Kept after a look at the record.", exception_reason: "program_manager", ...values },
        }),
      );
      await bot.idle();
      return response;
    },
    async restart() {
      await shutdown();
      await boot();
    },
    async close() {
      await shutdown();
      await fake.close();
      if (botClients !== db) {
        await botClients.prisma.$disconnect();
        await botClients.pool.end();
      }
      await db.drop();
      fs.rmSync(outbox, { recursive: true, force: true });
    },
  };
  return harness;
}

function found(card: SlackMessage | undefined, vanpoolId: string): SlackMessage {
  if (!card) throw new Error(`No such card in the thread of ${vanpoolId}'s case alert`);
  return card;
}
