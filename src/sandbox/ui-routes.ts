// The sandbox's browser API: what a person does in the page becomes what Slack would
// send the app (signed commands, clicks, submissions, events), and what the page
// shows is what the local Slack holds for the chosen user.
import fs from "node:fs";
import type http from "node:http";
import path from "node:path";
import type { CaseWorkflow } from "../cases/case-workflow.js";
import { PROJECT_ROOT } from "../config/settings.js";
import type { PrismaClient } from "../data/prisma.js";
import type { FakeSlack, SlackView } from "./slack/local-slack.js";
import { postSigned } from "./slack/local-slack.js";

// The page's files stay in src/ (the compiled code runs from dist/).
const UI_DIR = path.join(PROJECT_ROOT, "src", "sandbox", "ui");
const STATIC: Record<string, string> = { "/": "index.html", "/app.js": "app.js", "/style.css": "style.css" };
const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
};

export interface SandboxPeople {
  users: { id: string; name: string; role: string }[];
  channel: { id: string; name: string };
}

export interface SandboxRoutesDeps {
  slack: () => FakeSlack;
  appUrl: () => string;
  signingSecret: string;
  people: SandboxPeople;
  prisma: PrismaClient;
  workflow: () => CaseWorkflow;
  /** After an email reply: bring Slack in step with the case. */
  syncCase(caseId: string): Promise<void>;
  /** Background work of the app (so a response can wait for it). */
  idle(): Promise<void>;
}

export function createSandboxRoutes(deps: SandboxRoutesDeps) {
  const closed = new Set<string>();
  const channel = deps.people.channel.id;
  const sign = (body: string) => postSigned(deps.appUrl(), deps.signingSecret, body);

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
      user,
      messages: slack.messages(channel),
      thread: thread ? slack.thread(channel, thread) : null,
      ephemerals,
      modal,
      home: slack.home(user) ?? null,
    };
  }

  async function act(body: Record<string, unknown>) {
    const slack = deps.slack();
    const user = String(body.user);
    const action = {
      action_id: String(body.action_id),
      value: body.value === undefined ? undefined : String(body.value),
    };
    let payload: string;
    if (body.source === "home")
      payload = slack.blockActionPayload({ user: { id: user }, view: slack.home(user) as SlackView, action });
    else {
      const message = slack.find((m) => m.ts === body.ts);
      if (!message) throw new Error("That message is gone.");
      payload = slack.blockActionPayload({ user: { id: user }, channel, message, action });
    }
    await sign(payload);
  }

  async function submit(body: { user: string; view_id: string; values: Record<string, string> }) {
    const slack = deps.slack();
    const view = slack.view(body.view_id);
    if (!view) throw new Error("That dialog is gone.");
    const response = await sign(slack.viewSubmissionPayload({ user: { id: body.user }, view, values: body.values }));
    const text = await response.text();
    const answer = text ? (JSON.parse(text) as { response_action?: string; errors?: Record<string, string> }) : {};
    if (answer.response_action === "errors") return { errors: answer.errors };
    closed.add(body.view_id);
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
    const threads = await deps.prisma.emailThread.findMany({
      where: { case: { status: { notIn: ["resolved", "cancelled"] } } },
      include: { case: true, messages: { where: { direction: "outbound" }, select: { toAddresses: true } } },
      orderBy: { createdAt: "desc" },
    });
    return threads.map((t) => ({
      thread_id: t.id,
      case_id: t.caseId,
      vanpool_id: t.vanpoolId,
      status: t.case.status,
      riders: [...new Set(t.messages.flatMap((m) => m.toAddresses))],
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
    const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    try {
      switch (`${req.method} ${url.pathname}`) {
        case "GET /sandbox/state":
          json(
            res,
            200,
            state(
              url.searchParams.get("user") ?? deps.people.users[0]!.id,
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
        case "POST /sandbox/message":
          await sign(
            deps.slack().userMessage({
              user: String(body.user),
              channel,
              text: String(body.text),
              ...(body.thread_ts ? { thread_ts: String(body.thread_ts) } : {}),
            }).body,
          );
          break;
        case "POST /sandbox/action":
          await act(body);
          break;
        case "POST /sandbox/submit": {
          const result = await submit(body as never);
          await deps.idle();
          json(res, 200, result);
          return true;
        }
        case "POST /sandbox/close":
          closed.add(String(body.view_id));
          break;
        case "POST /sandbox/home":
          await sign(
            deps.slack().eventCallbackBody({
              event: {
                type: "app_home_opened",
                user: String(body.user),
                channel: `D${String(body.user).slice(1)}`,
                tab: "home",
                event_ts: `${Date.now() / 1000}`,
              },
            }),
          );
          break;
        case "POST /sandbox/email": {
          const result = await deps
            .workflow()
            .receiveReply({ threadId: String(body.thread_id), from: String(body.from), body: String(body.body) });
          if (result.case_id) await deps.syncCase(result.case_id);
          await deps.idle();
          json(res, 200, {
            ok: true,
            note: result.handled ? `Reply recorded; ${result.case_id} is now ${result.status}.` : result.note,
          });
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
