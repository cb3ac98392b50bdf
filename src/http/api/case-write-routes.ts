// The writes a person may make on a case, and no more (docs/case-lifecycle.md):
// POST /api/cases audits a vanpool, and only the audit opens a case (never one without evidence);
// PATCH /api/cases/{id} closes a case waiting for a person as resolved, with a reason, or re-audits
// it. A cancellation or an escalation reply is decided on its approval card in Slack: asked for
// here, the API says so and changes nothing. Each write is recorded under the token's name.
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { CaseManagerResult } from "../../cases/case-manager-run.js";
import { createPersonActions } from "../../cases/person-actions.js";
import { recordEvent } from "../../data/audit-log.js";
import { type CaseRecord, findCase, findOpenCase, getCase } from "../../data/case-repository.js";
import { isClosed, STATUS_LABEL } from "../../domain/case-lifecycle.js";
import { AppError } from "../../errors.js";
import { caseJobs } from "../../queue/queues.js";
import { actorOf } from "./auth.js";
import type { ApiDeps, ApiEnv } from "./context.js";
import { presentCase } from "./present.js";
import { AUTH_PROBLEMS, problemContent } from "./problem.js";
import { CaseSchema, IdParamSchema, jsonContent as json, TOKEN_SECURITY as security } from "./schemas.js";

const AuditOutcomeSchema = z
  .object({
    vanpool_id: z.string(),
    case: CaseSchema.nullable().openapi({ description: "the case the audit opened or advanced; null when it passes" }),
    summary: z.string().openapi({ example: "VP-111 fails the location check: a case is open, riders are emailed." }),
  })
  .openapi("AuditOutcome");

const WRITE_PROBLEMS = {
  400: problemContent("The body does not match the schema (errors names the field)"),
  ...AUTH_PROBLEMS,
  404: problemContent("No such vanpool or case"),
  409: problemContent("Not allowed in the case's current status, or decided in Slack only; nothing changed"),
  413: problemContent("The body is over 10 MB"),
};

const open = createRoute({
  method: "post",
  path: "/api/cases",
  tags: ["cases"],
  summary: "Open an investigation: audit the vanpool; a failing check opens (or advances) its case",
  security,
  request: {
    body: {
      required: true,
      content: { "application/json": { schema: z.object({ vanpool_id: z.string().min(1) }).openapi("AuditRequest") } },
    },
  },
  responses: {
    200: json(AuditOutcomeSchema, "Audited: the vanpool passes (no case), or its open case was advanced"),
    201: json(AuditOutcomeSchema, "Audited: a new case was opened on the failing checks"),
    ...WRITE_PROBLEMS,
  },
});

const CaseChangeSchema = z
  .discriminatedUnion("action", [
    z.object({
      action: z.literal("close_resolved"),
      reason: z.string().trim().min(3).max(2000).openapi({ example: "moved closer; HR confirmed the new address" }),
    }),
    z.object({ action: z.literal("re_audit") }),
    z.object({
      action: z.enum(["cancel", "approve_reply", "send_reply"]),
    }),
  ])
  .openapi("CaseChange", {
    description:
      "close_resolved (a case waiting for a person, with a reason) or re_audit. cancel, approve_reply and send_reply are decided on the approval card in Slack: the API answers 409 and changes nothing.",
  });

const change = createRoute({
  method: "patch",
  path: "/api/cases/{id}",
  tags: ["cases"],
  summary: "Close a case as resolved (with a reason) or re-audit it",
  security,
  request: {
    params: IdParamSchema,
    body: { required: true, content: { "application/json": { schema: CaseChangeSchema } } },
  },
  responses: {
    200: json(
      z.object({ case: CaseSchema, audit: AuditOutcomeSchema.optional() }).openapi("CaseChangeOutcome"),
      "Done: the case as it is now (and the audit's outcome for re_audit)",
    ),
    ...WRITE_PROBLEMS,
  },
});

export function registerCaseWriteRoutes(app: OpenAPIHono<ApiEnv>, deps: ApiDeps): void {
  const { prisma } = deps.agent;
  const person = createPersonActions(deps.agent);
  const notes = deps.agent.jobs ? caseJobs(deps.agent.jobs) : undefined;

  /** Audits the vanpool and records who asked, on the case it left open (or the vanpool). */
  async function audit(vanpoolId: string, actor: string) {
    const result: CaseManagerResult = await deps.workflow.auditVanpool(vanpoolId);
    const record = result.case_id ? await findCase(prisma, result.case_id) : undefined;
    await recordEvent(prisma, {
      actor,
      action: "audit.requested",
      subjectType: record ? "case" : "vanpool",
      subjectId: record?.case_id ?? vanpoolId,
      details: { vanpool_id: vanpoolId, via: "api", status: record?.status ?? null },
      at: deps.agent.now(),
    });
    return {
      vanpool_id: vanpoolId,
      case: record && !isClosed(record.status) ? presentCase(record) : null,
      summary: summaryOf(vanpoolId, result, record),
      record,
    };
  }

  app.openapi(open, async (c) => {
    const { vanpool_id } = c.req.valid("json");
    const before = await openCaseId(deps, vanpool_id);
    const { record: _, ...outcome } = await audit(vanpool_id, actorOf(c.get("caller")));
    const opened = outcome.case !== null && outcome.case.case_id !== before;
    return opened ? c.json(outcome, 201) : c.json(outcome, 200);
  });

  app.openapi(change, async (c) => {
    const { id } = c.req.valid("param");
    const body = c.req.valid("json");
    const actor = actorOf(c.get("caller"));
    const record = await getCase(prisma, id);
    if (body.action === "close_resolved") {
      if (record.status !== "hitl_review")
        throw new AppError(
          "conflict",
          `${record.case_id} is ${STATUS_LABEL[record.status] ?? record.status}: only a case waiting for a person can be closed as resolved. Nothing was changed.`,
        );
      const closed = await person.closeAsResolved(record.case_id, actor, body.reason);
      await notes?.threadNote(
        record.case_id,
        `api-close:${record.case_id}`,
        `✅ ${actor} closed ${record.case_id} as resolved: ${body.reason}`,
      );
      return c.json({ case: presentCase(closed) }, 200);
    }
    if (body.action === "re_audit") {
      const { record: after, ...outcome } = await audit(record.vanpool_id, actor);
      const now = after?.case_id === record.case_id ? after : await getCase(prisma, record.case_id);
      return c.json({ case: presentCase(now), audit: outcome }, 200);
    }
    throw new AppError(
      "conflict",
      body.action === "cancel"
        ? `A cancellation is decided by an approver on its approval card in Slack, rider by rider; the API cannot cancel ${record.case_id}. Nothing was changed.`
        : `An escalation reply is approved, edited or rejected on its approval card in Slack; the API cannot send it. Nothing was changed.`,
    );
  });
}

async function openCaseId(deps: ApiDeps, vanpoolId: string): Promise<string | undefined> {
  return (await findOpenCase(deps.agent.prisma, vanpoolId))?.case_id;
}

function summaryOf(vanpoolId: string, result: CaseManagerResult, record: CaseRecord | undefined): string {
  if (!record) return `${vanpoolId} passes every check; no case is needed.`;
  const status = STATUS_LABEL[record.status] ?? record.status;
  return `${record.case_id} (${vanpoolId}) is ${status}. ${result.reasoning}`.trim();
}
