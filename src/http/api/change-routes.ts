// GET /api/changes: the change history (the audit log: who changed what, when), oldest first.
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { listAuditEvents } from "../../data/api-read-repository.js";
import { seesPersonalData } from "./auth.js";
import type { ApiDeps, ApiEnv } from "./context.js";
import { decodeCursor, page } from "./paging.js";
import { presentEvent } from "./present.js";
import { READ_PROBLEMS } from "./problem.js";
import { ChangeQuerySchema, ChangeSchema, jsonContent as json, pageOf, TOKEN_SECURITY as security } from "./schemas.js";

const list = createRoute({
  method: "get",
  path: "/api/changes",
  tags: ["changes"],
  summary: "The change history: every recorded change (cases, approvals, emails, tokens), oldest first",
  security,
  request: { query: ChangeQuerySchema },
  responses: { 200: json(pageOf(ChangeSchema, "ChangePage"), "A page of changes"), ...READ_PROBLEMS },
});

const isEventId = (key: unknown): key is string => typeof key === "string" && /^\d+$/.test(key);

export function registerChangeRoutes(app: OpenAPIHono<ApiEnv>, deps: ApiDeps): void {
  app.openapi(list, async (c) => {
    const { cursor, limit, subject_id, actor } = c.req.valid("query");
    const after = decodeCursor(cursor, isEventId);
    const rows = await listAuditEvents(deps.agent.prisma, {
      subjectId: subject_id,
      actor,
      afterId: after === undefined ? undefined : BigInt(after),
      limit: limit + 1,
    });
    const pii = seesPersonalData(c.get("caller"));
    const result = page(rows, limit, (last) => last.id);
    return c.json(
      { items: result.items.map((e) => ({ id: e.id, ...presentEvent(e, pii) })), next_cursor: result.next_cursor },
      200,
    );
  });
}
