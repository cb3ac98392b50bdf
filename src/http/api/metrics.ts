// GET /metrics in Prometheus's text format (prom-client): jobs by queue and state, failed jobs, cases
// by status, failed emails and the last sweep read from the database at each scrape (so every process
// reports the same figures), and Slack 429s counted in this process.
import type { OpenAPIHono } from "@hono/zod-openapi";
import { Counter, Gauge, Registry } from "prom-client";
import { emailAndSweepFigures } from "../../data/api-read-repository.js";
import { countCasesByStatus } from "../../data/case-repository.js";
import { JOB_SCHEMA, jobCountsByQueue } from "../../data/job-repository.js";
import { CASE_STATUSES } from "../../domain/case-lifecycle.js";
import type { ApiDeps, ApiEnv } from "./context.js";

export function createMetrics(deps: ApiDeps) {
  const registry = new Registry();
  const { pool, prisma } = deps.agent;

  new Gauge({
    name: "poolpatrol_jobs",
    help: "Jobs by queue and state (pg-boss)",
    labelNames: ["queue", "state"],
    registers: [registry],
    async collect() {
      this.reset();
      for (const { queue, counts } of await jobCountsByQueue(pool, JOB_SCHEMA))
        for (const [state, n] of Object.entries(counts)) this.set({ queue, state }, n);
    },
  });
  new Gauge({
    name: "poolpatrol_failed_jobs",
    help: "Jobs that failed for good (retries spent), by queue",
    labelNames: ["queue"],
    registers: [registry],
    async collect() {
      this.reset();
      for (const { queue, counts } of await jobCountsByQueue(pool, JOB_SCHEMA)) this.set({ queue }, counts.failed ?? 0);
    },
  });
  new Gauge({
    name: "poolpatrol_cases",
    help: "Cases by status",
    labelNames: ["status"],
    registers: [registry],
    async collect() {
      const counts = await countCasesByStatus(prisma);
      for (const status of CASE_STATUSES) this.set({ status }, counts[status] ?? 0);
    },
  });
  const figures = () => emailAndSweepFigures(pool);
  new Gauge({
    name: "poolpatrol_email_failures",
    help: "Outbound emails that failed after their retries",
    registers: [registry],
    async collect() {
      this.set((await figures()).failedEmails);
    },
  });
  new Gauge({
    name: "poolpatrol_last_sweep_finished_timestamp_seconds",
    help: "When the last sweep finished (0: none yet)",
    registers: [registry],
    async collect() {
      const last = (await figures()).lastSweep;
      this.set(last ? last.finishedAt.getTime() / 1000 : 0);
    },
  });
  new Gauge({
    name: "poolpatrol_last_sweep_duration_seconds",
    help: "How long the last finished sweep took (0: none yet)",
    registers: [registry],
    async collect() {
      const last = (await figures()).lastSweep;
      this.set(last ? (last.finishedAt.getTime() - last.startedAt.getTime()) / 1000 : 0);
    },
  });
  const slackRateLimited = new Counter({
    name: "poolpatrol_slack_rate_limited_total",
    help: "Slack calls answered 429 (rate limited) in this process",
    registers: [registry],
  });

  return {
    registry,
    countSlackRateLimit: () => slackRateLimited.inc(),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

export function registerMetrics(app: OpenAPIHono<ApiEnv>, metrics: Metrics): void {
  app.get("/metrics", async (c) =>
    c.body(await metrics.registry.metrics(), 200, { "content-type": metrics.registry.contentType }),
  );
}
