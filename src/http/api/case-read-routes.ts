// GET /api/cases (by status, vanpool; cursor), /api/cases/{id} (with its timeline and evidence),
// /api/cases/{id}/emails (its email threads).
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { findCaseDetail, listCasesPage } from "../../data/api-read-repository.js";
import { caseNotFound, getCase } from "../../data/case-repository.js";
import { findThreadForCase } from "../../data/email-repository.js";
import { seesPersonalData } from "./auth.js";
import type { ApiDeps, ApiEnv } from "./context.js";
import { presentThreads } from "./email-view.js";
import { decodeCursor, jsonWithETag, page } from "./paging.js";
import { presentCase, presentEvent, presentEvidence } from "./present.js";
import { NOT_MODIFIED, ONE_PROBLEMS, READ_PROBLEMS } from "./problem.js";
import {
  CaseDetailSchema,
  CaseQuerySchema,
  CaseSchema,
  IdParamSchema,
  jsonContent as json,
  pageOf,
  TOKEN_SECURITY as security,
  ThreadSchema,
} from "./schemas.js";

const list = createRoute({
  method: "get",
  path: "/api/cases",
  tags: ["cases"],
  summary: "Cases, newest first, by status and vanpool",
  security,
  request: { query: CaseQuerySchema },
  responses: { 200: json(pageOf(CaseSchema, "CasePage"), "A page of cases"), ...READ_PROBLEMS },
});

const one = createRoute({
  method: "get",
  path: "/api/cases/{id}",
  tags: ["cases"],
  summary: "One case with its timeline and the evidence it stands on",
  security,
  request: { params: IdParamSchema },
  responses: { 200: json(CaseDetailSchema, "The case"), ...NOT_MODIFIED, ...ONE_PROBLEMS },
});

const emails = createRoute({
  method: "get",
  path: "/api/cases/{id}/emails",
  tags: ["cases", "emails"],
  summary: "A case's email threads with their messages",
  security,
  request: { params: IdParamSchema },
  responses: { 200: json(z.object({ items: z.array(ThreadSchema) }), "Its threads"), ...ONE_PROBLEMS },
});

type CaseCursor = { at: string; id: string };
const isCaseCursor = (key: unknown): key is CaseCursor =>
  typeof key === "object" &&
  key !== null &&
  typeof (key as CaseCursor).id === "string" &&
  !Number.isNaN(Date.parse((key as CaseCursor).at));

export function registerCaseReadRoutes(app: OpenAPIHono<ApiEnv>, deps: ApiDeps): void {
  const { pool, prisma } = deps.agent;

  app.openapi(list, async (c) => {
    const { cursor, limit, status, vanpool_id } = c.req.valid("query");
    const after = decodeCursor(cursor, isCaseCursor);
    const rows = await listCasesPage(prisma, {
      status,
      vanpoolId: vanpool_id,
      after: after ? { at: new Date(after.at), id: after.id } : undefined,
      limit: limit + 1,
    });
    const result = page(rows, limit, (last) => ({ at: last.created_at.toISOString(), id: last.case_id }));
    return c.json({ items: result.items.map(presentCase), next_cursor: result.next_cursor }, 200);
  });

  app.openapi(one, async (c) => {
    const { id } = c.req.valid("param");
    const detail = await findCaseDetail(pool, id);
    if (!detail) throw caseNotFound(id);
    const { record, evidence, events, places } = detail;
    const pii = seesPersonalData(c.get("caller"));
    const body: z.infer<typeof CaseDetailSchema> = {
      ...presentCase(record),
      evidence: presentEvidence(evidence, pii, places),
      timeline: events.map((e) => presentEvent(e, pii)),
    };
    return jsonWithETag(c, body);
  });

  app.openapi(emails, async (c) => {
    const record = await getCase(prisma, c.req.valid("param").id);
    const thread = await findThreadForCase(prisma, record.case_id);
    const items = await presentThreads(deps, thread ? [thread] : [], seesPersonalData(c.get("caller")));
    return c.json({ items }, 200);
  });
}
