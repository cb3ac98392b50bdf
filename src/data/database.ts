// Opens Pool Patrol's database: the server named by DATABASE_URL, or the embedded
// PostgreSQL in the data folder. Migrations are applied before anything else runs.
import pg from "pg";
import type { Settings } from "../config/settings.js";
import { startEmbeddedPostgres } from "./embedded-postgres.js";
import { migrateDatabase } from "./migrations.js";
import { createPool } from "./pg-pool.js";
import type { DataClients } from "./prisma.js";

const EMBEDDED_DATABASE = "poolpatrol";
/** PostgreSQL's SQLSTATE for "database does not exist". */
const MISSING_DATABASE = "3D000";

export interface Database extends DataClients {
  url: string;
  /** "embedded" or "external", for messages to the user. */
  kind: "embedded" | "external";
  close(): Promise<void>;
}

export async function openDatabase(
  settings: Settings,
  options: { log?: (line: string) => void; connections?: number } = {},
): Promise<Database> {
  let url: string;
  let serverUrl: string | undefined;
  let stopServer = async () => {};
  let kind: Database["kind"];
  if (settings.databaseUrl) {
    url = settings.databaseUrl;
    kind = "external";
  } else {
    const server = await startEmbeddedPostgres({ dataDir: settings.dataDir, notice: options.log });
    url = server.urlFor(EMBEDDED_DATABASE);
    serverUrl = server.serverUrl;
    stopServer = server.stop;
    kind = "embedded";
  }
  // A short command's start-up overlaps its two slow parts: the migration check, on the pool the
  // commands then use (one connection and password handshake instead of two), and loading Prisma's
  // client and its query compiler (WebAssembly; `$connect` does that and does not touch the server).
  const pool = createPool(url, options.connections ?? settings.dbPoolSize);
  const clientsReady = import("./prisma.js").then(async ({ createDataClients }) => {
    const clients = createDataClients(url, pool);
    await clients.prisma.$connect();
    return clients;
  });
  const closeClients = async () => {
    await (await clientsReady.catch(() => undefined))?.prisma.$disconnect();
    await pool.end();
  };
  let clients: DataClients;
  try {
    const applied = await migrateDatabase(url, pool).catch(async (error) => {
      // The embedded server's database is created on first use (checked this way round to save a
      // connection on every start); an external database must exist.
      if (!serverUrl || (error as { code?: string }).code !== MISSING_DATABASE) throw error;
      await ensureDatabaseExists(serverUrl, EMBEDDED_DATABASE);
      return migrateDatabase(url, pool);
    });
    if (applied.length > 0) options.log?.(`Applied ${applied.length} database migration(s): ${applied.join(", ")}`);
    clients = await clientsReady;
  } catch (error) {
    await closeClients();
    await stopServer();
    throw error;
  }
  return {
    ...clients,
    url,
    kind,
    async close() {
      await closeClients();
      await stopServer();
    },
  };
}

export async function ensureDatabaseExists(serverUrl: string, name: string, template?: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const exists = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (exists.rowCount === 0) {
      await client.query(
        `CREATE DATABASE ${pg.escapeIdentifier(name)}${template ? ` TEMPLATE ${pg.escapeIdentifier(template)}` : ""}`,
      );
    }
  } finally {
    await client.end();
  }
}
