// The Case Manager's tools. Each one asks the lifecycle state machine before it
// changes anything, and cancel_membership refuses to act without an approved
// cancellation request for the case.
import { tool } from "@langchain/core/tools";
import { z } from "zod";
import { findDecidedUnapplied, listRiderDecisions } from "../../data/approval-repository.js";
import { changeCase, findOpenCase, getCase, openCase } from "../../data/case-repository.js";
import { caseReason, LifecycleError } from "../../domain/case-lifecycle.js";
import { CHECK_KINDS, type CheckKind } from "../../domain/specialist-result.js";
import type { AgentDeps } from "../deps.js";
import { agentRunIdOf, logged } from "../logged-tool.js";
import { type OutreachPurpose, runOutreach } from "../outreach/run-outreach.js";
import { runSpecialist } from "../specialists/run-specialist.js";
import { carryOutCancellation } from "./cancellation.js";
import { findKeptRiders } from "./kept-riders.js";

const checkEnum = z.enum(CHECK_KINDS);
const statusEnum = z.enum(["open", "verification", "pending_reply", "re_audit", "hitl_review", "pre_cancel"]);
const ACTOR = "agent:case_manager";
/** A failure of these ends the Case Manager's run (see ToolFailedError). */
const STATE_CHANGING = { changesState: true };
const NOTHING = { verdict: "pass" as const, flagged: [] };
const SPECIALIST_ROLES: Record<CheckKind, string> = {
  location: "Location Specialist (home-to-pickup distance)",
  shift: "Shift Specialist (shift against the van's schedule)",
  employment: "Employment Specialist (whether each rider still works here, from the HR record)",
};

type CaseOutreach = Exclude<OutreachPurpose, "draft_follow_up">;

export interface CaseManagerHooks {
  /** Runs before the Outreach Agent writes to anyone: what the turn found so far is recorded first. */
  beforeOutreach?(purpose: CaseOutreach): Promise<void>;
}

