// A worker keeps taking jobs while its queue has work: jobs written where no worker is told
// of them (inside a transaction, or by another process) are not each kept waiting a polling interval.
// An idle queue is asked for jobs by one of its workers, not by each; while that one is busy, the
// others look in its place.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type JobEngine, jobIdFor, startJobEngine } from "../../src/queue/engine.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";
import { waitFor } from "../support/wait.js";

let db: TestDatabase;
let engine: JobEngine;
beforeAll(async () => {
  db = await createTestDatabase();
  // Idle workers look for jobs every 30 s here: any job picked up sooner was asked for at once.
  engine = await startJobEngine({ databaseUrl: db.url, log: () => {}, pollingIntervalSeconds: 30, supervise: false });
});
afterAll(async () => {
  await engine.stop();
  await db.drop();
});

describe("job engine workers", () => {
  it("take the next job at once after finishing one, while the queue has work", async () => {
    await engine.defineQueue("burst");
    // Written in one statement before any worker exists, as another process would: no worker is notified.
    await engine.insert(
      Array.from({ length: 6 }, (_, i) => ({ name: "burst", id: jobIdFor(`burst:${i}`), data: { i } })),
    );
    const done: number[] = [];
    const started = Date.now();
    await engine.work<{ i: number }>("burst", async (job) => {
      done.push(job.data.i);
    });
    await waitFor("the six jobs to be done", () => done.length === 6, { timeoutMs: 20_000, everyMs: 50 });
    expect(done.sort()).toEqual([0, 1, 2, 3, 4, 5]);
    expect(Date.now() - started).toBeLessThan(20_000);
  }, 40_000);
});

describe("an idle queue's workers", () => {
  let quick: JobEngine;
  beforeAll(async () => {
    quick = await startJobEngine({ databaseUrl: db.url, log: () => {}, pollingIntervalSeconds: 1, supervise: false });
  });
  afterAll(async () => {
    await quick.stop();
  });

  const transactions = async () => {
    const { rows } = await db.pool.query<{ n: string }>(
      "SELECT pg_stat_clear_snapshot(), (SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = current_database()) AS n",
    );
    return Number(rows[0]!.n);
  };

  it("ask the database once per polling interval, not once per worker", async () => {
    await quick.defineQueue("idle");
    await quick.work("idle", async () => {}, { concurrency: 4 });
    await new Promise((resolve) => setTimeout(resolve, 1500)); // past the first look every worker takes
    const before = await transactions();
    await new Promise((resolve) => setTimeout(resolve, 6000));
    const made = (await transactions()) - before;
    // One poller at 1 s makes about 6 (plus this test's own and the other engine's few); four made 24 or more.
    expect(made).toBeLessThan(16);
  }, 30_000);

  it("take a job written elsewhere within a polling interval or two while the polling worker is busy", async () => {
    await quick.defineQueue("busy");
    let release = () => {};
    const started = new Map<string, number>();
    await quick.work<{ name: string }>(
      "busy",
      async (job) => {
        started.set(job.data.name, Date.now());
        if (job.data.name === "long") await new Promise<void>((resolve) => (release = resolve));
      },
      { concurrency: 3 },
    );
    await quick.send("busy", { name: "long" });
    while (!started.has("long")) await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, 1500)); // the spares went back to sleep
    // Written as another process would (no worker here is told): found by a stand-in's look.
    const sentAt = Date.now();
    await quick.boss.send("busy", { name: "elsewhere" });
    while (!started.has("elsewhere") && Date.now() - sentAt < 20_000)
      await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    expect(started.get("elsewhere")! - sentAt).toBeLessThan(3000);
  }, 40_000);
});

describe("waiting for the jobs a process sent", () => {
  let quick: JobEngine;
  beforeAll(async () => {
    quick = await startJobEngine({ databaseUrl: db.url, log: () => {}, pollingIntervalSeconds: 1, supervise: false });
  });
  afterAll(async () => {
    await quick.stop();
  });

  it("waits for a failed job's retry that is due soon, and sees it finish", async () => {
    await quick.defineQueue("flaky", { retryLimit: 1, retryDelay: 1 });
    const attempts: number[] = [];
    await quick.work("flaky", async () => {
      attempts.push(Date.now());
      if (attempts.length === 1) throw new Error("injected fault: first attempt");
    });
    await quick.send("flaky", {});
    const unfinished = await quick.drain(20_000);
    expect(attempts).toHaveLength(2);
    expect(unfinished).toEqual([]);
  }, 40_000);

  it("does not wait for a retry due after its timeout, and names it with its error", async () => {
    await quick.defineQueue("slow-retry", { retryLimit: 1, retryDelay: 60 });
    await quick.work("slow-retry", async () => {
      throw new Error("injected fault: always");
    });
    await quick.send("slow-retry", {});
    const started = Date.now();
    const unfinished = await quick.drain(5_000);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(unfinished).toEqual([
      expect.objectContaining({ name: "slow-retry", state: "retry", error: "injected fault: always" }),
    ]);
  }, 40_000);
});
