// The REST API on the bot's port (HTTP mode, Socket Mode and the sandbox): hono routes whose
// request and response schemas are the zod definitions the handlers use, the OpenAPI 3.1 document
// generated from them at /openapi.json, Swagger UI at /docs, and /healthz, /readyz.
import type { IncomingMessage, ServerResponse } from "node:http";
import { getRequestListener } from "@hono/node-server";
import { OpenAPIHono } from "@hono/zod-openapi";
import type { CustomRoute } from "@slack/bolt";
import { bodyLimit } from "hono/body-limit";
import { AppError } from "../../errors.js";
import { requireToken } from "./auth.js";
import { registerCaseReadRoutes } from "./case-read-routes.js";
import { registerCaseWriteRoutes } from "./case-write-routes.js";
import { registerChangeRoutes } from "./change-routes.js";
import type { ApiDeps, ApiEnv } from "./context.js";
import { registerDocs } from "./docs.js";
import { registerEmailRoutes } from "./email-routes.js";
import { registerEmployeeRoutes } from "./employee-routes.js";
import { registerHealth } from "./health.js";
import { registerImportRoutes } from "./import-routes.js";
import { createMetrics, registerMetrics } from "./metrics.js";
import { CursorError } from "./paging.js";
import { fieldErrors, problemResponse, STATUS_OF } from "./problem.js";
import { registerVanpoolRoutes } from "./vanpool-routes.js";

export const MAX_BODY_BYTES = 10 * 1024 * 1024;
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
const BODILESS = new Set(["GET", "HEAD"]);

export const OPENAPI_INFO = {
  title: "Pool Patrol API",
  version: "1.0.0",
  description:
    "Vanpools, employees, cases, email threads and the audit trail. Every request but /healthz, /readyz, /metrics, /openapi.json and /docs needs a token (`poolpatrol token create NAME --scope read|write`) as `Authorization: Bearer …`.",
};

export function createApiApp(deps: ApiDeps, metrics = createMetrics(deps)) {
  const app = new OpenAPIHono<ApiEnv>({
    // A request that does not match its schema changes nothing and names each field at fault.
    defaultHook: (result, c) => {
      if (!result.success)
        return problemResponse(
          c,
          400,
          "The request does not match the API's schema; see errors.",
          fieldErrors(result.target, result.error.issues),
        );
    },
  });
  app.onError((error, c) => {
    if (error instanceof AppError) return problemResponse(c, STATUS_OF[error.code], error.message);
    if (error instanceof CursorError)
      return problemResponse(c, 400, error.message, [{ field: "query.cursor", message: error.message }]);
    process.stderr.write(`API ${c.req.method} ${c.req.path} failed: ${error.stack ?? error.message}\n`);
    return problemResponse(c, 500, "The request failed on the server; nothing may have changed. Try again.");
  });
  app.notFound((c) => problemResponse(c, 404, `No route ${c.req.method} ${c.req.path}; see /docs.`));
  const limitBody = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: (c) => problemResponse(c, 413, `Request bodies are limited to ${MAX_BODY_BYTES / 1024 / 1024} MB.`),
  });
  // GET and HEAD routes read no body: asking for one would build a whole fetch Request on every read.
  app.use("/api/*", (c, next) => (BODILESS.has(c.req.method) ? next() : limitBody(c, next)));
  app.openAPIRegistry.registerComponent("securitySchemes", "token", {
    type: "http",
    scheme: "bearer",
    description: "An API token from `poolpatrol token create`",
  });

  registerHealth(app, deps);
  registerDocs(app);
  registerMetrics(app, metrics);
  app.use("/api/*", requireToken(deps.agent.pool));
  registerVanpoolRoutes(app, deps);
  registerEmployeeRoutes(app, deps);
  registerCaseReadRoutes(app, deps);
  registerCaseWriteRoutes(app, deps);
  registerEmailRoutes(app, deps);
  registerChangeRoutes(app, deps);
  registerImportRoutes(app, deps);
  app.get("/openapi.json", (c) => c.json(openApiDocument(app)));
  return app;
}

export function openApiDocument(app: OpenAPIHono<ApiEnv>) {
  return app.getOpenAPI31Document({ openapi: "3.1.0", info: OPENAPI_INFO });
}

/** The paths the API answers on the bot's port. */
export function isApiPath(pathname: string): boolean {
  return (
    ["/openapi.json", "/docs", "/healthz", "/readyz", "/metrics"].includes(pathname) ||
    pathname.startsWith("/docs/") ||
    // The local Slack's Web API (sandbox) is /api/<method>, and every Slack method has a dot.
    /^\/api\/[^/.]+(\/|$)/.test(pathname)
  );
}

export interface Api {
  /** Answers the request when its path is the API's (true), else leaves it alone (false). */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
  /** The same, as Bolt custom routes beside /slack/events and /webhooks/resend. */
  routes: CustomRoute[];
  fetch(request: Request): Response | Promise<Response>;
  /** A Slack call was answered 429 (for /metrics). */
  countSlackRateLimit(): void;
}

export function createApi(deps: ApiDeps): Api {
  const metrics = createMetrics(deps);
  const app = createApiApp(deps, metrics);
  // Node's own Request and Response stay global: the Slack, Resend and OpenAI clients use them.
  const listener = getRequestListener(app.fetch, { overrideGlobalObjects: false });
  const handler = (req: IncomingMessage, res: ServerResponse) => void listener(req, res);
  const paths = ["/api/*rest", "/openapi.json", "/docs", "/docs/*file", "/healthz", "/readyz", "/metrics"];
  return {
    handle(req, res) {
      if (!isApiPath(new URL(req.url ?? "/", "http://localhost").pathname)) return false;
      handler(req, res);
      return true;
    },
    routes: paths.map((path) => ({ path, method: METHODS, handler })),
    fetch: app.fetch,
    countSlackRateLimit: metrics.countSlackRateLimit,
  };
}
