// The Bolt app: Socket Mode when SLACK_APP_TOKEN is set, otherwise HTTP on PORT at
// POST /slack/events; POST /webhooks/resend takes inbound email and the REST API answers in both.
// Listeners are thin; the work happens in the case workflow.
import type { IncomingMessage, ServerResponse } from "node:http";
import { App, type CustomRoute, HTTPReceiver, LogLevel } from "@slack/bolt";
import { WebClient, WebClientEvent } from "@slack/web-api";
import type { AgentDeps } from "../agents/deps.js";
import { createCaseWorkflow } from "../cases/case-workflow.js";
import { createConfiguredInboundEmail, type InboundEmail } from "../cases/inbound-reply.js";
import type { SlackSettings } from "../config/settings.js";
import { cleanStringsIn } from "../domain/clean-text.js";
import { createApi } from "../http/api/app.js";
import { resendWebhookRoute } from "../http/resend-webhook-route.js";
import { createWeb } from "../http/web/app.js";
import { SLACK_CALLBACK_PATH } from "../http/web/slack-sign-in.js";
import type { JobEngine } from "../queue/engine.js";
import { createApproverCheck } from "../slack/approvers.js";
import { createCaseMessages } from "../slack/case-messages.js";
import { createDigest } from "../slack/digest.js";
import { createReport } from "../slack/report.js";
import { createSlackSignIn } from "../slack/sign-in-with-slack.js";
import { createUserNames } from "../slack/user-names.js";
import { registerAnswerFeedback } from "./listeners/actions/answer-feedback.js";
import { registerApprovalActions } from "./listeners/actions/approvals.js";
import { registerCaseActions } from "./listeners/actions/case-actions.js";
import { registerExceptionActions } from "./listeners/actions/exception-actions.js";
import { registerPoolpatrolCommand } from "./listeners/commands/poolpatrol.js";
import { registerAppHome } from "./listeners/events/app-home.js";
import { registerAssistantThreads } from "./listeners/events/assistant.js";
import { registerConversation } from "./listeners/events/conversation.js";
import type { SlackContext } from "./slack-context.js";

export interface SlackAppOptions {
  slack: SlackSettings;
  deps: AgentDeps;
  /** The running job engine: decisions, emails and Slack updates become its jobs. */
  jobs?: JobEngine;
  /** Tests: no retries, so a failing call fails now. */
  retries?: number;
  /** Spacing of posts to one channel; the settings' (POOLPATROL_SLACK_POST_INTERVAL_MS) unless given. */
  channelIntervalMs?: number;
  /** Every Slack call gives up after this long. */
  timeoutMs?: number;
  logLevel?: LogLevel;
  /** `/poolpatrol audit all`: starts (or joins) a sweep. */
  startSweep?(userId: string): Promise<{ joined: boolean }>;
}

