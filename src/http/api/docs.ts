// GET /docs: Swagger UI on /openapi.json, its scripts and styles served from the swagger-ui-dist
// package (no CDN: the page works with no network).
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { Hono } from "hono";
import type { ApiEnv } from "./context.js";

const ASSETS: Record<string, string> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "swagger-ui-standalone-preset.js": "text/javascript; charset=utf-8",
  "favicon-32x32.png": "image/png",
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Pool Patrol API</title>
  <link rel="stylesheet" href="/docs/swagger-ui.css">
  <link rel="icon" type="image/png" href="/docs/favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/swagger-ui-bundle.js"></script>
  <script src="/docs/swagger-ui-standalone-preset.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>
`;

const INIT = `window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: "StandaloneLayout",
  persistAuthorization: true,
});
`;

export function registerDocs(app: Hono<ApiEnv>): void {
  // Resolved at run time from node_modules (the CLI bundle leaves the package outside).
  const dir = path.dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
  app.get("/docs", (c) => c.html(PAGE));
  app.get("/docs/init.js", (c) => c.body(INIT, 200, { "content-type": "text/javascript; charset=utf-8" }));
  app.get("/docs/:file", async (c) => {
    const file = c.req.param("file");
    const type = ASSETS[file];
    if (!type) return c.notFound();
    const bytes = await fs.promises.readFile(path.join(dir, file));
    return c.body(bytes, 200, { "content-type": type, "cache-control": "public, max-age=86400" });
  });
}
