// A worker keeps taking jobs while its queue has work: jobs written where no worker is told
// of them (inside a transaction, or by another process) are not each kept waiting a polling interval.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type JobEngine, jobIdFor, startJobEngine } from "../../src/jobs/engine.js";
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
