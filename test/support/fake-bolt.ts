// Listener unit tests without Slack, a database or HTTP: a stand-in for Bolt's App that keeps
// the handlers a listener registers, and calls them with a recording ack/respond and Web API client.
import type { App } from "@slack/bolt";
import type { SlackContext } from "../../src/bot/slack-context.js";

type Handler = (args: Record<string, unknown>) => Promise<unknown>;
type Kind = "command" | "action" | "view" | "event";

/** What a listener did, in order: its acks and its Web API calls ("ack", "chat.postEphemeral", …). */
export interface SlackCall {
  method: string;
  args?: unknown;
}

/** A button click as Slack sends it: on a message in a channel (optionally in a thread), or in App Home. */
export interface Click {
  actionId: string;
  value: string;
  userId?: string;
  channel?: string;
  /** The clicked message's ts; threadTs when the message is a reply in a thread. */
  messageTs?: string;
  threadTs?: string;
}

export interface Submission {
  callbackId: string;
  /** The modal's private_metadata. */
  metadata: string;
  /** Input values by block id and action id. */
  values: Record<string, Record<string, string>>;
  userId?: string;
}

export interface FakeBolt {
  /** What listeners register on; only the registration methods they use exist. */
  app: App;
  /** Acks, responds and Web API calls, in the order they happened (shared with fakeSlackContext's client). */
  calls: SlackCall[];
  /** Runs the slash command handler with this text; returns what it acked and responded. */
  command(name: string, text: string, userId?: string): Promise<{ acks: unknown[]; responses: unknown[] }>;
  action(click: Click): Promise<void>;
  view(submission: Submission): Promise<void>;
  event(type: string, event: Record<string, unknown>, body?: Record<string, unknown>): Promise<void>;
}

export function fakeBolt(calls: SlackCall[] = []): FakeBolt {
  const handlers: { kind: Kind; constraint: string | RegExp; handler: Handler }[] = [];
  const register = (kind: Kind) => (constraint: string | RegExp, handler: Handler) =>
    void handlers.push({ kind, constraint, handler });
  const find = (kind: Kind, id: string) => {
    const found = handlers.find(
      (h) => h.kind === kind && (typeof h.constraint === "string" ? h.constraint === id : h.constraint.test(id)),
    );
    if (!found) throw new Error(`no ${kind} handler for ${id}`);
    return found.handler;
  };
  const ack = async (message?: unknown) => void calls.push({ method: "ack", args: message });
  const client = recordingClient(calls);
  return {
    // The listeners under test only call these registration methods; the rest of App is never reached.
    app: {
      command: register("command"),
      action: register("action"),
      view: register("view"),
      event: register("event"),
    } as unknown as App,
    calls,
    async command(name, text, userId = "U0ALICE") {
      const acks: unknown[] = [];
      const responses: unknown[] = [];
      await find(
        "command",
        name,
      )({
        command: {
          command: name,
          text,
          user_id: userId,
          channel_id: "C0AUDIT",
          trigger_id: "T0TRIGGER",
          response_url: "https://hooks.slack.example/commands/1",
        },
        ack: async (message?: unknown) => void acks.push(message),
        respond: async (message: unknown) => void responses.push(message),
      });
      return { acks, responses };
    },
    async action(click) {
      const user = { id: click.userId ?? "U0ALICE" };
      const action = { type: "button", action_id: click.actionId, value: click.value };
      const body = {
        type: "block_actions",
        user,
        trigger_id: "T0TRIGGER",
        actions: [action],
        ...(click.channel
          ? {
              channel: { id: click.channel },
              message: { ts: click.messageTs ?? "1700000000.000100", thread_ts: click.threadTs },
              container: { type: "message", message_ts: click.messageTs, thread_ts: click.threadTs },
            }
          : { container: { type: "view", view_id: "V0HOME" } }),
      };
      await find("action", click.actionId)({ ack, body, action, client });
    },
    async view(submission) {
      const values = Object.fromEntries(
        Object.entries(submission.values).map(([block, inputs]) => [
          block,
          Object.fromEntries(Object.entries(inputs).map(([id, value]) => [id, { type: "plain_text_input", value }])),
        ]),
      );
      const view = { callback_id: submission.callbackId, private_metadata: submission.metadata, state: { values } };
      const body = { type: "view_submission", user: { id: submission.userId ?? "U0ALICE" }, view };
      await find("view", submission.callbackId)({ ack, body, view, client });
    },
    async event(type, event, body = {}) {
      await find("event", type)({ event: { type, ...event }, body: { event, ...body }, client });
    },
  };
}

/** A Web API client that records each call and answers ok. */
export function recordingClient(calls: SlackCall[]): SlackContext["client"] {
  const method = (name: string) => async (args: unknown) => {
    calls.push({ method: name, args });
    return { ok: true, ts: "1700000000.000900" };
  };
  const client = {
    chat: { postMessage: method("chat.postMessage"), postEphemeral: method("chat.postEphemeral") },
    views: { open: method("views.open"), publish: method("views.publish") },
  };
  // Only the methods above exist: a listener calling another one fails the test.
  return client as unknown as SlackContext["client"];
}

/** A job a listener queued before its ack (what Slack asked for, carried out later by a job). */
export interface QueuedJob {
  queue: string;
  data: { kind: string } & Record<string, unknown>;
}

/**
 * A SlackContext for listeners whose tested paths touch neither the database nor the agents.
 * Jobs the listeners queue are recorded in `queued`, not run.
 */
export function fakeSlackContext(options: { restrictAudits?: boolean; calls?: SlackCall[]; deps?: object } = {}): {
  ctx: SlackContext;
  queued: QueuedJob[];
} {
  const queued: QueuedJob[] = [];
  const send = async (queue: string, data: QueuedJob["data"]) => {
    queued.push({ queue, data });
    return `job-${queued.length}`;
  };
  const jobs = { send, sendBy: (_deadline: number, queue: string, data: QueuedJob["data"]) => send(queue, data) };
  const ctx = {
    slack: { restrictAudits: options.restrictAudits ?? true },
    // The pace of posts is read as messages are set up; nothing is posted through it here.
    deps: { jobs, settings: { slackPostIntervalMs: 0 }, ...options.deps },
    client: recordingClient(options.calls ?? []),
    log: { info() {}, warn() {}, error() {} },
  };
  // Only the fields above exist: a listener that reached for the database would fail the test.
  return { ctx: ctx as unknown as SlackContext, queued };
}
