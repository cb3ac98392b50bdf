// The Outreach Agent: writes to flagged riders, classifies their replies, answers
// questions from the program policy, and holds replies to disputes for a person
// (send_email_for_review is interrupted for approve / edit / reject).
import { createAgent, humanInTheLoopMiddleware } from "langchain";
import type { AgentDeps } from "../deps.js";
import { endRunOnToolFailure } from "../logged-tool.js";
import { createAgentModel } from "../models/index.js";
import { latest, type Turn } from "../models/rules-model.js";
import type { BuiltAgent } from "../run-agent.js";
import { answerUnfinishedToolCalls } from "../unfinished-tool-calls.js";
import { createOutreachTools } from "./tools.js";

/** What the outreach agent, its runs and its tools use. */
export type OutreachDeps = Pick<AgentDeps, "checkpointer" | "classifier" | "now" | "prisma" | "sender" | "settings">;

export const OUTREACH_PROMPT_VERSION = "outreach-v3";
const SYSTEM_PROMPT = `You are Pool Patrol's Outreach Agent for a vanpool subsidy program. You receive a JSON task.
- task "initial", "confirmation" or "follow_up": send each recipient their email with send_email (kind = the task, reference = the task's reference). You may improve the wording of the drafts, but keep every fact and never mention another rider.
- task "reply": call classify_reply on the message first. For a question the policy sections answer, answer with send_email (kind "answer", reference = the message id), quoting the policy sections given, citing each by its heading. A question no policy section answers goes to a person: put the answer draft through send_email_for_review, never promise a follow-up yourself. For an escalation (dispute, anger, unclear intent or low confidence), never answer directly: put a calm, short reply through send_email_for_review. When classify_reply names the reply's language, write any answer or draft in that language; when it says the reply is unread, put unread_draft through send_email_for_review unchanged. For an acknowledgment or an update, send nothing: the Case Manager re-checks the data first.
- task "draft_follow_up": an approver asked for a follow-up to the one recipient: put their draft through send_email_for_review (never send_email).
Finish with one sentence saying what you did.`;

/** What the rules model does, step by step, for the same tasks. */
export function outreachRules(turn: Turn) {
  const task = turn.task as unknown as OutreachTask;
  if (task.task === "draft_follow_up") {
    const rejected = turn.results.some((r) => r.name === "send_email_for_review" && r.rejected);
    if (turn.called.includes("send_email_for_review"))
      return { final: rejected ? "The reviewer rejected the follow-up; nothing was sent." : "Sent the follow-up." };
    const [r] = task.recipients;
    return r
      ? [
          {
            name: "send_email_for_review",
            args: { case_id: task.case_id, to: r.email, subject: r.draft.subject, body: r.draft.body },
          },
        ]
      : { final: "No rider to write to." };
  }
  if (task.task !== "reply") {
    if (turn.called.includes("send_email")) return { final: `Sent ${task.recipients.length} ${task.task} email(s).` };
    return task.recipients.map((r) => ({
      name: "send_email",
      args: {
        case_id: task.case_id,
        to: r.email,
        subject: r.draft.subject,
        body: r.draft.body,
        kind: task.task,
        reference: task.reference,
      },
    }));
  }
  const reply = task.reply!;
  const classified = latest<{ bucket?: string; unread?: boolean }>(turn, "classify_reply");
  if (!classified) return [{ name: "classify_reply", args: { message_id: reply.message_id } }];
  if (turn.called.includes("send_email") || turn.called.includes("send_email_for_review")) {
    const rejected = turn.results.some((r) => r.name === "send_email_for_review" && r.rejected);
    return {
      final: rejected ? "The reviewer rejected the draft; nothing was sent." : `Replied to the ${classified.bucket}.`,
    };
  }
  if (classified.bucket === "question" && reply.policy_sections.length > 0)
    return [
      {
        name: "send_email",
        args: {
          case_id: task.case_id,
          to: reply.from,
          subject: reply.answer_draft.subject,
          body: reply.answer_draft.body,
          kind: "answer",
          reference: reply.message_id,
        },
      },
    ];
  // A question the policy does not answer becomes a person's task, not a promise nothing keeps.
  // A reply nothing could read: the draft says a person reads it, rather than answering a guess at its meaning.
  const forReview =
    classified.bucket === "escalation"
      ? classified.unread
        ? reply.unread_draft
        : reply.escalation_draft
      : classified.bucket === "question"
        ? reply.answer_draft
        : null;
  if (forReview)
    return [
      {
        name: "send_email_for_review",
        args: { case_id: task.case_id, to: reply.from, subject: forReview.subject, body: forReview.body },
      },
    ];
  return { final: `Classified as ${classified.bucket}; the Case Manager will re-check the data.` };
}

export interface OutreachTask {
  task: "initial" | "confirmation" | "follow_up" | "reply" | "draft_follow_up";
  case_id: string;
  vanpool_id: string;
  /** Makes the idempotency key of each email: the re-audit round or the reply's id. */
  reference: string;
  recipients: { employee_id: string; email: string; first_name: string; draft: { subject: string; body: string } }[];
  reply?: {
    message_id: string;
    from: string;
    body: string;
    policy_sections: { heading: string; text: string }[];
    answer_draft: { subject: string; body: string };
    escalation_draft: { subject: string; body: string };
    /** For a reply no reader could read (a language the embedded reader cannot read, offline). */
    unread_draft: { subject: string; body: string };
  };
}

export function createOutreachAgent(deps: OutreachDeps): BuiltAgent {
  const model = createAgentModel("outreach", deps.settings, outreachRules);
  const tools = createOutreachTools(deps);
  const agent = createAgent({
    model: model.chat,
    tools: [tools.classifyReply, tools.sendEmail, tools.sendEmailForReview],
    systemPrompt: SYSTEM_PROMPT,
    checkpointer: deps.checkpointer,
    middleware: [
      answerUnfinishedToolCalls,
      endRunOnToolFailure,
      humanInTheLoopMiddleware({
        interruptOn: { send_email_for_review: { allowedDecisions: ["approve", "edit", "reject"] } },
      }),
    ],
  });
  return { agentName: "outreach", promptVersion: OUTREACH_PROMPT_VERSION, agent, model };
}
