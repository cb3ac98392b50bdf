// The Case Manager in conversation: one LangGraph agent per Slack thread (the thread
// is the checkpoint thread, so follow-ups and restarts keep context) with read-only
// tools over stored facts. Offline the rules model drives it; with a model configured
// the same agent answers free form with the same tools, and falls back to the rules
// model if the model fails mid-answer. Every answer names its sources.
import type { AIMessage, BaseMessage, ToolMessage } from "@langchain/core/messages";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { createAgent } from "langchain";
import type { Settings } from "../../config/settings.js";
import type { PrismaClient } from "../../data/prisma.js";
import type { AnswerFact } from "../../domain/feedback-dataset.js";
import { createAgentModel } from "../models/index.js";
import { RulesChatModel } from "../models/rules-model.js";
import { caseOfRiderNamed, caseOverview, type Facts, ridersComparedIn, vanpoolsNamedByName } from "./facts.js";
import { keepRecentQuestions } from "./recent-turns.js";
import { type ConversationTask, conversationRules } from "./rules.js";
import { type ConversationActions, createConversationTools, READ_AHEAD, type ReadAhead } from "./tools.js";
import { namedSubject } from "./understand.js";

const SYSTEM_PROMPT = `You are Pool Patrol's Case Manager, answering auditors in Slack about vanpool audit cases.
Each user message is JSON: {"question", "case_id", "vanpool_id", "vanpools_named"} where case_id is the case whose thread this is (may be null), vanpool_id a vanpool the question names by its name (may be absent), vanpools_named the vanpools its words fit equally well (ask which one when no case_id), rider_case_id the latest case of the one rider the question names when asked outside a case, riders_named the people a first name fits equally (ask which one), and riders_compared riders of different vanpools compared (call compare_riders).
- Facts come only from your tools. Call case_overview first (or vanpool_overview / program_figures) to learn the case and its riders' names and ids; then the tools the question needs. Never guess a fact.
- Use the earlier messages of the thread to resolve follow-ups ("and the other rider?", "what did she say?").
- Answer every part of a multi-part question. For a rule ("how is the limit measured?"), quote policy_sections with its section, even in a case thread; add the case's facts when both are asked.
- A name not on the case's roster: call riders_elsewhere and say which case they are on; do nothing else for them. "Flagged before?": rider_history (in the rider's case thread, with their replies and the drafts decided on this case). "Has this van had cases before?": vanpool_history. "When did her address change?": record_changes. "Who's flagged across the open cases?": open_cases. Vanpools compared ("VP-102 vs VP-109?"): compare_vanpools. A rider's claim that their home or shift changed: check_results with what_would_change. Deadlines: next_steps (give the date).
- Never show street addresses, email addresses, phone numbers or exact distances: use the bands and cities the tools give; for an exact distance call check_results with exact (it says where approvers see the figure).
- You never cancel, approve or send anything. For "cancel him" or "approve it" call approval_card. For "draft a follow-up to <rider>" call draft_follow_up with that flagged rider's id (it only drafts; an approver decides on the card). Call recheck only when someone explicitly asks to re-check or re-audit.
- If the question is truly ambiguous, ask ONE short clarifying question that lists the likely options.
Answer briefly in Slack mrkdwn; a list of several cases or a comparison of riders or vanpools reads best as a markdown table (a header row, a --- row, then one row each).`;

export interface ConversationDeps {
  prisma: PrismaClient;
  settings: Pick<Settings, "models" | "openai" | "modelTimeoutMs" | "timeZone">;
  checkpointer: BaseCheckpointSaver;
  now(): Date;
}

export interface ConversationQuestion {
  /** The Slack thread (or DM) the question was asked in. */
  threadId: string;
  question: string;
  caseId: string | null;
  askerIsApprover: boolean;
  /** Told each tool as it starts (its name and JSON input), so Slack can say what is being read. */
  onTool?(name: string, input: string): void;
  /**
   * Told the answer's text as soon as it is written, before the thread's state is saved: the pieces, in order,
   * make up `answer` (its sources last).
   */
  onText?(piece: string): void;
}

export interface ConversationAnswer {
  answer: string;
  sources: string[];
  clarified: boolean;
  model: string;
  /** What the tools read for it, in the order they ran: the facts the answer was built from. */
  facts: AnswerFact[];
}

type Agent = ReturnType<typeof createAgent>;

