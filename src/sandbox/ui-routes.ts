// The sandbox's browser API: what a person does in the page becomes what Slack would
// send the app (signed commands, clicks, submissions, events), and what the page
// shows is what the local Slack holds for the chosen user.
import fs from "node:fs";
import type http from "node:http";
import path from "node:path";
import type { InboundOutcome } from "../cases/inbound-reply.js";
import { PROJECT_ROOT } from "../config/settings.js";
import { listOpenCaseThreads } from "../data/email-repository.js";
import type { PrismaClient } from "../data/prisma.js";
import { cleanStringsIn } from "../domain/clean-text.js";
import { RESEND_WEBHOOK_PATH } from "../http/resend-webhook-route.js";
import type { HandWrittenReply } from "../integrations/email/inbound/local-delivery.js";
import type { FakeSlack } from "./slack/local-slack.js";
import { postSigned } from "./slack/local-slack.js";

// The page's files stay in src/ (the compiled code runs from dist/).
const UI_DIR = path.join(PROJECT_ROOT, "src", "sandbox", "ui");
const STATIC: Record<string, string> = {
  "/": "index.html",
  "/app.js": "app.js",
  "/inputs.js": "inputs.js",
  "/style.css": "style.css",
};
const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
};

/** A form value as the page sends it: text, a choice (null when none) or several choices. */
function submittedValue(value: unknown): string | string[] | null {
  if (value === null || value === undefined) return null;
  return Array.isArray(value) ? value.map(String) : String(value);
}

export interface SandboxPeople {
  users: { id: string; name: string; role: string }[];
  channel: { id: string; name: string };
}

export interface SandboxRoutesDeps {
  slack: () => FakeSlack;
  appUrl: () => string;
  signingSecret: string;
  people: SandboxPeople;
  /** The program's time zone: the sandbox's people read Slack's dates in it. */
  timeZone: string;
  prisma: PrismaClient;
  /** A rider's reply put in the local inbox, with the signed email.received announcing it. */
  deliverEmail(reply: HandWrittenReply): { rawBody: string; headers: Record<string, string> };
  /** Background work of the app (so a response can wait for it). */
  idle(): Promise<void>;
}

/** Whom the page is before anyone chooses: the first approver, so the buttons work. */
export function firstApprover(people: SandboxPeople): string {
  return (people.users.find((u) => u.role.startsWith("approver")) ?? people.users[0]!).id;
}

/**
 * Refuses a POST whose body type a cross-site form can send: the sandbox API takes JSON only. (Other
 * sites, other Hosts and cross-site requests are refused before this, on every route of the local Slack.)
 */
export function formBodyRefusal(req: http.IncomingMessage): string | undefined {
  if (req.method !== "GET" && !/^application\/json\s*(;|$)/i.test(req.headers["content-type"] ?? ""))
    return "The sandbox API takes application/json only.";
  return undefined;
}
/** The person's direct-message channel with the bot. */
const dmChannel = (user: string) => `D${user.slice(1)}`;

