// Outreach tools: classify a reply, send an email, or hold one for human review.
// Recipients are checked against the case: only flagged riders, and riders already
// written to on the case (a rider whose update fixed their record hears back), can be written to.
import { tool } from "@langchain/core/tools";
import { z } from "zod";
import { findDecidedUnapplied } from "../../data/approval-repository.js";
import { eventsFor } from "../../data/audit-log.js";
import { getCase } from "../../data/case-repository.js";
import { findMessage, findThread, findThreadForCase, setClassification } from "../../data/email-repository.js";
import { findEmployeeContacts } from "../../data/employee-repository.js";
import { findVanpoolSnapshot } from "../../data/vanpool-repository.js";
import type { VanpoolSnapshot } from "../../domain/snapshot.js";
import { invalidInput, notFound } from "../../errors.js";
import { emailServiceDeps, sendCaseEmail } from "../../integrations/email/email-service.js";
import type { AgentDeps } from "../deps.js";
import { agentRunIdOf, logged } from "../logged-tool.js";

/** A failure of these ends the Outreach Agent's run (see ToolFailedError). */
const STATE_CHANGING = { changesState: true };

const emailArgs = {
  case_id: z.string().describe("The case, CASE-XXXXXXXX"),
  to: z.string().describe("The rider's email address"),
  subject: z.string(),
  body: z.string().describe("Plain text"),
};

/** The idempotency key of an email the Outreach Agent sends: one per case, kind, reference and rider. */
export function outreachEmailKey(caseId: string, kind: string, reference: string, to: string): string {
  return `${caseId}:${kind}:${reference}:${to.toLowerCase()}`;
}

/** The vanpool's coordinator, copied on case emails when the program says so (never on their own email). */
export function coordinatorCc(van: VanpoolSnapshot | undefined, ccCoordinator: boolean, to: string): string[] {
  const coordinator = van?.coordinator_id ? van.riders.find((r) => r.employee_id === van.coordinator_id) : undefined;
  return ccCoordinator && coordinator && coordinator.email.toLowerCase() !== to.toLowerCase()
    ? [coordinator.email]
    : [];
}

/** The language a reply's classification named, and whether no reader could read it (its reply.classified event). */
export async function storedLanguage(
  deps: Pick<AgentDeps, "prisma">,
  caseId: string,
  messageId: string,
): Promise<{ language?: string; unread?: true }> {
  const classified = (await eventsFor(deps.prisma, [caseId]))
    .filter((event) => event.action === "reply.classified" && event.details.message_id === messageId)
    .at(-1);
  const language = classified?.details.language;
  if (typeof language !== "string") return {};
  return { language, ...(classified!.details.unread ? { unread: true as const } : {}) };
}