export function createCaseManagerTools(deps: AgentDeps, hooks: CaseManagerHooks = {}) {
  const specialist = (check: CheckKind) =>
    tool(
      logged(
        deps.prisma,
        `run_${check}_specialist`,
        async ({ vanpool_id, case_id }: { vanpool_id: string; case_id?: string | null }, config) => {
          const outcome = await runSpecialist(
            check,
            {
              vanpoolId: vanpool_id,
              caseId: case_id ?? null,
              agentRunId: agentRunIdOf(config),
              reAuditKey: String(config.configurable?.re_audit_key ?? agentRunIdOf(config)),
            },
            deps,
          );
          const { result } = outcome;
          // The failing riders a person kept (docs/exceptions.md) are named; the result stays as found.
          const kept =
            result.verdict === "fail"
              ? ((
                  await findKeptRiders(
                    deps.prisma,
                    [{ vanpool_id, location: NOTHING, shift: NOTHING, employment: NOTHING, [check]: result }],
                    deps.now(),
                  )
                ).get(vanpool_id) ?? [])
              : [];
          return {
            check,
            verdict: result.verdict,
            confidence: result.confidence,
            reasoning: result.reasoning,
            flagged: result.flagged,
            model: result.model,
            run_id: outcome.run_id,
            re_audit_count: outcome.re_audit_count,
            kept: kept.map((k) => ({
              employee_id: k.employee_id,
              exception_id: k.exception.exception_id,
              reason: k.exception.reason,
              expires_at: k.exception.expires_at.toISOString(),
            })),
          };
        },
      ),
      {
        name: `run_${check}_specialist`,
        description: `Run the ${SPECIALIST_ROLES[check]} on a vanpool. Pass case_id when this re-checks an open case: it then counts as a re-audit. "kept" lists flagged riders a person kept by an exception: they are not flagged on a case.`,
        schema: z.object({ vanpool_id: z.string(), case_id: z.string().nullable().optional() }),
      },
    );

  const upsertCase = tool(
    logged(
      deps.prisma,
      "upsert_case",
      async (args: {
        vanpool_id: string;
        case_id?: string | null;
        status: z.infer<typeof statusEnum>;
        failed_checks?: CheckKind[];
        flagged?: string[];
        details?: string;
      }) => {
        const now = deps.now();
        if (!args.case_id) {
          const open = await findOpenCase(deps.prisma, args.vanpool_id);
          if (open)
            throw new LifecycleError(`${args.vanpool_id} already has open case ${open.case_id}; update it instead.`);
          const failed = args.failed_checks ?? [];
          return openCase(deps.prisma, {
            vanpool_id: args.vanpool_id,
            status: args.status,
            reason: caseReason(failed),
            failed_checks: failed,
            flagged: args.flagged ?? [],
            details: args.details ?? "",
            actor: ACTOR,
            now,
          });
        }
        return changeCase(deps.prisma, args.case_id, {
          status: args.status,
          failed_checks: args.failed_checks,
          flagged: args.flagged,
          details: args.details,
          why: args.details ?? `status ${args.status}`,
          actor: ACTOR,
          now,
        });
      },
      STATE_CHANGING,
    ),
    {
      name: "upsert_case",
      description:
        "Open a case for a vanpool (no case_id) or update an open case's status, failed checks and flagged riders. Refuses transitions the case lifecycle forbids.",
      schema: z.object({
        vanpool_id: z.string(),
        case_id: z.string().nullable().optional(),
        status: statusEnum,
        failed_checks: z.array(checkEnum).optional(),
        flagged: z.array(z.string()).optional(),
        details: z.string().optional(),
      }),
    },
  );

  const runOutreachTool = tool(
    logged(
      deps.prisma,
      "run_outreach",
      async (args: { case_id: string; purpose: CaseOutreach; message_id?: string | null }) => {
        await hooks.beforeOutreach?.(args.purpose);
        return runOutreach(deps, {
          case_id: args.case_id,
          purpose: args.purpose,
          message_id: args.message_id ?? undefined,
        });
      },
      STATE_CHANGING,
    ),
    {
      name: "run_outreach",
      description:
        "Run the Outreach Agent on a case: the initial email to flagged riders, handling a rider's reply (classification, answer or a draft held for review), or a confirmation / follow-up after a re-audit. Returns bucket, hitl_required and sent.",
      schema: z.object({
        case_id: z.string(),
        purpose: z.enum(["initial", "reply", "confirmation", "follow_up"]),
        message_id: z.string().nullable().optional(),
      }),
    },
  );

  const closeCase = tool(
    logged(
      deps.prisma,
      "close_case",
      async ({ case_id, reason }: { case_id: string; reason: string }) =>
        changeCase(deps.prisma, case_id, {
          status: "resolved",
          outcome: "resolved",
          why: reason,
          meta: { resolution: reason },
          actor: ACTOR,
          now: deps.now(),
        }),
      STATE_CHANGING,
    ),
    {
      name: "close_case",
      description:
        "Close a case as resolved (checks pass, or a person rejected a cancellation). Cancelling is cancel_membership's job.",
      schema: z.object({ case_id: z.string(), reason: z.string() }),
    },
  );

  const cancelMembership = tool(
    logged(
      deps.prisma,
      "cancel_membership",
      async ({ case_id, employee_ids: named, reason }: { case_id: string; employee_ids: string[]; reason: string }) => {
        const record = await getCase(deps.prisma, case_id);
        const approval = await findDecidedUnapplied(deps.prisma, case_id, "cancellation");
        if (approval?.status !== "approved")
          throw new LifecycleError(
            `No approved cancellation request for ${case_id}: memberships are never cancelled without a person's approval.`,
          );
        // Approvers decide per rider and each removal is re-checked first: only those still to remove go.
        const settled = await listRiderDecisions(deps.prisma, approval.approval_id);
        const employee_ids = settled.length
          ? named.filter((id) => settled.some((d) => d.employee_id === id && d.outcome === "removed"))
          : named;
        const unflagged = employee_ids.filter((id) => !record.flagged.includes(id));
        if (unflagged.length > 0)
          throw new LifecycleError(
            `${unflagged.join(", ")} ${unflagged.length === 1 ? "is" : "are"} not flagged on ${case_id}.`,
          );
        const done = await carryOutCancellation(deps, { approval, employeeIds: employee_ids, reason, actor: ACTOR });
        return {
          case_id,
          status: done.record.status,
          removed: employee_ids,
          newly_removed: done.newlyRemoved.length,
          removal_notices: done.notices,
        };
      },
      STATE_CHANGING,
    ),
    {
      name: "cancel_membership",
      description:
        "Remove flagged riders from the vanpool and cancel the case. Always paused for a person's approval first.",
      schema: z.object({ case_id: z.string(), employee_ids: z.array(z.string()).min(1), reason: z.string() }),
    },
  );

  return [...CHECK_KINDS.map(specialist), upsertCase, runOutreachTool, closeCase, cancelMembership];
}
