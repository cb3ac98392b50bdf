// The conversation's tools: read-only views of stored facts, plus the two guarded
// ways an action asked for in a thread can go: a re-check (approvers only, checked
// from who asked, never from the model's arguments) and a pointer to the approval
// card (nothing is cancelled, approved or sent from a conversation).

import type { RunnableConfig } from "@langchain/core/runnables";
import { tool } from "@langchain/core/tools";
import { z } from "zod";
import { CHECK_KINDS } from "../../domain/specialist-result.js";
import {
  approvalPointer,
  type CaseFacts,
  caseOverview,
  checkResults,
  draftedFollowUp,
  emailsSent,
  type Facts,
  type FactsDeps,
  nextSteps,
  policySections,
  programFacts,
  recheckedCase,
  riderHistory,
  riderReplies,
  ridersElsewhere,
  vanpoolOverview,
} from "./facts.js";
import { OPEN_CASES_VIEWS, openCases } from "./open-cases.js";
import { recordChanges } from "./record-changes.js";
import { compareRiders } from "./rider-comparison.js";
import { compareVanpools } from "./vanpool-comparison.js";
import { vanpoolHistory } from "./vanpool-history.js";

export interface ConversationActions {
  /** Audits the case's vanpool again and says what came of it. */
  recheck(caseId: string): Promise<Facts>;
  /** Drafts a follow-up email to one flagged rider and holds it as an approval card (or finds the one waiting). */
  draftFollowUp(caseId: string, employeeId: string): Promise<{ approval_id: string; existing: boolean }>;
}

export interface Asker {
  is_approver: boolean;
}

export function askerOf(config: RunnableConfig | undefined): Asker {
  return { is_approver: config?.configurable?.asker_is_approver === true };
}

/** Where a question's run finds the case overviews read before its agent started, by case id. */
export const READ_AHEAD = "case_overviews_read_ahead";
export type ReadAhead = Record<string, Promise<CaseFacts | Facts>>;

/** A case overview read ahead, taken once: a later call in the same answer (after a re-check) reads afresh. */
function takeReadAhead(config: RunnableConfig | undefined, caseId: string) {
  const ahead = config?.configurable?.[READ_AHEAD] as ReadAhead | undefined;
  const overview = ahead?.[caseId];
  if (ahead) delete ahead[caseId];
  return overview;
}

const caseId = z.string().describe("CASE-… id");
const riders = z.array(z.string()).optional().describe("EMP-… ids to narrow to; omit for every flagged rider");

