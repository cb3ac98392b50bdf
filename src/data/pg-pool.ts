// The pg pool every database user shares (Prisma's adapter, bulk writes, the migration check).
// Free of Prisma, so a command can connect while Prisma's client is still loading.
import pg from "pg";
import { poolTypes } from "./bytea-array.js";

export function createPool(databaseUrl: string): pg.Pool {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 20, types: poolTypes });
  // An idle pooled connection reports an error when the server goes away (a restart,
  // or the embedded server stopping while a closed connection is still draining).
  // Queries in flight get their own errors; without a listener this one would crash
  // the process.
  pool.on("error", (error) => {
    if ((error as { code?: string }).code !== "57P01")
      process.stderr.write(`PostgreSQL connection lost: ${error.message}\n`);
  });
  // The same for a connection checked out of the pool (a held lock, a transaction) when the
  // server stops first, as the embedded server does on Ctrl-C or SIGTERM: its next query fails
  // with the error instead, and the pool's listener above reports idle ones.
  pool.on("connect", (client) => client.on("error", () => {}));
  return pool;
}

/** Runs `fn` in one transaction on a pooled connection: committed if it returns, rolled back if it throws. */
export async function inPgTransaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const result = await fn(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