export function createConversation(deps: ConversationDeps, actions: ConversationActions) {
  const factsDeps = { prisma: deps.prisma, timeZone: deps.settings.timeZone, now: deps.now };
  const tools = createConversationTools(factsDeps, actions);
  const build = (model: RulesChatModel | ReturnType<typeof createAgentModel>["chat"]) =>
    createAgent({
      model,
      tools,
      systemPrompt: SYSTEM_PROMPT,
      checkpointer: deps.checkpointer,
      middleware: [keepRecentQuestions],
    });
  const rules = build(new RulesChatModel(conversationRules, "case_manager_conversation"));
  const configured = createAgentModel("case_manager", deps.settings, conversationRules);
  const model = configured.isRules ? undefined : { name: configured.name, agent: build(configured.chat) };

  /** The turn's messages once the agent is done; `onFinal` hears them as soon as the final answer exists. */
  async function run(
    agent: Agent,
    input: ConversationQuestion,
    task: ConversationTask,
    onFinal: (turn: BaseMessage[]) => void,
    ahead: ReadAhead,
  ): Promise<BaseMessage[]> {
    const states = await agent.stream(
      { messages: [{ role: "user", content: JSON.stringify(task) }] },
      {
        configurable: {
          thread_id: `conversation:${input.threadId}`,
          asker_is_approver: input.askerIsApprover,
          [READ_AHEAD]: ahead,
        },
        recursionLimit: 16,
        ...(input.onTool ? { callbacks: [toolWatcher(input.onTool)] } : {}),
        // Answers only read: the thread's state is saved once, when the answer is done.
        durability: "exit",
        streamMode: "values",
      },
    );
    let turn: BaseMessage[] = [];
    for await (const state of states as AsyncIterable<{ messages: BaseMessage[] }>) {
      const messages = state.messages;
      turn = messages.slice(messages.map((m) => m.getType()).lastIndexOf("human") + 1);
      const last = turn.at(-1);
      if (last?.getType() === "ai" && !(last as AIMessage).tool_calls?.length) onFinal(turn);
    }
    return turn;
  }

  async function ask(input: ConversationQuestion): Promise<ConversationAnswer> {
    // A question in a case thread is answered from its case first: read it while the thread's state loads.
    const ahead: ReadAhead = {};
    if (input.caseId) {
      const overview = caseOverview(factsDeps, input.caseId);
      overview.catch(() => undefined); // a failure is the tool's to report, if it is called
      ahead[input.caseId] = overview;
    }
    const [{ named, compared: vanpoolsCompared }, compared] = await Promise.all([
      vanpoolsNamedByName(deps.prisma, input.question),
      ridersComparedIn(deps.prisma, input.question),
    ]);
    const subject = namedSubject(input.question);
    const rider =
      input.caseId || named.length || subject.caseId || subject.vanpoolId
        ? {}
        : await caseOfRiderNamed(deps.prisma, input.question);
    const task: ConversationTask = {
      question: input.question,
      case_id: input.caseId,
      ...(named.length === 1
        ? { vanpool_id: named[0]!.vanpool_id }
        : rider.vanpoolId
          ? { vanpool_id: rider.vanpoolId }
          : {}),
      ...(named.length > 1 ? { vanpools_named: named.map((v) => `${v.name} (${v.vanpool_id})`) } : {}),
      ...(rider.caseId ? { rider_case_id: rider.caseId } : {}),
      ...(rider.choices ? { riders_named: rider.choices } : {}),
      ...(compared.length ? { riders_compared: compared } : {}),
      ...(vanpoolsCompared.length > 1 ? { vanpools_compared: vanpoolsCompared } : {}),
    };
    let written: ConversationAnswer | undefined;
    // The answer is told as soon as it exists; the thread's state is saved after.
    const final = (name: string) => (turn: BaseMessage[]) => {
      if (written) return;
      written = toAnswer(turn, name);
      input.onText?.(written.answer);
    };
    let turn: BaseMessage[];
    let used = "rules";
    if (model) {
      try {
        turn = await run(model.agent, input, task, final(model.name), ahead);
        used = model.name;
      } catch (error) {
        // Once its answer is out, a failure (its state not saved) is the answer's own, not a model's to fall back from.
        if (written) throw error;
        turn = await run(rules, input, task, final("rules"), ahead);
      }
    } else turn = await run(rules, input, task, final("rules"), ahead);
    // A turn that ended without a final message (none written) still answers with what its tools read.
    final(used)(turn);
    return written!;
  }

  return { ask };
}

export type Conversation = ReturnType<typeof createConversation>;

function toolWatcher(onTool: (name: string, input: string) => void) {
  return {
    handleToolStart(_tool: unknown, input: string, ...rest: unknown[]) {
      const runName = rest[4];
      if (typeof runName === "string") onTool(runName, input);
    },
  };
}

const OVERVIEWS = new Set(["case_overview", "vanpool_overview"]);

function toAnswer(turn: BaseMessage[], model: string): ConversationAnswer {
  const toolResults = turn.filter((m) => m.getType() === "tool") as ToolMessage[];
  // The facts asked for first, then the case they belong to.
  const ordered = [
    ...toolResults.filter((m) => !OVERVIEWS.has(m.name ?? "")),
    ...toolResults.filter((m) => OVERVIEWS.has(m.name ?? "")),
  ];
  const sources = [...new Set(ordered.flatMap((m) => factsOf(m).sources))];
  const final = turn.filter((m) => m.getType() === "ai").at(-1);
  const text = typeof final?.content === "string" ? final.content.trim() : "";
  // A question back, or the line for a request outside the program, read nothing it shows: no sources.
  const substantive = toolResults.some((m) => {
    const read = factsOf(m).text;
    return (
      !OVERVIEWS.has(m.name ?? "") && (model !== "rules" || (read.length > 0 && text.includes(read.split("\n")[0]!)))
    );
  });
  const clarified = !substantive && text.includes("?");
  const answer = clarified || sources.length === 0 ? text : `${text}\n_Sources: ${sources.join("; ")}_`;
  const facts = toolResults.map((m) => ({ tool: m.name ?? "", text: factsOf(m).text }));
  return { answer, sources: clarified ? [] : sources, clarified, model, facts };
}

function factsOf(message: ToolMessage): Facts {
  try {
    const parsed = JSON.parse(String(message.content)) as Partial<Facts>;
    return { text: parsed.text ?? "", sources: Array.isArray(parsed.sources) ? parsed.sources : [] };
  } catch {
    return { text: String(message.content), sources: [] };
  }
}
