// Sweeps on the real pg-boss: two replicas asking for the same scheduled slot make one
// sweep, a case per failing vanpool with its first emails sent once, one announcement;
// a page run again after a crash (its job retried) changes nothing; a worker process
// killed with SIGKILL halfway through a sweep leaves nothing twice once another resumes it.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentDeps } from "../../src/agents/deps.js";
import { buildAppDeps } from "../../src/app/container.js";
import { parseSettings } from "../../src/config/settings.js";
import { insertFixturesInBulk } from "../../src/data/seed.js";
import { findSweepTotals, type SweepTotals } from "../../src/data/sweep-repository.js";
import { generateSyntheticFixtures } from "../../src/data/synthetic.js";
import { outboxSender } from "../../src/integrations/email/outbox.js";
import { type JobEngine, startJobEngine } from "../../src/queue/engine.js";
import {
  registerSweepJobs,
  requestSweep,
  SWEEP_QUEUES,
  scheduledSlot,
  sweepPageDeps,
} from "../../src/workers/sweep-jobs.js";
import { runSweepPage } from "../../src/workers/sweep-page.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";

let db: TestDatabase;
let deps: AgentDeps;
const outbox = fs.mkdtempSync(path.join(os.tmpdir(), "sweep-outbox-"));
const replicas: JobEngine[] = [];
const announced: SweepTotals[] = [];
const settings = { concurrency: 4, pageSize: 5, pageTimeoutSeconds: 60, retryDelaySeconds: 1 };

beforeAll(async () => {
  db = await createTestDatabase({ mockData: true });
  deps = await buildAppDeps(db, parseSettings({}), {
    sender: outboxSender(outbox),
    now: () => new Date("2026-11-23T16:00:00Z"),
  });
  for (let i = 0; i < 2; i++) {
    const engine = await startJobEngine({ databaseUrl: db.url, log: () => {}, pollingIntervalSeconds: 0.5 });
    await registerSweepJobs(engine, {
      agent: deps,
      settings,
      log: () => {},
      announce: async (totals) => {
        announced.push(totals);
      },
    });
    replicas.push(engine);
  }
}, 120_000);
afterAll(async () => {
  for (const engine of replicas) await engine.stop();
  await db.drop();
  fs.rmSync(outbox, { recursive: true, force: true });
});

describe("a scheduled sweep", () => {
  it("runs once per slot across replicas and opens each failing vanpool's case once", async () => {
    const openBefore = await db.prisma.case.count({ where: { status: { notIn: ["resolved", "cancelled"] } } });
    const emailsBefore = await db.prisma.message.count({ where: { direction: "outbound", status: "sent" } });
    const slot = scheduledSlot(new Date("2026-11-30T14:00:00Z"));
    await Promise.all(replicas.map((engine) => requestSweep(engine, { slot, trigger: "schedule" })));

    let totals = await findSweepTotals(db.prisma, slot);
    for (let waited = 0; !totals?.finished_at && waited < 90_000; waited += 200) {
      await sleep(200);
      totals = await findSweepTotals(db.prisma, slot);
    }
    expect(totals?.finished_at).toBeTruthy();
    expect(await db.prisma.sweep.count()).toBe(1);
    expect(totals).toMatchObject({ vanpools: 17, checked: 17, pages: 4, errors: [] });
    expect(totals!.new_cases.length).toBeGreaterThan(0);
    for (let waited = 0; announced.length === 0 && waited < 10_000; waited += 100) await sleep(100);
    expect(announced).toHaveLength(1);

    const open = await db.prisma.case.findMany({ where: { status: { notIn: ["resolved", "cancelled"] } } });
    expect(new Set(open.map((c) => c.vanpoolId)).size).toBe(open.length);
    expect(open.length).toBe(openBefore + totals!.new_cases.length - totals!.resolved);
    const newCases = await db.prisma.case.findMany({ where: { id: { in: totals!.new_cases } } });
    const flagged = newCases
      .filter((c) => c.status === "pending_reply")
      .reduce((n, c) => n + ((c.meta as { flagged: string[] }).flagged.length ?? 0), 0);
    // The first emails are jobs queued with the new cases, sent once the pages are done.
    let emails = await db.prisma.message.count({ where: { direction: "outbound", status: "sent" } });
    for (let waited = 0; emails - emailsBefore < flagged && waited < 30_000; waited += 200) {
      await sleep(200);
      emails = await db.prisma.message.count({ where: { direction: "outbound", status: "sent" } });
    }
    expect(emails - emailsBefore).toBe(flagged);
    const outbound = await db.prisma.message.count({ where: { direction: "outbound" } });

    // A page job retried after a crash: the page is done, nothing more is opened or sent.
    const ids = (await db.prisma.vanpool.findMany({ where: { status: "active" }, orderBy: { id: "asc" } })).map(
      (v) => v.id,
    );
    await db.prisma.sweepPage.update({
      where: { sweepId_page: { sweepId: slot, page: 0 } },
      data: { finishedAt: null },
    });
    await runSweepPage(sweepPageDeps(replicas[0]!, { agent: deps, settings }), {
      sweepId: slot,
      page: 0,
      vanpoolIds: ids.slice(0, 5),
    });
    await sleep(2000);
    expect(await db.prisma.case.count({ where: { status: { notIn: ["resolved", "cancelled"] } } })).toBe(open.length);
    expect(await db.prisma.message.count({ where: { direction: "outbound" } })).toBe(outbound);
    expect(await db.prisma.message.count({ where: { direction: "outbound", status: "sent" } })).toBe(emails);
    expect(await db.prisma.verificationRun.count({ where: { trigger: `sweep:${slot}` } })).toBe(17);
  }, 150_000);
});

