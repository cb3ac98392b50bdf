// `poolpatrol quarantine list | assign MSG THREAD | discard MSG`: inbound email that
// matched no thread or came from someone Pool Patrol did not write to waits here for a
// person, who attaches it to the right thread (it is then taken in as that rider's reply)
// or discards it.

import type { CaseWorkflow } from "../cases/case-workflow.js";
import { findThread } from "../data/email-repository.js";
import { findQuarantined, listQuarantined, resolveQuarantined } from "../data/inbound-repository.js";
import type { PrismaClient } from "../data/prisma.js";
import { isId } from "../domain/ids.js";
import { invalidInput, notFound } from "../errors.js";
import { extractReplyText } from "../replies/reply-text.js";

export interface QuarantineDeps {
  prisma: PrismaClient;
  workflow: Pick<CaseWorkflow, "receiveReply">;
  now: () => Date;
}

export async function quarantineCommand(deps: QuarantineDeps, args: string[], actor = "cli"): Promise<string> {
  const [action, id, threadId] = args;
  if (action === "list") return listQuarantine(deps.prisma);
  if (action === "assign") {
    const email = await openQuarantined(deps, id);
    const wanted = threadId?.toUpperCase();
    if (!wanted || !isId("thread", wanted)) throw invalidInput("assign needs a thread id, like THREAD-1A2B3C4D.");
    const thread = await findThread(deps.prisma, wanted);
    if (!thread) throw notFound(`No email thread ${wanted}.`);
    if (
      !(await resolveQuarantined(deps.prisma, {
        id: email.id,
        status: "assigned",
        by: actor,
        threadId: wanted,
        now: deps.now(),
      }))
    )
      throw invalidInput(`${email.id} was already handled by someone else.`);
    const result = await deps.workflow.receiveReply({
      threadId: wanted,
      from: email.from,
      subject: email.subject ?? undefined,
      body: email.body,
      // A person vouched for the sender: the reply is taken in as if they were written to.
      trustSender: true,
      details: {
        id: email.id,
        providerMessageId: email.provider_message_id,
        rfcMessageId: email.headers["message-id"] ?? null,
        replyText: extractReplyText(email.body).reply,
        attachments: email.attachments,
      },
    });
    return `${email.id} attached to ${wanted} (${thread.case_id}): ${result.note}`;
  }
  if (action === "discard") {
    const email = await openQuarantined(deps, id);
    if (!(await resolveQuarantined(deps.prisma, { id: email.id, status: "discarded", by: actor, now: deps.now() })))
      throw invalidInput(`${email.id} was already handled by someone else.`);
    return `${email.id} discarded.`;
  }
  throw invalidInput("Use: poolpatrol quarantine list | assign MSG-XXXXXXXX THREAD-XXXXXXXX | discard MSG-XXXXXXXX");
}

/** `quarantine list`: reads only. */
export async function listQuarantine(prisma: PrismaClient): Promise<string> {
  const held = await listQuarantined(prisma);
  if (held.length === 0) return "Nothing in quarantine.";
  return held
    .map((q) => {
      const files = q.attachments.length ? `; attachments: ${q.attachments.map((a) => a.filename).join(", ")}` : "";
      return `${q.id}  ${q.received_at.toISOString().slice(0, 16)}Z  from ${q.from}  "${q.subject ?? ""}"  (${q.reason}${files})`;
    })
    .join("\n");
}

async function openQuarantined(deps: QuarantineDeps, id: string | undefined) {
  const wanted = id?.toUpperCase();
  if (!wanted || !isId("message", wanted)) throw invalidInput("Name the quarantined email, like MSG-1A2B3C4D.");
  const email = await findQuarantined(deps.prisma, wanted);
  if (!email) throw notFound(`No quarantined email ${wanted}; \`poolpatrol quarantine list\` shows them.`);
  if (email.status !== "open") throw invalidInput(`${wanted} was already ${email.status}.`);
  return email;
}
