// The mock threads' replies, taken in as real inbound email after seeding: the cases
// then stand where their replies put them (a question answered, an update re-checked),
// instead of timing out on replies nobody read.
import type { AgentDeps } from "../agents/deps.js";
import type { Fixtures } from "../data/fixtures.js";
import { deliverLocally } from "../integrations/email/inbound/local-delivery.js";
import { localInboxDir, localMailbox } from "../integrations/email/inbound/mailbox.js";
import { webhookSecret } from "../integrations/email/inbound/webhook-secret.js";
import type { CaseWorkflow } from "./case-workflow.js";
import { createInboundEmail } from "./inbound-reply.js";

export async function processSeededReplies(
  deps: Pick<AgentDeps, "now" | "pool" | "prisma" | "settings">,
  workflow: Pick<CaseWorkflow, "receiveReply" | "resumeUnreadReply">,
  fixtures: Pick<Fixtures, "emailThreads">,
): Promise<string[]> {
  const secret = webhookSecret(deps.settings);
  const inbound = createInboundEmail(deps, {
    workflow,
    mailbox: localMailbox(localInboxDir(deps.settings)),
    secret: () => secret,
  });
  const replies = fixtures.emailThreads
    .flatMap((t) => t.messages.filter((m) => m.direction === "inbound").map((m) => ({ thread: t, message: m })))
    .sort((a, b) => a.message.sent_at.localeCompare(b.message.sent_at));
  const outcomes: string[] = [];
  for (const { thread, message } of replies) {
    const { rawBody, headers } = deliverLocally(
      deps.settings,
      { threadId: thread.thread_id, from: message.from, subject: message.subject, body: message.body },
      secret,
    );
    const { body } = await inbound.handleWebhook({ rawBody, headers });
    outcomes.push("error" in body ? body.error : body.outcome);
  }
  return outcomes;
}
