// The pg pool every database user shares (Prisma's adapter, bulk writes, the migration check).
// Free of Prisma, so a command can connect while Prisma's client is still loading.
import pg from "pg";
import { poolTypes } from "./bytea-array.js";

/**
 * A process's connections, POOLPATROL_DB_POOL_SIZE in all, shared between its two pools: the app's
 * (Prisma, bulk writes, LangGraph's checkpoints) and, when it runs jobs, the job engine's (pg-boss
 * and the heartbeat). Their sum is the setting, so N processes on one server use at most N times it.
 */
export function poolShares(total: number, withJobs: boolean): { app: number; jobs: number } {
  if (!withJobs) return { app: total, jobs: 0 };
  const jobs = Math.max(2, Math.floor(total / 3));
  return { app: total - jobs, jobs };
}

/** A pool's options: its size, and the process named in pg_stat_activity (`poolpatrol <pid>`). */
export function connectionOptions(databaseUrl: string, max: number): pg.PoolConfig {
  return { connectionString: databaseUrl, max, application_name: `poolpatrol ${process.pid}` };
}

export function createPool(databaseUrl: string, max = 20): pg.Pool {
  const pool = new pg.Pool({ ...connectionOptions(databaseUrl, max), types: poolTypes });
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

/** The database did not answer before a deadline; `committing`: it stopped while a commit was on its way. */
export class DatabaseTimeout extends Error {
  constructor(readonly committing = false) {
    super("The database did not answer in time.");
  }
}

/** `work`'s result if it comes before `deadline` (a time in ms); otherwise throws DatabaseTimeout (`work` goes on). */
export async function within<T>(deadline: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DatabaseTimeout()), Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

const UNREACHABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "57P01", // admin_shutdown: the server is stopping
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now: starting up or recovering
  "53300", // too_many_connections
  "P1001", // Prisma: can't reach the database server
  "P1017", // Prisma: the server closed the connection
]);
const UNREACHABLE_WORDS =
  /Connection terminated|connection (was )?closed|timeout exceeded when trying to connect|DatabaseNotReachable|ConnectionClosed|Can't reach database/i;

/** True when `error` means the database could not be reached or went away (rather than refusing a query). */
/**
 * Whether `error`, or an error it wraps, came from the database: an unreachable server or a statement it
 * refused (a constraint, a trigger, a serialization failure), through pg or Prisma.
 */
export function isDatabaseError(error: unknown): boolean {
  if (isDatabaseUnreachable(error)) return true;
  for (let e = error, depth = 0; e instanceof Error && depth < 6; depth++) {
    if (e instanceof pg.DatabaseError || e.name === "PrismaClientKnownRequestError") return true;
    e = e.cause;
  }
  return false;
}

export function isDatabaseUnreachable(error: unknown): boolean {
  for (
    let e = error as { code?: unknown; message?: unknown; cause?: unknown; kind?: unknown } | undefined, depth = 0;
    e && depth < 6;
    depth++
  ) {
    if (e instanceof DatabaseTimeout) return true;
    if (typeof e.code === "string" && UNREACHABLE_CODES.has(e.code)) return true;
    if (typeof e.kind === "string" && UNREACHABLE_WORDS.test(e.kind)) return true;
    if (typeof e.message === "string" && UNREACHABLE_WORDS.test(e.message)) return true;
    if (Array.isArray((e as { errors?: unknown }).errors))
      return (e as { errors: unknown[] }).errors.some(isDatabaseUnreachable);
    e = e.cause as typeof e;
  }
  return false;
}

/**
 * Tells `log` of a database outage once, not at every failed attempt (a heartbeat every 10 s, each
 * queue's poll every 2 s): when it starts, and when the database answers again (`answered`). Errors
 * that are not the database being out of reach are logged as they come.
 */
export function outageLog(log: (line: string) => void, who: string) {
  let since: number | undefined;
  return {
    failed(error: unknown, what = who): void {
      const message =
        error instanceof Error ? error.message : String((error as { message?: unknown })?.message ?? error);
      if (!isDatabaseUnreachable(error)) return log(`${what}: ${message}`);
      if (since !== undefined) return;
      since = Date.now();
      log(`${who}: can't reach the database (${message}); trying again quietly until it answers.`);
    },
    answered(): void {
      if (since === undefined) return;
      log(`${who}: the database answers again, after ${Math.round((Date.now() - since) / 1000)} s.`);
      since = undefined;
    },
  };
}