describe("a sweep whose worker process is killed halfway", () => {
  it("is resumed by another worker: every vanpool audited once, one case each, each first email sent once", async () => {
    const fresh = await createTestDatabase();
    await insertFixturesInBulk(fresh.prisma, generateSyntheticFixtures(120));
    const now = "2026-11-23T16:00:00Z";
    const killedSettings = { concurrency: 4, pageSize: 10, pageTimeoutSeconds: 5, retryDelaySeconds: 1 };
    const slot = scheduledSlot(new Date("2026-11-30T14:00:00Z"));
    const child = spawn(
      process.execPath,
      ["--import", "tsx", path.join(import.meta.dirname, "sweep-worker.child.ts")],
      {
        env: {
          ...process.env,
          DATABASE_URL: fresh.url,
          OUTBOX_DIR: outbox,
          NOW: now,
          SWEEP_SLOT: slot,
          SWEEP_SETTINGS: JSON.stringify(killedSettings),
        },
        stdio: "ignore",
      },
    );
    const exited = new Promise((resolve) => child.once("exit", resolve));
    let totals = await findSweepTotals(fresh.prisma, slot);
    for (let waited = 0; (totals?.pages_done ?? 0) < 3 && waited < 90_000; waited += 50) {
      await sleep(50);
      totals = await findSweepTotals(fresh.prisma, slot);
    }
    child.kill("SIGKILL");
    await exited;
    totals = await findSweepTotals(fresh.prisma, slot);
    expect(totals?.finished_at).toBeNull();
    expect(totals!.pages_done).toBeLessThan(totals!.pages);

    const resumer = await startJobEngine({ databaseUrl: fresh.url, log: () => {}, pollingIntervalSeconds: 0.5 });
    const resumed: SweepTotals[] = [];
    try {
      const agent = await buildAppDeps(fresh, parseSettings({}), {
        sender: outboxSender(outbox),
        now: () => new Date(now),
      });
      await registerSweepJobs(resumer, {
        agent,
        settings: killedSettings,
        log: () => {},
        announce: async (t) => void resumed.push(t),
      });
      // The killed process's jobs are retried once they expire (the engine's maintenance finds them).
      for (let waited = 0; !totals?.finished_at && waited < 120_000; waited += 1000) {
        await resumer.boss.maintain();
        await sleep(1000);
        totals = await findSweepTotals(fresh.prisma, slot);
      }
      expect(totals).toMatchObject({ vanpools: 120, checked: 120, errors: [] });
      expect(await fresh.prisma.verificationRun.count({ where: { trigger: `sweep:${slot}` } })).toBe(120);
      const cases = await fresh.prisma.case.findMany();
      expect(new Set(totals!.new_cases).size).toBe(totals!.new_cases.length);
      expect(cases.map((c) => c.id).sort()).toEqual([...totals!.new_cases].sort());
      expect(new Set(cases.map((c) => c.vanpoolId)).size).toBe(cases.length);

      const flagged = cases
        .filter((c) => c.status === "pending_reply")
        .reduce((n, c) => n + (c.meta as { flagged: string[] }).flagged.length, 0);
      const sent = () => fresh.prisma.message.count({ where: { direction: "outbound", status: "sent" } });
      for (let waited = 0; (await sent()) < flagged && waited < 60_000; waited += 1000) {
        await resumer.boss.maintain();
        await sleep(1000);
      }
      expect(await sent()).toBe(flagged);
      expect(await fresh.prisma.message.count({ where: { direction: "outbound" } })).toBe(flagged);
      // Each email was handed to the provider once: one "email.sent" event per message.
      expect(await fresh.prisma.auditEvent.count({ where: { action: "email.sent" } })).toBe(flagged);
      for (let waited = 0; resumed.length === 0 && waited < 10_000; waited += 100) await sleep(100);
      expect(resumed).toHaveLength(1);
      // A page the killed process finished but never marked done in the engine is retried once it
      // expires, and finds its work done.
      const unfinishedPages = () => resumer.boss.getQueueSize(SWEEP_QUEUES.page, { before: "completed" });
      for (let waited = 0; (await unfinishedPages()) > 0 && waited < 30_000; waited += 1000) {
        await resumer.boss.maintain();
        await sleep(1000);
      }
      expect(await unfinishedPages()).toBe(0);
      expect(await fresh.prisma.verificationRun.count({ where: { trigger: `sweep:${slot}` } })).toBe(120);
    } finally {
      await resumer.stop();
      await fresh.drop();
    }
  }, 300_000);
});
