// Applies prisma/migrations with `prisma migrate deploy` (the JS schema engine,
// configured in prisma.config.ts). Skips the CLI when nothing is pending, so a
// normal start costs one query rather than a second process.
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { PROJECT_ROOT } from "../config/settings.js";

const MIGRATIONS_DIR = path.join(PROJECT_ROOT, "prisma", "migrations");
const PRISMA_CLI = path.join(PROJECT_ROOT, "node_modules", "prisma", "build", "index.js");
const PRELOAD = path.join(PROJECT_ROOT, "src", "data", "prisma-cli-preload.cjs");

/** What the check needs: a pg Pool or Client already pointed at the database. */
export type Queryable = Pick<pg.Pool, "query">;

/** PostgreSQL's SQLSTATE for "relation does not exist": no migration was ever applied. */
const UNDEFINED_TABLE = "42P01";

/** One query, on the caller's connection when given one (a start-up then pays for a single connection). */
export async function pendingMigrations(databaseUrl: string, db?: Queryable): Promise<string[]> {
  const all = fs
    .readdirSync(MIGRATIONS_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
  const client = db ? undefined : new pg.Client({ connectionString: databaseUrl });
  await client?.connect();
  try {
    const applied = await (db ?? client!)
      .query<{ migration_name: string }>(
        `SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
      )
      .catch((error) => {
        if ((error as { code?: string }).code === UNDEFINED_TABLE) return { rows: [] };
        throw error;
      });
    const done = new Set(applied.rows.map((r) => r.migration_name));
    return all.filter((name) => !done.has(name));
  } finally {
    await client?.end();
  }
}

/** Returns the names of the migrations it applied. */
export async function migrateDatabase(databaseUrl: string, db?: Queryable): Promise<string[]> {
  const pending = await pendingMigrations(databaseUrl, db);
  if (pending.length === 0) return [];
  try {
    await promisify(execFile)(process.execPath, [PRISMA_CLI, "migrate", "deploy", "--config", "prisma.config.ts"], {
      cwd: PROJECT_ROOT,
      env: {
        ...process.env,
        POOLPATROL_PRISMA_URL: databaseUrl,
        NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --require ${PRELOAD}`.trim(),
        PRISMA_HIDE_UPDATE_MESSAGE: "1",
      },
    });
  } catch (error) {
    const output = error as { stdout?: string; stderr?: string };
    throw new Error(`Database migration failed:\n${output.stderr || output.stdout || String(error)}`);
  }
  return pending;
}

/**
 * Runs another library's schema set-up (say the checkpoint tables) holding a lock of this database,
 * so processes starting together on a fresh database run it one after the other instead of racing
 * to create the same tables. The lock lives on a connection of the pool the set-up does not use
 * meanwhile (so the pool needs two).
 */
export async function oneSetupAtATime<T>(pool: pg.Pool, name: string, setUp: () => Promise<T>): Promise<T> {
  const lock = await pool.connect();
  try {
    await lock.query("SELECT pg_advisory_lock(hashtext($1))", [name]);
    return await setUp();
  } finally {
    // Ending the session releases its lock.
    lock.release(true);
  }
}