export function createSandboxRoutes(deps: SandboxRoutesDeps) {
  const knownUser = (id: string | null) => (deps.people.users.some((u) => u.id === id) ? (id ?? undefined) : undefined);
  const closed = new Set<string>();
  /** Each person's assistant thread in their DM with Pool Patrol, started when they first open it. */
  const assistantThreads = new Map<string, string>();
  const channel = deps.people.channel.id;
  const sign = (body: string) => postSigned(deps.appUrl(), deps.signingSecret, body);

  /** The DM's assistant thread as Slack's assistant view shows it: its messages, suggested prompts and status. */
  function assistantOf(user: string) {
    const threadTs = assistantThreads.get(user);
    if (!threadTs) return null;
    const slack = deps.slack();
    const dm = dmChannel(user);
    return {
      thread_ts: threadTs,
      messages: slack.thread(dm, threadTs).filter((m) => m.ts !== threadTs),
      prompts: slack.suggestedPrompts(dm, threadTs) ?? null,
      status: slack.statuses(dm, threadTs).at(-1) ?? "",
    };
  }

  /** Opening the DM starts its assistant thread once, as Slack does: assistant_thread_started, signed. */
  async function openAssistant(user: string) {
    if (assistantThreads.has(user)) return;
    const slack = deps.slack();
    const dm = dmChannel(user);
    // The thread's root, never sent to the app: Slack's assistant view shows the thread under it.
    const root = slack.userMessage({ user, channel: dm, text: "New chat with Pool Patrol" }).message.ts;
    assistantThreads.set(user, root);
    await sign(
      slack.eventCallbackBody({
        event: {
          type: "assistant_thread_started",
          assistant_thread: { user_id: user, channel_id: dm, thread_ts: root, context: {} },
          event_ts: root,
        },
      }),
    );
  }

  function state(user: string, thread: string | undefined) {
    const slack = deps.slack();
    const ephemerals = slack
      .ephemerals(user)
      .filter((e) => e.channel === channel)
      .map((e) => e.message);
    const modal =
      slack
        .views(user)
        .filter((v) => v.type === "modal" && !closed.has(v.id))
        .at(-1) ?? null;
    return {
      people: deps.people,
      timeZone: deps.timeZone,
      user,
      botUserId: slack.botUserId,
      messages: slack.messages(channel),
      dm: slack.messages(dmChannel(user)),
      assistant: assistantOf(user),
      thread: thread ? slack.thread(channel, thread) : null,
      // What Slack shows under a thread while the app works ("Pool Patrol is reading the location check…").
      threadStatus: thread ? (slack.statuses(channel, thread).at(-1) ?? "") : "",
      ephemerals,
      modal,
      home: slack.home(user) ?? null,
    };
  }

  /**
   * A click is sent with the message (or App Home) as the person saw it: the newest
   * version that has the button. A card decided meanwhile still reaches the bot, which
   * answers who decided first, as Slack does for a screen that was not refreshed.
   */
  async function act(body: Record<string, unknown>) {
    const slack = deps.slack();
    const user = String(body.user);
    const action = {
      action_id: String(body.action_id),
      value: body.value === undefined ? undefined : String(body.value),
    };
    const shown = <T extends { blocks?: unknown }>(versions: T[]) =>
      versions.findLast((v) =>
        JSON.stringify(v.blocks ?? []).includes(`"action_id":${JSON.stringify(action.action_id)}`),
      );
    let payload: string;
    if (body.source === "home") {
      const view = shown(slack.viewHistory(slack.home(user)?.id ?? ""));
      if (!view) throw new Error("That button is no longer in your App Home.");
      payload = slack.blockActionPayload({ user: { id: user }, view, action });
    } else {
      const message = shown(slack.messageHistory(String(body.ts)));
      if (!message || !slack.find((m) => m.ts === body.ts)) throw new Error("That message is gone.");
      payload = slack.blockActionPayload({ user: { id: user }, channel, message, action });
    }
    await sign(payload);
  }

  async function submit(body: Record<string, unknown>) {
    const slack = deps.slack();
    const view = slack.view(String(body.view_id));
    if (!view) throw new Error("That dialog is gone.");
    const values = Object.fromEntries(
      Object.entries((body.values ?? {}) as Record<string, unknown>).map(([k, v]) => [k, submittedValue(v)]),
    );
    const response = await sign(slack.viewSubmissionPayload({ user: { id: String(body.user) }, view, values }));
    const text = await response.text();
    const answer = text ? (JSON.parse(text) as { response_action?: string; errors?: Record<string, string> }) : {};
    if (answer.response_action === "errors") return { errors: answer.errors };
    closed.add(view.id);
    return { ok: true };
  }

  async function command(user: string, text: string) {
    const slack = deps.slack();
    const [name, ...rest] = text.trim().split(/\s+/);
    const body = slack.slashCommandBody({ command: name!, text: rest.join(" "), user_id: user, channel_id: channel });
    const response = await sign(body);
    const ack = await response.text();
    // What the app answered in its ack is shown the way Slack shows it: through the response URL.
    const responseUrl = new URLSearchParams(body).get("response_url")!;
    if (ack) await fetch(responseUrl, { method: "POST", headers: { "content-type": "application/json" }, body: ack });
    else if (response.status === 404 || response.status >= 400)
      await fetch(responseUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ text: `${name} failed (HTTP ${response.status}).` }),
      });
  }

  async function emailThreads() {
    const threads = await listOpenCaseThreads(deps.prisma);
    return threads.map((t) => ({
      thread_id: t.thread_id,
      case_id: t.case_id,
      vanpool_id: t.vanpool_id,
      status: t.case_status,
      riders: t.recipients,
    }));
  }

  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
    res.end(JSON.stringify(body));
  };

  return async function routes(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    url: URL,
    raw: string,
  ): Promise<boolean> {
    if (req.method === "GET" && STATIC[url.pathname]) {
      const file = path.join(UI_DIR, STATIC[url.pathname]!);
      res.writeHead(200, { "content-type": TYPES[path.extname(file)]!, "cache-control": "no-store" });
      res.end(fs.readFileSync(file));
      return true;
    }
    if (!url.pathname.startsWith("/sandbox/")) return false;
    const refusal = formBodyRefusal(req);
    if (refusal) {
      json(res, 403, { ok: false, error: refusal });
      return true;
    }
    let body: Record<string, unknown>;
    try {
      body = raw ? cleanStringsIn(JSON.parse(raw) as Record<string, unknown>) : {};
    } catch {
      json(res, 400, { ok: false, error: "The body is not JSON." });
      return true;
    }
    if (req.method === "POST" && !deps.people.users.some((u) => u.id === body.user)) {
      json(res, 400, {
        ok: false,
        error: `Choose who you are first (${deps.people.users.map((u) => u.name).join(", ")}).`,
      });
      return true;
    }
    try {
      switch (`${req.method} ${url.pathname}`) {
        case "GET /sandbox/state":
          json(
            res,
            200,
            state(
              knownUser(url.searchParams.get("user")) ?? firstApprover(deps.people),
              url.searchParams.get("thread") ?? undefined,
            ),
          );
          return true;
        case "GET /sandbox/email-threads":
          json(res, 200, await emailThreads());
          return true;
        case "POST /sandbox/command":
          await command(String(body.user), String(body.text));
          break;
        case "POST /sandbox/message": {
          const sent = deps.slack().userMessage({
            user: String(body.user),
            channel: body.dm ? dmChannel(String(body.user)) : channel,
            // "@Pool Patrol" typed in the page is a mention of the bot, as Slack's composer makes it.
            text: String(body.text).replace(/@pool[ _]?patrol\b/gi, `<@${deps.slack().botUserId}>`),
            ...(body.thread_ts ? { thread_ts: String(body.thread_ts) } : {}),
          });
          await sign(sent.body);
          if (sent.mention) await sign(sent.mention);
          break;
        }
        case "POST /sandbox/action":
          await act(body);
          break;
        case "POST /sandbox/submit": {
          const result = await submit(body);
          await deps.idle();
          json(res, 200, result);
          return true;
        }
        case "POST /sandbox/close":
          closed.add(String(body.view_id));
          break;
        case "POST /sandbox/assistant":
          await openAssistant(String(body.user));
          break;
        case "POST /sandbox/home":
          await sign(
            deps.slack().eventCallbackBody({
              event: {
                type: "app_home_opened",
                user: String(body.user),
                channel: dmChannel(String(body.user)),
                tab: "home",
                event_ts: `${Date.now() / 1000}`,
              },
            }),
          );
          break;
        case "POST /sandbox/email": {
          // The same path as a real reply: signed email.received to the bot's webhook, the text from the inbox.
          const { rawBody, headers } = deps.deliverEmail({
            threadId: String(body.thread_id),
            from: String(body.from),
            body: String(body.body),
          });
          const webhook = deps.appUrl().replace(/\/slack\/events$/, RESEND_WEBHOOK_PATH);
          const response = await fetch(webhook, {
            method: "POST",
            headers: { "content-type": "application/json", ...headers },
            body: rawBody,
          });
          const answer = (await response.json()) as Partial<InboundOutcome> & { error?: string };
          await deps.idle();
          if (!response.ok) json(res, 400, { ok: false, error: answer.error ?? "The webhook refused the email." });
          else json(res, 200, { ok: true, note: deliveredNote(answer) });
          return true;
        }
        default:
          return false;
      }
      await deps.idle();
      json(res, 200, { ok: true });
    } catch (error) {
      json(res, 400, { ok: false, error: (error as Error).message });
    }
    return true;
  };
}

/** What the person who sent a simulated reply reads: where it went, in words (the webhook's answer is for logs). */
function deliveredNote(answer: Partial<InboundOutcome>): string {
  if (answer.quarantined === "unknown thread")
    return "The reply matched no case, so it waits in quarantine for a person (poolpatrol quarantine list).";
  if (answer.quarantined)
    return "Pool Patrol never wrote to that sender, so the reply waits in quarantine for a person.";
  if (answer.case_id) return `Reply delivered to ${answer.case_id}: see its thread in the channel.`;
  return answer.outcome ?? "Reply delivered.";
}
