// GET /api/vanpools (filters, cursor), /api/vanpools/{id} (with riders), /api/vanpools/{id}/riders.
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { findEmployees, listVanpoolSummaries, type VanpoolSummary } from "../../data/api-read-repository.js";
import { findOpenCase } from "../../data/case-repository.js";
import { findVanpoolSnapshotsOf } from "../../data/vanpool-repository.js";
import type { VanpoolSnapshot } from "../../domain/snapshot.js";
import { notFound } from "../../errors.js";
import { seesPersonalData } from "./auth.js";
import type { ApiDeps, ApiEnv } from "./context.js";
import { decodeCursor, isString, jsonWithETag, page } from "./paging.js";
import { presentRider } from "./present.js";
import { NOT_MODIFIED, ONE_PROBLEMS, READ_PROBLEMS } from "./problem.js";
import {
  IdParamSchema,
  jsonContent,
  pageOf,
  RiderSchema,
  TOKEN_SECURITY,
  VanpoolQuerySchema,
  VanpoolSchema,
  VanpoolSummarySchema,
} from "./schemas.js";

const json = jsonContent;
const security = TOKEN_SECURITY;

const list = createRoute({
  method: "get",
  path: "/api/vanpools",
  tags: ["vanpools"],
  summary: "Vanpools by id, with their open case; status=flagged lists those with one",
  security,
  request: { query: VanpoolQuerySchema },
  responses: { 200: json(pageOf(VanpoolSummarySchema, "VanpoolPage"), "A page of vanpools"), ...READ_PROBLEMS },
});

const one = createRoute({
  method: "get",
  path: "/api/vanpools/{id}",
  tags: ["vanpools"],
  summary: "One vanpool with its active riders",
  security,
  request: { params: IdParamSchema },
  responses: { 200: json(VanpoolSchema, "The vanpool"), ...NOT_MODIFIED, ...ONE_PROBLEMS },
});

const riders = createRoute({
  method: "get",
  path: "/api/vanpools/{id}/riders",
  tags: ["vanpools"],
  summary: "A vanpool's active riders",
  security,
  request: { params: IdParamSchema },
  responses: { 200: json(z.object({ items: z.array(RiderSchema) }), "Its riders"), ...ONE_PROBLEMS },
});

const summary = (v: VanpoolSummary) => ({ ...v, flagged: v.open_case !== null });

export function registerVanpoolRoutes(app: OpenAPIHono<ApiEnv>, deps: ApiDeps): void {
  const { pool, prisma } = deps.agent;

  async function vanpool(id: string): Promise<VanpoolSnapshot> {
    const [found] = await findVanpoolSnapshotsOf(pool, [id]);
    if (!found) throw notFound(`No vanpool ${id}. Vanpool ids look like VP-101.`);
    return found;
  }

  async function ridersOf(v: VanpoolSnapshot, pii: boolean) {
    const addresses = pii
      ? new Map(
          (
            await findEmployees(
              pool,
              v.riders.map((r) => r.employee_id),
            )
          ).map((e) => [e.employee_id, e.home_address]),
        )
      : new Map<string, string>();
    return v.riders.map((r) => presentRider(r, pii, addresses.get(r.employee_id)));
  }

  app.openapi(list, async (c) => {
    const { cursor, limit, status, work_site } = c.req.valid("query");
    const afterId = decodeCursor(cursor, isString);
    const rows = await listVanpoolSummaries(pool, { status, workSite: work_site, afterId, limit: limit + 1 });
    const result = page(rows, limit, (last) => last.vanpool_id);
    return c.json({ items: result.items.map(summary), next_cursor: result.next_cursor }, 200);
  });

  app.openapi(one, async (c) => {
    const v = await vanpool(c.req.valid("param").id);
    const pii = seesPersonalData(c.get("caller"));
    const open = await findOpenCase(prisma, v.vanpool_id);
    const { riders: _, ...fields } = v;
    const body: z.infer<typeof VanpoolSchema> = {
      ...fields,
      rider_count: v.riders.length,
      flagged: open !== undefined,
      open_case: open ? { case_id: open.case_id, status: open.status } : null,
      operating_schedule: (v.operating_schedule as unknown as Record<string, string>[] | null) ?? null,
      riders: await ridersOf(v, pii),
    };
    return jsonWithETag(c, body);
  });

  app.openapi(riders, async (c) => {
    const v = await vanpool(c.req.valid("param").id);
    return c.json({ items: await ridersOf(v, seesPersonalData(c.get("caller"))) }, 200);
  });
}
