// Listener unit tests without Slack, a database or HTTP: a stand-in for Bolt's App that keeps
// the handlers a listener registers, and calls them with a recording ack/respond.
import type { App } from "@slack/bolt";
import type { SlackContext } from "../../src/slack/slack-context.js";

type Handler = (args: Record<string, unknown>) => Promise<unknown>;

export interface FakeBolt {
  /** What listeners register on; only the registration methods they use exist. */
  app: App;
  /** Runs the slash command handler with this text; returns what it acked and responded. */
  command(name: string, text: string, userId?: string): Promise<{ acks: unknown[]; responses: unknown[] }>;
}

export function fakeBolt(): FakeBolt {
  const commands = new Map<string, Handler>();
  const registrar = {
    command: (name: string, handler: Handler) => void commands.set(name, handler),
  };
  return {
    // The listeners under test only call app.command; the rest of App is never reached.
    app: registrar as unknown as App,
    async command(name, text, userId = "U0ALICE") {
      const acks: unknown[] = [];
      const responses: unknown[] = [];
      const handler = commands.get(name);
      if (!handler) throw new Error(`no handler for ${name}`);
      await handler({
        command: { command: name, text, user_id: userId, channel_id: "C0AUDIT" },
        ack: async (message?: unknown) => void acks.push(message),
        respond: async (message: unknown) => void responses.push(message),
      });
      return { acks, responses };
    },
  };
}

/** A SlackContext for listeners whose tested paths touch neither the database nor the agents. */
export function fakeSlackContext(options: { restrictAudits?: boolean } = {}): {
  ctx: SlackContext;
  backgroundWork: Promise<unknown>[];
} {
  const backgroundWork: Promise<unknown>[] = [];
  const ctx = {
    slack: { restrictAudits: options.restrictAudits ?? true },
    deps: {},
    background: (_label: string, work: () => Promise<unknown>) => void backgroundWork.push(work()),
    log: { info() {}, warn() {}, error() {} },
  };
  // Only the fields above exist: a listener that reached for the database would fail the test.
  return { ctx: ctx as unknown as SlackContext, backgroundWork };
}
