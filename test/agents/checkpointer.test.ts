// Replicas starting together on a fresh database: each sets up the checkpoint tables, and
// none may fail because another got there first.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCheckpointer } from "../../src/agents/checkpointer.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => db.drop());

describe("checkpoint tables", () => {
  it("are set up without an error when four replicas start at once on a fresh database", async () => {
    for (let round = 0; round < 3; round++) {
      await db.pool.query("DROP SCHEMA IF EXISTS langgraph CASCADE");
      const pools = Array.from({ length: 4 }, () => new pg.Pool({ connectionString: db.url, max: 2 }));
      try {
        const outcomes = await Promise.allSettled(pools.map((pool) => createCheckpointer(pool)));
        expect(outcomes.filter((o) => o.status === "rejected")).toEqual([]);
      } finally {
        await Promise.all(pools.map((pool) => pool.end()));
      }
      const { rows } = await db.pool.query("SELECT v FROM langgraph.checkpoint_migrations ORDER BY v");
      expect(new Set(rows.map((r) => r.v)).size).toBe(rows.length);
    }
  });
});
