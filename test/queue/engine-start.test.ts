// Replicas starting together on a fresh database: each creates the job engine's queues, and
// none may fail because another was creating the same queue at that moment.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JOB_SCHEMA } from "../../src/data/job-repository.js";
import { type JobEngine, startJobEngine } from "../../src/queue/engine.js";
import { QUEUE_OPTIONS } from "../../src/queue/queues.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => db.drop());

describe("job engine start", () => {
  it("creates every queue once when three replicas start at once on a fresh database", async () => {
    for (let round = 0; round < 2; round++) {
      await db.pool.query(`DROP SCHEMA IF EXISTS ${JOB_SCHEMA} CASCADE`);
      const starts = await Promise.allSettled(
        [1, 2, 3].map(() =>
          startJobEngine({ databaseUrl: db.url, log: () => {}, queues: QUEUE_OPTIONS, supervise: false }),
        ),
      );
      const started = starts.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
      try {
        expect(starts.filter((s) => s.status === "rejected")).toEqual([]);
        const { rows } = await db.pool.query(`SELECT name FROM ${JOB_SCHEMA}.queue`);
        for (const name of Object.keys(QUEUE_OPTIONS)) expect(rows.map((r) => r.name)).toContain(name);
      } finally {
        await Promise.all(started.map((engine: JobEngine) => engine.stop()));
      }
    }
  }, 60_000);
});
