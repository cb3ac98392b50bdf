// The job engine while its database is away: reached through a proxy the test kills (connections
// dropped, new ones refused) and revives. Its heartbeat fails every 200 ms and its worker polls every
// 0.5 s, yet the log says once that the database can't be reached and once that it answers again; a
// job that finished while it was away does not end the process, and a job sent once it is back runs.
import cron from "node-cron";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type Clock, startClock } from "../../src/queue/clock.js";
import { type JobEngine, startJobEngine } from "../../src/queue/engine.js";
import { QUEUES } from "../../src/queue/queues.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";
import { type DatabaseProxy, startDatabaseProxy } from "../support/db-proxy.js";
import { waitFor } from "../support/wait.js";

const QUEUE = "outage-test";

let db: TestDatabase;
let proxy: DatabaseProxy;
let engine: JobEngine;
let clock: Clock;
const lines: string[] = [];
const clockLines: string[] = [];
const ran: string[] = [];
let finishFirst: () => void = () => {};

beforeAll(async () => {
  db = await createTestDatabase();
  proxy = await startDatabaseProxy(db.url);
  engine = await startJobEngine({
    databaseUrl: proxy.url,
    log: (line) => lines.push(line),
    instanceTtlMs: 600,
    pollingIntervalSeconds: 0.5,
  });
  await engine.defineQueue(QUEUE, { retryLimit: 0 });
  await engine.defineQueue(QUEUES.approvalsDue, { retryLimit: 0 });
  clock = startClock(engine, { digestCron: "0 9 * * 1", timezone: "UTC", log: (line) => clockLines.push(line) });
  const first = new Promise<void>((resolve) => {
    finishFirst = resolve;
  });
  await engine.work<{ n: number }>(QUEUE, async (job) => {
    ran.push(String(job.data.n));
    if (job.data.n === 1) await first;
  });
}, 60_000);

afterAll(async () => {
  clock?.stop();
  await proxy.revive().catch(() => {});
  await engine?.stop();
  await proxy?.close();
  await db?.drop();
});

/** The clock's every-minute schedule, as node-cron holds it. */
const approvalsSchedule = () => [...cron.getTasks().values()].find((task) => task.name === "poolpatrol-approvals")!;

describe("the job engine with its database killed", () => {
  it("says so once, once more when it is back, and works the jobs sent after", { timeout: 60_000 }, async () => {
    await engine.send(QUEUE, { n: 1 });
    await waitFor("the first job to start", () => ran.includes("1"));
    expect(lines).toEqual([]);

    await proxy.kill();
    // The job finishes with its database gone: pg-boss cannot mark it completed.
    finishFirst();
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^job engine: can't reach the database \(.+\); trying again quietly until it answers\.$/);

    await proxy.revive();
    await waitFor("the engine to see the database again", () => lines.length > 1, { timeoutMs: 10_000 });
    expect(lines[1]).toMatch(/^job engine: the database answers again, after \d+ s\.$/);
    await engine.send(QUEUE, { n: 2 });
    await waitFor("the job sent after the outage to run", () => ran.includes("2"), { timeoutMs: 10_000 });
    expect(lines).toHaveLength(2);
  });

  it("has its clock say once that a schedule could not be queued, not print a stack every minute", {
    timeout: 60_000,
  }, async () => {
    const printed = vi.spyOn(console, "error");
    try {
      await proxy.kill();
      // node-cron firing the every-minute schedule three times while the database is away.
      for (let i = 0; i < 3; i++) await approvalsSchedule().execute();
      expect(clockLines).toHaveLength(1);
      expect(clockLines[0]).toMatch(
        /^clock: can't reach the database \(.+\); trying again quietly until it answers\.$/,
      );
      expect(printed).not.toHaveBeenCalled();

      await proxy.revive();
      await approvalsSchedule().execute();
      expect(clockLines[1]).toMatch(/^clock: the database answers again, after \d+ s\.$/);
    } finally {
      printed.mockRestore();
    }
  });
});
