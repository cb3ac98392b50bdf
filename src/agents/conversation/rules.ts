// The offline conversation policy for the rules model: first read the case (or the
// case or vanpool the question names) to learn its riders, then understand the
// question against that roster and the thread's earlier turns, call the tools the
// question needs, and answer with their facts. One clarifying question, with the
// likely options, only when the question cannot be placed.
import { EXACT_DISTANCE_WHERE } from "../../domain/redaction.js";
import { latest, type ToolCallPlan, type Turn } from "../models/rules-model.js";
import type { CaseFacts, Facts } from "./facts.js";
import type { OpenCasesView } from "./open-cases.js";
import {
  asksAtTheLimit,
  CLARIFYING_OPTIONS,
  COMPARES,
  type NamedSubject,
  namedSubject,
  OFF_TOPIC,
  type RosterEntry,
  riderName,
  sameWord,
  type ThreadContext,
  type Topic,
  tokens,
  type Understanding,
  understand,
  whichRider,
} from "./understand.js";

export interface ConversationTask {
  question: string;
  /** The case whose thread this is, if any. */
  case_id: string | null;
  /** A vanpool the question names by its name ("the Night Owl vanpool"), found before the agent runs. */
  vanpool_id?: string;
  /** Vanpools the question's words fit equally ("the night van"), as "Name (VP-…)". */
  vanpools_named?: string[];
  /** Asked outside any case: the latest case of the one rider the question names ("was cody ever flagged?"). */
  rider_case_id?: string;
  /** Asked outside any case: everyone a first name fits ("is marcus on a case?" with two Marcuses), as "Name (EMP-…) on VP-…". */
  riders_named?: string[];
  /** Vanpools a comparison names by name, with where in the question each is named. */
  vanpools_compared?: { vanpool_id: string; at: number }[];
  /** Riders of different vanpools the question compares ("compare cody and maribel"), in the order named. */
  riders_compared?: string[];
}

/** The case or vanpool the question names: by id, else by a vanpool's name. */
function subjectOf(task: ConversationTask): NamedSubject {
  const named = namedSubject(task.question);
  if (named.caseId || named.vanpoolId || !task.vanpool_id) return named;
  return { vanpoolId: task.vanpool_id };
}

const TOPIC_OF_TOOL: Record<string, Topic> = {
  check_results: "checks",
  rider_replies: "replies",
  emails_sent: "emails",
  next_steps: "next",
  policy_sections: "policy",
  program_figures: "program",
  rider_history: "history",
  record_changes: "changes",
};

/** The parts of a multi-part question ("why did Cody fail, and has Tamika replied?"), each asked on its own. */
export function questionParts(question: string): string[] {
  const parts = question
    .split(
      /\?\s+|;\s*|\s+[-+&]\s+(?=\w)|(?:^|\s+)\(?\d[.)]\s+|,\s*(?:and\s+)?then\s+|,?\s+\b(?:and|also|plus)\b\s*(?=(?:also\s+)?(?:why|what|when|how|who|whos|is|are|did|does|has|have|can|will|where|which|by)\b)|,\s*also\b|,\s+(?=(?:so\s+)?(?:did|has|have|when|why|who|where|which)\b)|\.\s+(?=[A-Z])/i,
    )
    .map((p) => p.trim())
    .filter((p) => /[a-z0-9]/i.test(p));
  return parts.length ? parts : [question];
}

/** Each part understood, a part's riders carried into the next ("…and when does she have to answer?"). */
function understandParts(question: string, roster: RosterEntry[], context: ThreadContext): Understanding {
  const whole = understand(question, roster, context);
  const parts = questionParts(question);
  if (
    parts.length < 2 ||
    whole.action ||
    whole.exact ||
    whole.claim ||
    whole.unflagged ||
    (whole.offRecord && whole.offRecord.kind !== "unknown") ||
    whole.fullReply ||
    whole.kept
  )
    return whole;
  const understood: Understanding[] = [];
  let carried = context;
  for (const part of parts) {
    const u = understand(part, roster, carried);
    if (u.clarify) continue;
    understood.push(u);
    carried = {
      // "the shift rule, and how does Tamika do against it?": a rider is measured against the rule, not quoted it.
      topics: u.topics.filter((t) => t !== "policy"),
      riderIds: u.riderIds.length ? u.riderIds : carried.riderIds,
      check: u.check ?? carried.check,
    };
  }
  // "we timed out right? what state is it in": the one part understood answers when the whole is not.
  if (understood.length === 1 && whole.clarify) return understood[0]!;
  if (understood.length < 2) return whole;
  return {
    topics: [...new Set(understood.flatMap((u) => u.topics))],
    riderIds: [...new Set(understood.flatMap((u) => u.riderIds))],
    check: understood.every((u) => u.check === understood[0]!.check) ? understood[0]!.check : undefined,
    ...(whole.otherNames ? { otherNames: whole.otherNames } : {}),
  };
}

