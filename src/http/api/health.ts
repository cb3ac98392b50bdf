// GET /healthz (the process answers) and GET /readyz (the database and the job engine answer).
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { ApiDeps, ApiEnv } from "./context.js";

const CHECK_TIMEOUT_MS = 2_000;

const Health = z.object({ status: z.literal("ok") }).openapi("Health");
const CheckResult = z.object({ ok: z.boolean(), error: z.string().optional() });
const Readiness = z
  .object({
    status: z.enum(["ready", "not_ready"]),
    checks: z.object({ database: CheckResult, jobs: CheckResult }),
  })
  .openapi("Readiness");

const healthz = createRoute({
  method: "get",
  path: "/healthz",
  tags: ["health"],
  summary: "The process answers",
  responses: { 200: { description: "Alive", content: { "application/json": { schema: Health } } } },
});

const readyz = createRoute({
  method: "get",
  path: "/readyz",
  tags: ["health"],
  summary: "The database and the job engine answer",
  responses: {
    200: { description: "Ready", content: { "application/json": { schema: Readiness } } },
    503: { description: "Not ready: a check failed", content: { "application/json": { schema: Readiness } } },
  },
});

export function registerHealth(app: OpenAPIHono<ApiEnv>, deps: ApiDeps): void {
  app.openapi(healthz, (c) => c.json({ status: "ok" as const }, 200));
  app.openapi(readyz, async (c) => {
    const [database, jobs] = await Promise.all([
      check(() => deps.agent.pool.query("SELECT 1")),
      check(async () => {
        if (!deps.jobs) throw new Error("no job engine in this process");
        await deps.jobs.boss.getDb().executeSql("SELECT 1", []);
      }),
    ]);
    const ready = database.ok && jobs.ok;
    const body = { status: ready ? ("ready" as const) : ("not_ready" as const), checks: { database, jobs } };
    return ready ? c.json(body, 200) : c.json(body, 503);
  });
}

async function check(probe: () => Promise<unknown>): Promise<{ ok: boolean; error?: string }> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      probe(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
      }),
    ]);
    return { ok: true };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  } finally {
    clearTimeout(timer);
  }
}
