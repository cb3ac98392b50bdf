// The REST API answers on the bot's port next to /slack/events: health, readiness, the OpenAPI 3.1
// document and its interactive docs (served with no network), and problem+json for what it does not know.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiClient, apiClient } from "../support/api-client.js";
import { type Harness, startHarness } from "../support/bot-harness.js";

let h: Harness;
let api: ApiClient;

beforeAll(async () => {
  h = await startHarness();
  api = await apiClient(h.url.replace(/\/slack\/events$/, ""));
}, 60_000);

afterAll(async () => {
  await h?.close();
});

describe("the REST API on the bot's port (HTTP mode)", () => {
  it("serves a valid OpenAPI 3.1 document, /healthz and /readyz beside /slack/events", async () => {
    expect(Object.keys(api.document.paths)).toEqual(expect.arrayContaining(["/healthz", "/readyz"]));
    expect((await api.get("/healthz")).body).toEqual({ status: "ok" });
    const ready = await api.get("/readyz");
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: "ready", checks: { database: { ok: true }, jobs: { ok: true } } });
  });

  it("serves Swagger UI at /docs from the package, not a CDN", async () => {
    const page = await fetch(`${api.base}/docs`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).not.toMatch(/https?:\/\//);
    for (const asset of html.matchAll(/(?:src|href)="(\/docs\/[^"]+)"/g)) {
      const response = await fetch(`${api.base}${asset[1]}`);
      expect(response.status, asset[1]).toBe(200);
      expect((await response.arrayBuffer()).byteLength, asset[1]).toBeGreaterThan(10);
    }
    expect(await (await fetch(`${api.base}/docs/init.js`)).text()).toContain('url: "/openapi.json"');
  });

  it("answers an unknown route with a problem+json 404, and still takes Slack's requests", async () => {
    const response = await fetch(`${api.base}/docs/nothing-here`);
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(await response.json()).toMatchObject({ status: 404, title: "Not found" });
    expect((await h.command("U0CAROL", "help")).text).toMatch(/audit/);
  });

  it("serves /metrics in Prometheus's text format: cases by status and jobs from the database, Slack 429s of this process", async () => {
    h.fake.rateLimitNext("chat.postMessage", 1);
    await h.audit("VP-111");
    const response = await fetch(`${api.base}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    const value = (line: string) =>
      Number(new RegExp(`^${line.replace(/[{}"]/g, "\\$&")} (\\S+)$`, "m").exec(text)?.[1]);
    for (const status of ["pending_reply", "hitl_review", "resolved"] as const)
      expect(value(`poolpatrol_cases{status="${status}"}`), status).toBe(
        await h.db.prisma.case.count({ where: { status } }),
      );
    expect(value("poolpatrol_slack_rate_limited_total")).toBe(1);
    expect(text).toMatch(/^poolpatrol_jobs\{queue="slack-sync-case",state="completed"\} [1-9]/m);
    expect(text).toMatch(/^poolpatrol_failed_jobs\{queue="send-email"\} 0$/m);
    expect(value("poolpatrol_email_failures")).toBe(0);
    expect(value("poolpatrol_last_sweep_duration_seconds")).toBe(0);
  });
});