/** Riders or cases asked about across the program, not in one case ("who's flagged across all the open cases?"). */
const ACROSS_CASES =
  /\b(who|who'?s|whos|which riders?|anyone|list|how many (people|riders|employees|ppl|folks))\b.*\b(flagged|on a case)\b.*\b(across|all (the )?(open )?cases|every (open )?case|open cases|program)\b|\b(list|show|which|what)\b (me )?(all |every |the )?(open |pending |active )?cases\b(?! (is|was|has|does|did) )|\bevery (open )?case\b/;

/** How many vanpools a clarifying question lists before asking for an id. */
const VANPOOL_CHOICES_SHOWN = 6;

/** Cases waiting for a person ("which cases need me?"), not the program's count of them ("how many…"). */
const WAITING_CASES =
  /\b(which|what|list|show)\b.*\bcases?\b.*\b(need|needs|wait|waits|waiting)\b.*\b(me|us|a person|someone|an approver|a human|review|a decision)\b/;

/** "Who is flagged?" asked where no case is the subject: the riders the open cases flag. */
const WHO_IS_FLAGGED = /^\s*(who|which riders?)\b.*\bflagged\b/;

/** Which table of the open cases a question across them wants. */
const openCasesView = (question: string): OpenCasesView =>
  WAITING_CASES.test(question) ? "waiting" : /\b(who|riders?|anyone)\b/.test(question) ? "riders" : "cases";

/** A person asked about with no topic word of ours ("what's going on with bartholomew"). */
const ASKS_OF_A_PERSON =
  /\b(going on|up) with\b|\bstatus (of|on|for)\b|\b(flagged|cases?|repl(y|ied|ies)|audit(ed)?|checks?|emails?)\b|^\W*(what about|how about|and|tell me about|anything on) \w+\W*$/;

export const WHO_DO_YOU_MEAN =
  "Who do you mean? Name the rider (first and last name), or ask in their case's thread: I'll say where their case stands. I never cancel, approve or send anything myself; approvers decide on the case's cards.";

export const NO_CASE_QUESTION =
  "Which case do you mean? Name it (CASE-1A2B3C4D) or its vanpool (VP-101), or ask in the case alert's thread.";

function threadContext(turn: Turn): ThreadContext & { caseId?: string; answer?: string } {
  for (const earlier of [...(turn.history ?? [])].reverse()) {
    const calls = earlier.calls.filter((c) => c.name !== "case_overview" && c.name !== "vanpool_overview");
    const overview = earlier.calls.find((c) => c.name === "case_overview");
    if (calls.length === 0 && !overview) continue;
    const topics = [...new Set(calls.map((c) => TOPIC_OF_TOOL[c.name]).filter((t): t is Topic => Boolean(t)))];
    // "draft a follow-up to Diego" names its one rider as employee_id: "cancel him" next means him.
    const withRiders = calls.find(
      (c) =>
        (Array.isArray(c.args.employee_ids) && c.args.employee_ids.length > 0) ||
        typeof c.args.employee_id === "string",
    );
    const withCheck = calls.find((c) => typeof c.args.check === "string");
    return {
      topics: topics.length ? topics : ["status"],
      riderIds:
        (withRiders?.args.employee_ids as string[] | undefined) ??
        (withRiders?.args.employee_id ? [withRiders.args.employee_id as string] : []),
      check: withCheck?.args.check as ThreadContext["check"],
      caseId: (calls.find((c) => c.args.case_id)?.args.case_id ?? overview?.args.case_id) as string | undefined,
      ...(earlier.answer ? { answer: earlier.answer } : {}),
    };
  }
  return { topics: [], riderIds: [] };
}

const asksWhyFailed = (question: string) =>
  tokens(question).some((t) =>
    [
      "fail",
      "failed",
      "failing",
      "failure",
      "flagged",
      "flag",
      "wrong",
      "problem",
      "why",
      "reason",
      "explain",
      "issue",
    ].some((w) => sameWord(t, w)),
  );

/**
 * Vanpools compared ("VP-102 vs VP-109?", "the Night Owl van vs VP-113", "how does this case compare to VP-102?"):
 * by id, by name, or this thread's case; a name several vanpools fit is asked about first.
 */
function comparedVanpools(task: ConversationTask, threadCase?: string): ToolCallPlan[] | { final: string } | undefined {
  if (!COMPARES.test(task.question.toLowerCase())) return undefined;
  // In the order the question names them, by id or by name.
  const byId = [...task.question.matchAll(/\b(?:vp|vanpool|van)[\s#:-]*(\d{3})\b/gi)].map((m) => ({
    vanpool_id: `VP-${m[1]}`,
    at: m.index,
  }));
  const inOrder = [...byId, ...(task.vanpools_compared ?? [])].sort((a, b) => a.at - b.at).map((v) => v.vanpool_id);
  const vanpool_ids = [...new Set([...inOrder, ...(task.vanpool_id ? [task.vanpool_id] : [])])];
  const choices = task.vanpools_named ?? [];
  const own = vanpool_ids.length === 1 ? (task.case_id ?? threadCase) : undefined;
  if (vanpool_ids.length === 1 && !own && choices.length > 1)
    return {
      final: `Which vanpool do you mean to compare with ${vanpool_ids.join(" and ")}: ${choices.slice(0, VANPOOL_CHOICES_SHOWN).join(", ")}${choices.length > VANPOOL_CHOICES_SHOWN ? ", or another" : ""}? Name it by its id (VP-101) or its full name.`,
    };
  if (vanpool_ids.length < 2 && !own) return undefined;
  return [{ name: "compare_vanpools", args: { vanpool_ids, ...(own ? { case_id: own } : {}) } }];
}

const isCaseFacts = (facts: CaseFacts | Facts): facts is CaseFacts => "roster" in facts;

export function conversationRules(turn: Turn): ToolCallPlan[] | { final: string } {
  const task = turn.task as unknown as ConversationTask;
  const question = String(task.question ?? "");
  const context = threadContext(turn);
  const overview =
    latest<CaseFacts | Facts>(turn, "case_overview") ?? latest<CaseFacts | Facts>(turn, "vanpool_overview");

  if (turn.called.length === 0) {
    const compared = comparedVanpools(task, context.caseId);
    if (compared) return compared;
    if ((task.riders_compared?.length ?? 0) >= 2)
      return [{ name: "compare_riders", args: { employee_ids: task.riders_compared } }];
    const named = subjectOf(task);
    const general = understand(question, [], undefined);
    const lower = question.toLowerCase();
    const noSubject = !named.caseId && !named.vanpoolId;
    if (
      noSubject &&
      (ACROSS_CASES.test(lower) ||
        WAITING_CASES.test(lower) ||
        (WHO_IS_FLAGGED.test(lower) && !(task.case_id ?? context.caseId ?? task.rider_case_id)))
    )
      return [{ name: "open_cases", args: { view: openCasesView(lower) } }];
    // "how many does he need?" in a case thread is about its rider, not the program's figures.
    const aboutSomeone = Boolean(task.case_id ?? context.caseId) && /\b(s?he|him|his|her)\b/i.test(question);
    if (!named.caseId && !named.vanpoolId && general.topics[0] === "program" && !aboutSomeone)
      return [{ name: "program_figures", args: {} }];
    if (named.caseId) return [{ name: "case_overview", args: { case_id: named.caseId } }];
    if (named.vanpoolId) return [{ name: "vanpool_overview", args: { vanpool_id: named.vanpoolId } }];
    const caseId = task.case_id ?? context.caseId ?? task.rider_case_id;
    if (caseId) return [{ name: "case_overview", args: { case_id: caseId } }];
    const people = task.riders_named ?? [];
    if (people.length > 1)
      return { final: `Which rider do you mean: ${people.slice(0, -1).join(", ")} or ${people.at(-1)}?` };
    const choices = task.vanpools_named ?? [];
    if (choices.length > 1)
      return {
        final:
          choices.length > VANPOOL_CHOICES_SHOWN
            ? `Which vanpool do you mean? Several fit, among them ${choices.slice(0, VANPOOL_CHOICES_SHOWN).join(", ")}. Name it by its id (VP-101) or its full name.`
            : `Which vanpool do you mean: ${choices.slice(0, -1).join(", ")} or ${choices.at(-1)}?`,
      };
    // "is priya flagged on anything?" with no rider called Priya: said so, not taken for small talk.
    if (
      general.otherNames?.length &&
      !general.topics.includes("policy") &&
      (general.topics.length > 0 || general.action === "cancel" || ASKS_OF_A_PERSON.test(lower))
    )
      return [{ name: "riders_elsewhere", args: { names: general.otherNames, say_unknown: true } }];
    // "remove him" with no case and no one named before: who is meant is asked, nothing listed or done.
    if (general.action === "cancel" || general.action === "follow_up") return { final: WHO_DO_YOU_MEAN };
    if (general.topics.includes("policy")) return [{ name: "policy_sections", args: { question } }];
    // "who's waiting on an approver right now", asked outside any case: where the open cases stand.
    if (general.topics.some((t) => t === "status" || t === "next" || t === "flagged") && !general.clarify)
      return [{ name: "open_cases", args: {} }];
    // "what's 2+2": a question with nothing of the program's in it and no one or nothing pointed at.
    const nothingOfOurs =
      general.clarify === CLARIFYING_OPTIONS &&
      !/\b(it|its|this|that|these|those|they|them|he|she|him|her|his|one)\b/.test(lower) &&
      /\?|^\W*(what|whats|who|when|where|why|how|can|could|will|would|is|are|do|does)\b/.test(lower);
    return { final: general.clarify === OFF_TOPIC || nothingOfOurs ? OFF_TOPIC : NO_CASE_QUESTION };
  }

  if (turn.called.every((n) => n === "check_results" || n === "compare_vanpools" || n === "compare_riders"))
    return { final: compose(turn, ["checks"]) };

  if (!overview || !isCaseFacts(overview)) {
    // A vanpool with no case: its latest audit answers questions about checks.
    const vanpoolId = subjectOf(task).vanpoolId;
    const u = understand(question, []);
    if (
      turn.called.length === 1 &&
      vanpoolId &&
      (u.topics.includes("checks") || u.topics.includes("flagged") || u.check)
    )
      return [{ name: "check_results", args: { vanpool_id: vanpoolId, check: u.check } }];
    return { final: compose(turn, ["vanpool"]) };
  }

  const roster: RosterEntry[] = overview.roster;
  const caseId = overview.case_id;
  const named = subjectOf(task);
  // A new subject starts afresh: riders of another case are not "the other one" here.
  const sameCase = context.caseId === caseId;
  // "has he replied?" after an answer that named one rider ("who failed location?"): that rider.
  const focus = context.riderIds.length ? context.riderIds : ridersNamedIn(context.answer, roster);
  let u = understandParts(question, roster, sameCase ? { ...context, riderIds: focus } : { ...context, riderIds: [] });
  // Someone named who is not on this case: say where they are, and do nothing here.
  const elsewhere = latest<Facts>(turn, "riders_elsewhere");
  if (elsewhere?.text && u.riderIds.length === 0) return { final: elsewhere.text };
  if (!elsewhere && u.otherNames?.length && u.riderIds.length === 0)
    return [
      {
        name: "riders_elsewhere",
        // "remove priya" or "is priya on this case?" here, with no Priya anywhere: said so, and nothing done.
        args: {
          case_id: caseId,
          names: u.otherNames,
          ...(u.action === "cancel" || (u.clarify === OFF_TOPIC && opensWithName(question, u.otherNames))
            ? { say_unknown: true }
            : {}),
        },
      },
    ];
  if ((u.clarify === CLARIFYING_OPTIONS || u.clarify === OFF_TOPIC) && (named.caseId || named.vanpoolId))
    u = { topics: named.vanpoolId && !named.caseId ? ["vanpool", "checks"] : ["status", "checks"], riderIds: [] };
  if (u.clarify) return { final: u.clarify };
  // The first call read the subject; anything after it answered the question.
  const note = noteFor(u, roster);
  if (turn.called.slice(1).some((n) => n !== "riders_elsewhere")) return { final: compose(turn, u.topics, note) };
  const askedAboutVanpool = turn.called[0] === "vanpool_overview";

  const calls: ToolCallPlan[] = [];
  const employee_ids = u.riderIds.length ? u.riderIds : undefined;
  if (u.action === "follow_up") {
    const flagged = roster.filter((r) => r.flagged);
    const to = u.riderIds.length === 1 ? u.riderIds[0] : flagged.length === 1 ? flagged[0]!.employee_id : undefined;
    if (flagged.length === 0) return { final: "No rider is flagged on this case, so there is no one to follow up." };
    if (!to)
      return {
        final: whichRider(
          roster,
          flagged.map((r) => r.employee_id),
          "should the follow-up go to",
        ),
      };
    calls.push({ name: "draft_follow_up", args: { case_id: caseId, employee_id: to } });
  } else if (u.action === "recheck") calls.push({ name: "recheck", args: { case_id: caseId } });
  else if (u.action)
    calls.push({
      name: "approval_card",
      args: { case_id: caseId, wanted: u.action, ...(employee_ids ? { employee_ids } : {}) },
    });
  // "why no emails went out?": the emails, and the checks that explain them.
  const whyNone =
    u.topics.includes("emails") &&
    /\b(why|how come)\b.*\b(no|not|never|nobody|nothing|didn'?t|hasn'?t|haven'?t|wasn'?t|weren'?t)\b/i.test(question);
  const topics = whyNone && !u.topics.includes("checks") ? [...u.topics, "checks" as const] : u.topics;
  for (const topic of u.action ? [] : topics) {
    if (topic === "checks" || topic === "flagged")
      calls.push({
        name: "check_results",
        args: {
          case_id: caseId,
          check: u.check,
          employee_ids,
          only_failing: asksWhyFailed(question) || u.claim || undefined,
          ...(u.exact ? { exact: true } : {}),
          ...(u.claim ? { what_would_change: true } : {}),
          ...(u.compare && u.riderIds.length > 1 ? { side_by_side: true } : {}),
          ...(u.kept ? { kept: true } : {}),
        },
      });
    if (topic === "replies") calls.push({ name: "rider_replies", args: { case_id: caseId, employee_ids } });
    if (topic === "emails")
      calls.push({ name: "emails_sent", args: { case_id: caseId, employee_ids, ...(u.quote ? { quote: true } : {}) } });
    if (topic === "next") calls.push({ name: "next_steps", args: { case_id: caseId, employee_ids } });
    // "has this van had cases before?", "has tri valley been flagged before?": the vanpool's earlier cases.
    if (topic === "history" && (u.vanpoolHistory || (askedAboutVanpool && u.riderIds.length === 0)))
      calls.push({
        name: "vanpool_history",
        args: { vanpool_id: overview.vanpool_id, ...(task.case_id ? { case_id: task.case_id } : {}) },
      });
    else if (topic === "history") {
      // "Diego's history before I decide" in his case's thread: what this case holds on him, then his earlier cases.
      if ((task.case_id ?? task.rider_case_id) === caseId && employee_ids)
        calls.push(
          { name: "rider_replies", args: { case_id: caseId, employee_ids } },
          { name: "emails_sent", args: { case_id: caseId, employee_ids } },
        );
      calls.push({
        name: "rider_history",
        args: {
          // Asked about a rider, not a case: every case of theirs is history.
          ...(caseId === task.rider_case_id && !task.case_id ? {} : { case_id: caseId }),
          employee_ids: employee_ids ?? roster.filter((r) => r.flagged).map((r) => r.employee_id),
        },
      });
    }
    if (topic === "changes")
      calls.push({
        name: "record_changes",
        args: { employee_ids: employee_ids ?? roster.filter((r) => r.flagged).map((r) => r.employee_id) },
      });
    // "and the policy on that?" after a question about a shift: the shift rule.
    const ruleOf = u.check ?? (sameCase ? context.check : undefined);
    if (topic === "policy")
      calls.push({
        name: "policy_sections",
        args: { question: ruleOf ? `${question} (${ruleOf === "location" ? "distance miles" : "shift"})` : question },
      });
    if (topic === "program") calls.push({ name: "program_figures", args: {} });
    if (topic === "vanpool" && !askedAboutVanpool)
      calls.push({ name: "vanpool_overview", args: { vanpool_id: overview.vanpool_id } });
    if (topic === "status" && askedAboutVanpool) calls.push({ name: "case_overview", args: { case_id: caseId } });
    if (topic === "why_not_cancel")
      calls.push(
        { name: "next_steps", args: { case_id: caseId, employee_ids } },
        { name: "policy_sections", args: { question, headings: ["What happens if a check still fails"] } },
      );
  }
  const unique = calls.filter((c, i) => calls.findIndex((d) => JSON.stringify(d) === JSON.stringify(c)) === i);
  if (unique.length === 0) return { final: compose(turn, u.topics, note) };
  return unique;
}

/** What the answer says before its facts: what it cannot give, or how the facts answer. */
function noteFor(u: Understanding, roster: RosterEntry[]): string | undefined {
  const off = u.offRecord;
  if (off?.kind === "contact") {
    const asked = roster.filter((r) => (u.riderIds.length ? u.riderIds.includes(r.employee_id) : r.flagged));
    const towns = asked.filter((r) => r.traits?.[0]).map((r) => `${riderName(r)} lives in ${r.traits![0]}`);
    return `I don't share riders' email addresses, phone numbers, street addresses or full ZIP codes in Slack, with anyone: answers show a home town, its ZIP3 (953xx) and a distance band. ${EXACT_DISTANCE_WHERE} To reach a rider, an approver can ask me to _draft a follow-up_; it goes out once approved. What I can tell you${towns.length ? `: ${towns.join("; ")}.` : ":"}`;
  }
  if (u.fullReply)
    return "Replies are quoted here with street addresses, phone numbers and emails taken out, for everyone; approvers can read a reply in full with *Show full reply* on its approval card in the case thread.";
  if (off?.kind === "untracked")
    return "Whether an email was opened or read is not tracked: Pool Patrol records when each email went out, and every reply.";
  if (off?.kind === "unknown") {
    const riders = roster.filter((r) => u.riderIds.includes(r.employee_id)).map((r) => r.first_name);
    return `I can't answer that from the record: it holds the checks, the riders' replies, the emails and the deadlines. What it holds${riders.length ? ` on ${riders.join(" and ")}` : ""}:`;
  }
  if (u.unflagged) return "Only riders who fail a check are flagged; the others passed:";
  return undefined;
}

/** The answer: the facts of every tool this turn called, the overview first when it is the subject. */
function compose(turn: Turn, topics: Topic[], note?: string): string {
  const policy = turn.results.find((r) => r.name === "policy_sections");
  const atTheLimit =
    policy && atTheLimitAsked(String(turn.task.question ?? ""), (policy.content as Facts).text)
      ? AT_THE_LIMIT_PASSES
      : undefined;
  const overviews = turn.results.filter((r) => r.name === "case_overview" || r.name === "vanpool_overview");
  const asked = turn.results.filter((r) => !overviews.includes(r));
  const withOverview = asked.length === 0 || topics.includes("status") || topics.includes("vanpool");
  const facts = (withOverview ? [...overviews, ...asked] : asked).map((r) => (r.content as Facts).text);
  return [atTheLimit, note, ...facts].filter(Boolean).join("\n\n");
}

/** "is priya on this case?": a name where the question starts on a person ("is it going to rain" names no one). */
const opensWithName = (question: string, names: string[]) =>
  names.some((n) =>
    new RegExp(`^\\W*(is|was|has|did|does|what about|how about|and) ${n}\\b`).test(question.toLowerCase()),
  );

const AT_THE_LIMIT_PASSES = "Yes, it passes: a figure exactly at the limit counts as within it.";

/** "exactly 50 miles", or "is 50 miles within the limit?" where the policy quoted sets the limit at 50 miles. */
function atTheLimitAsked(question: string, policyText: string): boolean {
  if (asksAtTheLimit(question)) return true;
  const asked = /\b(\d+(?:\.\d+)?) ?(?:mi|miles?)\b/i.exec(question)?.[1];
  const limit = /\bwithin (\d+(?:\.\d+)?) miles\b/i.exec(policyText)?.[1];
  const passOrFail = /\b(within|pass(es)?|ok|okay|fine|allowed|eligible|fail(s)?|over the limit)\b/i.test(question);
  return passOrFail && asked !== undefined && limit !== undefined && Number(asked) === Number(limit);
}

/** The one roster rider an earlier answer named by full name, if it named exactly one. */
function ridersNamedIn(answer: string | undefined, roster: RosterEntry[]): string[] {
  if (!answer) return [];
  const named = roster.filter((r) => answer.includes(`${r.first_name} ${r.last_name}`));
  return named.length === 1 ? [named[0]!.employee_id] : [];
}
