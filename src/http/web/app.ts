// The web pages on the bot's port (HTTP mode, Socket Mode and the sandbox), under /web: sign-in,
// the dashboard, a vanpool with its map, a rider and a case. Server-rendered HTML, no script; nothing
// can be decided on a page (decisions stay on the Slack cards).
import type { IncomingMessage, ServerResponse } from "node:http";
import { getRequestListener } from "@hono/node-server";
import type { CustomRoute } from "@slack/bolt";
import { Hono } from "hono";
import { secureHeaders } from "hono/secure-headers";
import { AppError } from "../../errors.js";
import { registerSignIn, requireSession } from "./auth.js";
import { registerCasePage } from "./case-page.js";
import type { WebDeps, WebEnv } from "./context.js";
import { registerDashboard } from "./dashboard.js";
import { registerEmployeePage } from "./employee-page.js";
import { GOOGLE_MAP_SCRIPT, GOOGLE_MAP_SCRIPT_PATH, GOOGLE_MAP_SOURCES } from "./google-map.js";
import { html, layout, STYLESHEET } from "./page.js";
import { registerSlackSignIn } from "./slack-sign-in.js";
import { registerVanpoolPage } from "./vanpool-page.js";

function createWebApp(deps: WebDeps) {
  const app = new Hono<WebEnv>();
  app.use(
    "/web/*",
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'none'"],
        ...(deps.agent.settings.webMapKey
          ? {
              scriptSrc: ["'self'", ...GOOGLE_MAP_SOURCES.scriptSrc],
              connectSrc: GOOGLE_MAP_SOURCES.connectSrc,
              fontSrc: GOOGLE_MAP_SOURCES.fontSrc,
            }
          : {}),
        styleSrc: ["'self'", ...(deps.agent.settings.webMapKey ? GOOGLE_MAP_SOURCES.styleSrc : [])],
        imgSrc: ["'self'", ...(deps.agent.settings.webMapKey ? GOOGLE_MAP_SOURCES.imgSrc : [])],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        baseUri: ["'none'"],
      },
      // Same-origin: a form post keeps its Origin (a "no-referrer" page posts "Origin: null"), other sites get nothing.
      referrerPolicy: "same-origin",
    }),
  );
  const problem = (c: Parameters<Parameters<typeof app.notFound>[0]>[0], status: 404 | 500, text: string) =>
    c.html(
      layout(
        status === 404 ? "Not found" : "Something went wrong",
        c.get("user"),
        html`<h1>${text}</h1><p><a href="/web/">All vanpools</a></p>`,
      ),
      status,
    );
  app.onError((error, c) => {
    if (error instanceof AppError && error.code === "not_found") return problem(c, 404, error.message);
    process.stderr.write(`web ${c.req.method} ${c.req.path} failed: ${error.stack ?? error.message}\n`);
    return problem(c, 500, "This page failed on the server. Try again.");
  });
  app.notFound((c) => problem(c, 404, "There is no such page."));
  app.get("/web", (c) => c.redirect("/web/", 301));
  app.get("/web/style.css", (c) =>
    c.body(STYLESHEET, 200, { "content-type": "text/css; charset=utf-8", "cache-control": "max-age=3600" }),
  );
  app.get(GOOGLE_MAP_SCRIPT_PATH, (c) =>
    c.body(GOOGLE_MAP_SCRIPT, 200, {
      "content-type": "text/javascript; charset=utf-8",
      "cache-control": "max-age=3600",
    }),
  );
  registerSignIn(app, deps);
  registerSlackSignIn(app, deps);
  app.use("/web/*", requireSession(deps));
  registerDashboard(app, deps);
  registerVanpoolPage(app, deps);
  registerEmployeePage(app, deps);
  registerCasePage(app, deps);
  return app;
}

/** The paths the pages answer on the bot's port. */
export const isWebPath = (pathname: string) => pathname === "/web" || pathname.startsWith("/web/");

export interface Web {
  /** Answers the request when its path is a page's (true), else leaves it alone (false). */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
  /** The same, as Bolt custom routes beside /slack/events and the API. */
  routes: CustomRoute[];
  fetch(request: Request): Response | Promise<Response>;
}

export function createWeb(deps: WebDeps): Web {
  const app = createWebApp(deps);
  const listener = getRequestListener(app.fetch, { overrideGlobalObjects: false });
  const handler = (req: IncomingMessage, res: ServerResponse) => void listener(req, res);
  return {
    handle(req, res) {
      if (!isWebPath(new URL(req.url ?? "/", "http://localhost").pathname)) return false;
      handler(req, res);
      return true;
    },
    routes: ["/web", "/web/*rest"].map((path) => ({
      path,
      method: ["GET", "HEAD", "POST"],
      handler,
    })),
    fetch: app.fetch,
  };
}