export function createConversationTools(deps: FactsDeps, actions: ConversationActions) {
  return [
    tool(async ({ case_id }, config) => takeReadAhead(config, case_id) ?? caseOverview(deps, case_id), {
      name: "case_overview",
      description:
        "A case in plain words: status, why it opened, flagged riders, re-audits and its timeline. Also returns its roster (riders' names and ids).",
      schema: z.object({ case_id: caseId }),
    }),
    tool(
      async ({ case_id, vanpool_id, ...options }) =>
        checkResults(deps, case_id ? { case_id } : { vanpool_id: vanpool_id ?? "" }, options),
      {
        name: "check_results",
        description:
          "Each check's stored result for a case (or, for a vanpool with no case, its latest audit): verdict, confidence, the van's reference, and per rider the distance band or shift and compatible days. A closed case shows the evidence it was decided on.",
        schema: z.object({
          case_id: caseId.optional(),
          vanpool_id: z.string().optional().describe("VP-… id, only for a vanpool that has no case"),
          check: z.enum(CHECK_KINDS).optional(),
          employee_ids: riders,
          only_failing: z.boolean().optional().describe("true for 'why did it fail': only the failing checks"),
          exact: z.boolean().optional().describe("true when the exact distance is asked: adds where approvers see it"),
          what_would_change: z
            .boolean()
            .optional()
            .describe(
              "true when someone says a rider's home or shift changed: what the record says and what would pass",
            ),
          side_by_side: z
            .boolean()
            .optional()
            .describe("true when two or more riders are compared: their facts as a table, a column each"),
          kept: z.boolean().optional().describe("true when exceptions are asked about: says so when no rider is kept"),
        }),
      },
    ),
    tool(async ({ case_id, employee_ids }) => riderReplies(deps, case_id, employee_ids), {
      name: "rider_replies",
      description: "The riders' email replies on the case, in full (street addresses, phones and emails redacted).",
      schema: z.object({ case_id: caseId, employee_ids: riders }),
    }),
    tool(async ({ case_id, employee_ids, quote }) => emailsSent(deps, case_id, employee_ids, { quote }), {
      name: "emails_sent",
      description:
        "The emails Pool Patrol sent on the case: when, to whom, subject; with quote, the newest one's text. With none sent, why.",
      schema: z.object({
        case_id: caseId,
        employee_ids: riders,
        quote: z.boolean().optional().describe("true when what an email said is asked: quotes the newest one"),
      }),
    }),
    tool(async ({ case_id, employee_ids }) => nextSteps(deps, case_id, employee_ids), {
      name: "next_steps",
      description: "The case's deadline (reply window, time-out, with its date) and what happens next.",
      schema: z.object({ case_id: caseId, employee_ids: riders }),
    }),
    tool(async ({ case_id, employee_ids }) => riderHistory(deps, case_id ?? null, employee_ids), {
      name: "rider_history",
      description:
        "A rider's earlier cases ('flagged before?'): when and why each opened, how it ended, exceptions granted, their last reply and escalations.",
      schema: z.object({
        case_id: caseId.optional().describe("the current case, left out of the history"),
        employee_ids: z.array(z.string()).min(1).describe("EMP-… ids"),
      }),
    }),
    tool(async ({ case_id, names, say_unknown }) => ridersElsewhere(deps, case_id ?? null, names, say_unknown), {
      name: "riders_elsewhere",
      description:
        "People the question names by first or last name who are not on this case: the vanpool they ride and the case they are on. Empty text when everyone named is on the case.",
      schema: z.object({
        case_id: caseId.optional(),
        names: z.array(z.string()).min(1),
        say_unknown: z
          .boolean()
          .optional()
          .describe("true when every word of names is meant as a person's name: say which names fit no rider"),
      }),
    }),
    tool(async ({ vanpool_id, case_id }) => vanpoolHistory(deps, vanpool_id, case_id), {
      name: "vanpool_history",
      description:
        "A vanpool's earlier cases ('has this van had cases before?'): when each opened, what failed and for whom, how it ended and who was kept.",
      schema: z.object({
        vanpool_id: z.string().describe("VP-… id"),
        case_id: caseId.optional().describe("the case asked about; earlier means before it"),
      }),
    }),
    tool(async ({ employee_ids }) => compareRiders(deps, employee_ids), {
      name: "compare_riders",
      description:
        "Riders of different vanpools or cases side by side as a table, a column each: vanpool, latest case and where it stands, failing check, distance band or shift, opened, deadline.",
      schema: z.object({ employee_ids: z.array(z.string()).min(2).describe("EMP-… ids, in the order named") }),
    }),
    tool(async ({ employee_ids }) => recordChanges(deps, employee_ids), {
      name: "record_changes",
      description:
        "When riders' records changed ('when did Diego's address change?'): each change an import made to their home or shift, with its date, file and who imported it. Street addresses are never shown.",
      schema: z.object({ employee_ids: z.array(z.string()).min(1).describe("EMP-… ids") }),
    }),
    tool(async ({ question, headings }) => policySections(question, headings), {
      name: "policy_sections",
      description: "Program policy sections that answer a question, quoted with their headings for citation.",
      schema: z.object({ question: z.string(), headings: z.array(z.string()).optional() }),
    }),
    tool(async ({ vanpool_id }) => vanpoolOverview(deps, vanpool_id), {
      name: "vanpool_overview",
      description: "A vanpool by id (VP-…): name, site, riders, latest checks and its cases.",
      schema: z.object({ vanpool_id: z.string() }),
    }),
    tool(async ({ view }) => openCases(deps, view), {
      name: "open_cases",
      description:
        "The open cases touched last as a table: by case (vanpool, where it stands, flagged riders, deadline), by flagged rider (vanpool, failing check, distance band or shift, since when), or only the cases waiting for a person.",
      schema: z.object({
        view: z
          .enum(OPEN_CASES_VIEWS)
          .optional()
          .describe("cases (the default), riders for 'who is flagged?', waiting for 'which cases need me?'"),
      }),
    }),
    tool(async ({ vanpool_ids, case_id }) => compareVanpools(deps, vanpool_ids, case_id), {
      name: "compare_vanpools",
      description:
        "Two or more vanpools side by side as a table, a column each: work site, pickup town, riders, open case and where it stands, failing checks, riders flagged, since when, deadline. Unknown ids are named.",
      schema: z.object({
        vanpool_ids: z.array(z.string()).min(1).describe("VP-… ids"),
        case_id: caseId.optional().describe("this thread's case, when its vanpool is compared with others"),
      }),
    }),
    tool(async () => programFacts(deps), {
      name: "program_figures",
      description: "Program-wide figures: open cases by status, cases waiting for a person, pending approvals, totals.",
      schema: z.object({}),
    }),
    tool(
      async ({ case_id }, config) => {
        if (!askerOf(config).is_approver)
          return {
            text: "Only approvers can ask for a re-check. Nothing was changed.",
            sources: ["approver list"],
          } satisfies Facts;
        return recheckedCase(deps, case_id, actions.recheck);
      },
      {
        name: "recheck",
        description:
          "Audit the case's vanpool again now (every check). Only for approvers, only when they explicitly ask for a re-check.",
        schema: z.object({ case_id: caseId }),
      },
    ),
    tool(
      async ({ case_id, employee_id }, config) => {
        if (!askerOf(config).is_approver)
          return {
            text: "Only approvers can ask for a follow-up email. Nothing was drafted.",
            sources: ["approver list"],
          } satisfies Facts;
        return draftedFollowUp(deps, case_id, employee_id, (id) => actions.draftFollowUp(case_id, id));
      },
      {
        name: "draft_follow_up",
        description:
          "Draft a follow-up email to one flagged rider, held as an approval card in the case thread for an approver to approve, edit or reject. Never sends. Only when someone asks for a follow-up.",
        schema: z.object({ case_id: caseId, employee_id: z.string().describe("the flagged rider's EMP-… id") }),
      },
    ),
    tool(async ({ case_id, wanted, employee_ids }) => approvalPointer(deps, case_id, wanted, employee_ids), {
      name: "approval_card",
      description:
        "When someone asks to cancel or approve: where the approval card for it is, or what would open one. Never acts.",
      schema: z.object({
        case_id: caseId,
        wanted: z.enum(["cancel", "approve"]),
        employee_ids: riders.describe("the riders the request names, if any"),
      }),
    }),
  ];
}
