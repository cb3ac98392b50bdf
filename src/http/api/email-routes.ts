// GET /api/emails/threads (by case or vanpool; cursor) and /api/emails/threads/{id} with its messages.
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { listThreads } from "../../data/api-read-repository.js";
import { findThread } from "../../data/email-repository.js";
import { notFound } from "../../errors.js";
import { seesPersonalData } from "./auth.js";
import type { ApiDeps, ApiEnv } from "./context.js";
import { presentThreads } from "./email-view.js";
import { decodeCursor, isString, page, withETag } from "./paging.js";
import { NOT_MODIFIED, ONE_PROBLEMS, READ_PROBLEMS } from "./problem.js";
import {
  IdParamSchema,
  jsonContent as json,
  pageOf,
  TOKEN_SECURITY as security,
  ThreadQuerySchema,
  ThreadSchema,
  ThreadSummarySchema,
} from "./schemas.js";

const list = createRoute({
  method: "get",
  path: "/api/emails/threads",
  tags: ["emails"],
  summary: "Email threads (one per case), by case or vanpool",
  security,
  request: { query: ThreadQuerySchema },
  responses: { 200: json(pageOf(ThreadSummarySchema, "ThreadPage"), "A page of threads"), ...READ_PROBLEMS },
});

const one = createRoute({
  method: "get",
  path: "/api/emails/threads/{id}",
  tags: ["emails"],
  summary: "One email thread with its messages",
  security,
  request: { params: IdParamSchema },
  responses: { 200: json(ThreadSchema, "The thread"), ...NOT_MODIFIED, ...ONE_PROBLEMS },
});

export const threadNotFound = (id: string) =>
  notFound(`No email thread ${id}. Thread ids look like THREAD-1A2B3C4D5E6F7A8B.`);

export function registerEmailRoutes(app: OpenAPIHono<ApiEnv>, deps: ApiDeps): void {
  const { prisma } = deps.agent;

  app.openapi(list, async (c) => {
    const { cursor, limit, case_id, vanpool_id } = c.req.valid("query");
    const rows = await listThreads(prisma, {
      caseId: case_id,
      vanpoolId: vanpool_id,
      afterId: decodeCursor(cursor, isString),
      limit: limit + 1,
    });
    const result = page(rows, limit, (last) => last.thread_id);
    return c.json(
      {
        items: result.items.map((t) => ({ ...t, created_at: t.created_at.toISOString() })),
        next_cursor: result.next_cursor,
      },
      200,
    );
  });

  app.openapi(one, async (c) => {
    const { id } = c.req.valid("param");
    const thread = await findThread(prisma, id);
    if (!thread) throw threadNotFound(id);
    const [body] = await presentThreads(deps, [thread], seesPersonalData(c.get("caller")));
    const tagged = withETag(c, body!);
    if (tagged.notModified) return c.body(null, 304);
    return c.json(tagged.body, 200);
  });
}
