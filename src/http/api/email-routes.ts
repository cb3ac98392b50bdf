// GET /api/emails/threads (by case or vanpool; cursor) and /api/emails/threads/{id} with its messages;
// POST /api/emails/threads/{id}/messages takes a rider's reply in by the Resend webhook's own path.
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { listThreads } from "../../data/api-read-repository.js";
import { recordEvent } from "../../data/audit-log.js";
import { findThread } from "../../data/email-repository.js";
import { notFound } from "../../errors.js";
import { deliverLocally } from "../../integrations/email/inbound/local-delivery.js";
import { webhookSecret } from "../../integrations/email/inbound/webhook-secret.js";
import { actorOf, seesPersonalData } from "./auth.js";
import type { ApiDeps, ApiEnv } from "./context.js";
import { presentThreads } from "./email-view.js";
import { decodeCursor, isString, jsonWithETag, page } from "./paging.js";
import { AUTH_PROBLEMS, NOT_MODIFIED, ONE_PROBLEMS, problemContent, READ_PROBLEMS } from "./problem.js";
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

const ReplySchema = z
  .object({
    from: z.email().openapi({ example: "rider@example.com", description: "the rider's address, as written to" }),
    body: z.string().min(1).max(100_000),
    subject: z.string().max(500).optional(),
  })
  .openapi("ReplyIn");

const ReplyOutcomeSchema = z
  .object({
    message_id: z.string().nullable(),
    case_id: z.string().nullable(),
    outcome: z.string().openapi({ description: "what was done with it, in words" }),
    quarantined: z.string().nullable().openapi({ description: "why it was held for a person, when it was" }),
  })
  .openapi("ReplyOutcome");

const post = createRoute({
  method: "post",
  path: "/api/emails/threads/{id}/messages",
  tags: ["emails"],
  summary: "Take in a rider's reply on a thread, exactly as one through the Resend webhook",
  description:
    "The reply is classified and handled as an emailed one: an escalation gets a drafted answer on an approval card in Slack, where a person decides. Mail from an address the thread never wrote to is quarantined.",
  security,
  request: {
    params: IdParamSchema,
    body: { required: true, content: { "application/json": { schema: ReplySchema } } },
  },
  responses: {
    202: json(ReplyOutcomeSchema, "Taken in (or quarantined for a person)"),
    400: problemContent("The body does not match the schema (errors names the field)"),
    ...AUTH_PROBLEMS,
    404: problemContent("No such thread"),
    413: problemContent("The body is over 10 MB"),
  },
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
    return jsonWithETag(c, body!);
  });

  app.openapi(post, async (c) => {
    const { id } = c.req.valid("param");
    const reply = c.req.valid("json");
    const thread = await findThread(prisma, id);
    if (!thread) throw threadNotFound(id);
    const { settings } = deps.agent;
    const { rawBody, headers } = deliverLocally(
      settings,
      { threadId: thread.thread_id, from: reply.from, body: reply.body, subject: reply.subject },
      webhookSecret(settings),
    );
    const { body: answer } = await deps.inbound.handleWebhook({ rawBody, headers });
    if ("error" in answer) throw new Error(`the reply was not taken in: ${answer.error}`);
    await recordEvent(prisma, {
      actor: actorOf(c.get("caller")),
      action: "email.reply_posted",
      subjectType: "thread",
      subjectId: thread.thread_id,
      details: {
        case_id: thread.case_id,
        message_id: answer.message_id ?? null,
        quarantined: answer.quarantined ?? null,
      },
      at: deps.agent.now(),
    });
    return c.json(
      {
        message_id: answer.message_id ?? null,
        case_id: answer.case_id ?? null,
        outcome: answer.outcome,
        quarantined: answer.quarantined ?? null,
      },
      202,
    );
  });
}
