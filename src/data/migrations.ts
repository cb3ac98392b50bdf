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

export async function pendingMigrations(databaseUrl: string): Promise<string[]> {
  const all = fs
    .readdirSync(MIGRATIONS_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const table = await client.query(`SELECT to_regclass('public._prisma_migrations') AS name`);
    if (!table.rows[0]?.name) return all;
    const applied = await client.query(
      `SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const done = new Set(applied.rows.map((r: { migration_name: string }) => r.migration_name));
    return all.filter((name) => !done.has(name));
  } finally {
    await client.end();
  }
}

/** Returns the names of the migrations it applied. */
export async function migrateDatabase(databaseUrl: string): Promise<string[]> {
  const pending = await pendingMigrations(databaseUrl);
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
