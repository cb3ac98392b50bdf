import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { startEmbeddedPostgres } from "../../src/data/embedded-postgres.js";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "poolpatrol-embedded-"));
fs.chmodSync(dataDir, 0o755);
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

async function query(url: string, sql: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

describe("embedded PostgreSQL", () => {
  it("keeps its data across restarts, shares a running server, and stops", async () => {
    const first = await startEmbeddedPostgres({ dataDir, fast: true });
    await query(first.serverUrl, "CREATE TABLE kept (note text); INSERT INTO kept VALUES ('still here')");
    const second = await startEmbeddedPostgres({ dataDir, fast: true });
    expect(second.serverUrl).toBe(first.serverUrl); // same folder, same running server
    await second.stop(); // not the owner: the server keeps running
    expect(await query(first.serverUrl, "SELECT 1 AS ok")).toEqual([{ ok: 1 }]);
    await first.stop();
    await expect(query(first.serverUrl, "SELECT 1")).rejects.toThrow();

    const again = await startEmbeddedPostgres({ dataDir, fast: true });
    expect(await query(again.serverUrl, "SELECT note FROM kept")).toEqual([{ note: "still here" }]);
    await again.stop();
  });
});