export async function createSlackApp(options: SlackAppOptions) {
  const { slack, deps } = options;
  const socketMode = Boolean(slack.appToken);
  // Checked here, once and awaited: Bolt would otherwise call auth.test in the background and exit on failure.
  const botClient = new WebClient(slack.botToken, {
    ...(slack.apiUrl ? { slackApiUrl: slack.apiUrl } : {}),
    retryConfig: { retries: options.retries ?? 2 },
    timeout: options.timeoutMs ?? 15_000,
  });
  const identity = await botClient.auth.test().catch((error: Error) => {
    throw new Error(`Slack refused SLACK_BOT_TOKEN or could not be reached (auth.test: ${error.message}).`);
  });
  // The Resend webhook, the REST API and the web pages share the bot's HTTP port in every mode (Socket Mode: Bolt's own server on PORT).
  let inbound: InboundEmail | undefined;
  const handleWebhook: InboundEmail["handleWebhook"] = (request) => inbound!.handleWebhook(request);
  const webhook = resendWebhookRoute({ handleWebhook }, { error: (m) => app.logger.error(m) });
  const workflow = createCaseWorkflow(deps);
  const api = createApi({ agent: deps, workflow, inbound: { handleWebhook }, jobs: options.jobs });
  // Slack users' names for the pages and the report, asked for once per process.
  const userName = (userId: string) => userNames(userId);
  const web = createWeb({
    agent: deps,
    secureCookie: slack.webUrl.startsWith("https:"),
    permalink: async (channel, ts) => (await app.client.chat.getPermalink({ channel, message_ts: ts })).permalink,
    userName,
    ...(slack.signIn && {
      slackSignIn: {
        provider: createSlackSignIn(botClient, slack.signIn, deps.now),
        teamId: identity.team_id!,
        auditChannel: slack.auditChannel,
        // Read when a sign-in starts: the address can be known only once the server listens (port 0).
        get redirectUri() {
          return `${slack.webUrl}${SLACK_CALLBACK_PATH}`;
        },
        isApprover: (userId: string) => isApprover(userId),
      },
    }),
  });
  const routes = [webhook, ...api.routes, ...web.routes];
  const logLevel = options.logLevel ?? LogLevel.WARN;
  const app = new App({
    token: slack.botToken,
    botId: identity.bot_id,
    botUserId: identity.user_id,
    ...(socketMode
      ? { socketMode: true, appToken: slack.appToken, customRoutes: routes, installerOptions: { port: slack.port } }
      : { receiver: httpReceiver(slack.signingSecret!, routes, logLevel, (m) => app.logger.warn(m)) }),
    clientOptions: {
      timeout: options.timeoutMs ?? 15_000,
      ...(slack.apiUrl ? { slackApiUrl: slack.apiUrl } : {}),
      ...(options.retries !== undefined ? { retryConfig: { retries: options.retries } } : {}),
    },
    logLevel,
    // Nothing reads Bolt's conversation store: without it no store lookup runs before each ack.
    convoStore: false,
  });
  // Every request's text is cleaned before any listener reads it (Bolt's `command`, `action`,
  // `view` and `event` are parts of its body): HTTP mode, Socket Mode and the sandbox alike.
  app.use(async ({ body, next }) => {
    cleanStringsIn(body);
    await next();
  });
  app.client.on(WebClientEvent.RATE_LIMITED, () => api.countSlackRateLimit());
  // Listener work still running after its ack, for `settled` and `idle`.
  const listening = new Set<Promise<void>>();
  app.use(async ({ next }) => {
    const work = next();
    listening.add(work);
    try {
      await work;
    } finally {
      listening.delete(work);
    }
  });
  /** Resolves when every listener started so far has finished (its ack went long before). */
  async function settled(): Promise<void> {
    while (listening.size > 0) await Promise.allSettled([...listening]);
  }
  const log = {
    info: (m: string) => app.logger.info(m),
    warn: (m: string) => app.logger.warn(m),
    error: (m: string) => app.logger.error(m),
  };
  const ctx: SlackContext = {
    deps,
    workflow,
    slack,
    client: app.client,
    log,
  };
  const messages = createCaseMessages(ctx, { channelIntervalMs: options.channelIntervalMs });
  inbound = createConfiguredInboundEmail(deps, {
    workflow: ctx.workflow,
    notify: async (text, key) => {
      await messages.postKept(key, { channel: slack.auditChannel, text });
    },
    onCaseChanged: (caseId) => messages.syncCase(caseId),
  });
  const isApprover = createApproverCheck(app.client, slack.approvers);
  const userNames = createUserNames(app.client);
  const digest = createDigest(ctx, { channelIntervalMs: options.channelIntervalMs });
  const report = createReport(ctx, { userName, warn: log.warn, channelIntervalMs: options.channelIntervalMs });
  const permalink = async (channel: string, ts: string) =>
    (await app.client.chat.getPermalink({ channel, message_ts: ts })).permalink ?? "";

  registerPoolpatrolCommand(app, {
    ctx,
    messages,
    isApprover,
    permalink,
    startSweep: options.startSweep,
  });
  registerApprovalActions(app, { ctx, messages, isApprover });
  registerCaseActions(app, { ctx, messages, isApprover });
  registerExceptionActions(app, { ctx, isApprover });
  registerAppHome(app, { ctx, isApprover });
  registerConversation(app, { ctx, messages, isApprover });
  registerAssistantThreads(app, ctx);
  registerAnswerFeedback(app, ctx);

  /** Resolves when the work started so far is done: the jobs queued here (clicks, messages) and those they queued. */
  async function idle(): Promise<void> {
    do {
      await settled();
      await options.jobs?.drain();
    } while (listening.size > 0);
  }

  /** The Resend webhook outside Bolt's own server (the sandbox serves it on the local Slack's PORT). */
  const handleWebhookRequest = (req: IncomingMessage, res: ServerResponse) =>
    void (webhook.handler as (req: IncomingMessage, res: ServerResponse) => void)(req, res);

  return { app, ctx, messages, digest, report, socketMode, inbound, api, web, handleWebhookRequest, idle, settled };
}

export type SlackApp = Awaited<ReturnType<typeof createSlackApp>>;

/** How far a Slack request's timestamp may be from now, either way. */
const SLACK_TIMESTAMP_WINDOW_SECONDS = 5 * 60;

/**
 * Bolt's receiver for HTTP mode, with the timestamp window held both ways: Bolt refuses a request
 * signed over five minutes ago but takes one signed any time in the future. Slack hears back when a
 * listener acks, not when its work is done (Bolt's advice for a long-running server).
 */
function httpReceiver(
  signingSecret: string,
  customRoutes: CustomRoute[],
  logLevel: LogLevel,
  warn: (message: string) => void,
): HTTPReceiver {
  const receiver = new HTTPReceiver({ signingSecret, customRoutes, processBeforeResponse: false, logLevel });
  const verified = receiver.requestListener;
  receiver.requestListener = (req: IncomingMessage, res: ServerResponse) => {
    const stamp = Number(req.headers["x-slack-request-timestamp"]);
    if (Number.isFinite(stamp) && stamp - Date.now() / 1000 > SLACK_TIMESTAMP_WINDOW_SECONDS) {
      warn("Refused a Slack request signed more than five minutes in the future.");
      res.writeHead(401).end();
      return;
    }
    verified(req, res);
  };
  return receiver;
}