export function createOutreachTools(deps: Pick<AgentDeps, "classifier" | "now" | "prisma" | "sender" | "settings">) {
  /** Who may receive mail on this case, and the coordinator to copy. */
  async function recipients(caseId: string) {
    const record = await getCase(deps.prisma, caseId);
    const van = await findVanpoolSnapshot(deps.prisma, record.vanpool_id);
    const flagged = await findEmployeeContacts(deps.prisma, record.flagged);
    const thread = await findThreadForCase(deps.prisma, caseId);
    const writtenTo = (thread?.messages ?? []).filter((m) => m.direction === "outbound").flatMap((m) => m.to);
    return {
      record,
      van,
      allowed: new Set([...flagged.map((e) => e.email), ...writtenTo].map((a) => a.toLowerCase())),
    };
  }

  async function send(
    args: { case_id: string; to: string; subject: string; body: string },
    key: string,
    actor: string,
  ) {
    const { record, van, allowed } = await recipients(args.case_id);
    if (!allowed.has(args.to.toLowerCase()))
      throw invalidInput(
        `${args.to} is not a rider on ${args.case_id}; emails go to flagged riders and riders already written to.`,
      );
    const { message, alreadySent, queued } = await sendCaseEmail(emailServiceDeps(deps), {
      caseId: record.case_id,
      vanpoolId: record.vanpool_id,
      to: [args.to],
      cc: coordinatorCc(van, deps.settings.email.ccCoordinator, args.to),
      subject: args.subject,
      body: args.body,
      idempotencyKey: key,
      actor,
      now: deps.now(),
    });
    return {
      sent: !queued,
      queued,
      message_id: message.message_id,
      thread_id: message.thread_id,
      already_sent: alreadySent,
    };
  }

  const classifyReply = tool(
    logged(
      deps.prisma,
      "classify_reply",
      async ({ message_id }: { message_id: string }) => {
        const message = await findMessage(deps.prisma, message_id);
        if (message?.direction !== "inbound") throw notFound(`No inbound message ${message_id}.`);
        if (message.auto_reply) throw invalidInput(`${message_id} is an automatic ${message.auto_reply}, not a reply.`);
        // Read before (a reading that stopped before it finished): the same answer, recorded once.
        if (message.bucket !== null) {
          const thread = (await findThread(deps.prisma, message.thread_id))!;
          return {
            message_id,
            bucket: message.bucket,
            confidence: Math.round((message.confidence ?? 0) * 100) / 100,
            hitl_required: message.bucket === "escalation",
            reasons: ["classified when the reply was first read"],
            // An unread reply read again still gets the draft that guesses nothing.
            ...(await storedLanguage(deps, thread.case_id, message_id)),
          };
        }
        // Quoted history and signatures are stripped on arrival; the classifier reads only what the rider wrote.
        const result = await deps.classifier.classify(message.reply_text ?? message.body, message.subject);
        const thread = (await findThread(deps.prisma, message.thread_id))!;
        await setClassification(deps.prisma, {
          messageId: message_id,
          bucket: result.bucket,
          confidence: result.confidence,
          event: {
            actor: "agent:outreach",
            action: "reply.classified",
            subjectType: "case",
            subjectId: thread.case_id,
            at: deps.now(),
            details: {
              message_id,
              bucket: result.bucket,
              confidence: result.confidence,
              reasons: result.reasons,
              classifier: deps.classifier.name,
              ...(result.language ? { language: result.language } : {}),
              ...(result.unread ? { unread: true } : {}),
            },
          },
        });
        return {
          message_id,
          bucket: result.bucket,
          confidence: Math.round(result.confidence * 100) / 100,
          hitl_required: result.bucket === "escalation",
          reasons: result.reasons,
          ...(result.language ? { language: result.language } : {}),
          ...(result.unread ? { unread: true } : {}),
        };
      },
      STATE_CHANGING,
    ),
    {
      name: "classify_reply",
      description:
        "Classify a rider's reply as acknowledgment, question, update or escalation, with a confidence. Low confidence counts as escalation.",
      schema: z.object({ message_id: z.string().describe("The inbound message, MSG-XXXXXXXX") }),
    },
  );

  const sendEmail = tool(
    logged(
      deps.prisma,
      "send_email",
      async (args: { case_id: string; to: string; subject: string; body: string; kind: string; reference: string }) =>
        send(args, outreachEmailKey(args.case_id, args.kind, args.reference, args.to), "agent:outreach"),
      STATE_CHANGING,
    ),
    {
      name: "send_email",
      description:
        "Send an email to a flagged rider now (initial review email, confirmation, follow-up, or the answer to a question). Never for disputes or upset riders: use send_email_for_review.",
      schema: z.object({
        ...emailArgs,
        kind: z.enum(["initial", "confirmation", "follow_up", "answer"]),
        reference: z.string().describe("What this email answers: the reply's message id, or the case's re-audit round"),
      }),
    },
  );

  const sendEmailForReview = tool(
    logged(
      deps.prisma,
      "send_email_for_review",
      async (args: { case_id: string; to: string; subject: string; body: string }, config) => {
        agentRunIdOf(config);
        // Runs only after a person approved (or edited) the draft: that decision names the email.
        const approval = await findDecidedUnapplied(deps.prisma, args.case_id, "escalation_reply");
        if (!approval)
          throw invalidInput(
            `No approved escalation reply for ${args.case_id}; a person must approve the draft first.`,
          );
        return send(args, `approval:${approval.approval_id}`, `slack-or-cli:${approval.decided_by}`);
      },
      STATE_CHANGING,
    ),
    {
      name: "send_email_for_review",
      description:
        "Hold a drafted reply to a rider who disputes, is upset or whose intent is unclear, for a person to approve, edit or reject. It is sent only if approved.",
      schema: z.object(emailArgs),
    },
  );

  return { classifyReply, sendEmail, sendEmailForReview };
}
