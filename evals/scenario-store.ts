// A database for lifecycle scenarios, apart from the product's own data: a database
// on the embedded PostgreSQL in the data folder (or any server URL a caller gives),
// emptied before each scenario.

import { createCheckpointer } from "../src/agents/checkpointer.js";
import type { Settings } from "../src/config/settings.js";
import { ensureDatabaseExists } from "../src/data/database.js";
import { startEmbeddedPostgres } from "../src/data/embedded-postgres.js";
import { migrateDatabase } from "../src/data/migrations.js";
import { createDataClients, type DataClients } from "../src/data/prisma.js";

export interface ScenarioStore extends DataClients {
  /** Empties every table, the agents' checkpoints included. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

const EVAL_DATABASE = "poolpatrol_eval";

export async function openScenarioStore(settings: Settings, databaseUrl?: string): Promise<ScenarioStore> {
  let url = databaseUrl;
  let stop = async () => {};
  if (!url) {
    const server = await startEmbeddedPostgres({ dataDir: settings.dataDir });
    await ensureDatabaseExists(server.serverUrl, EVAL_DATABASE);
    url = server.urlFor(EVAL_DATABASE);
    stop = server.stop;
  }
  await migrateDatabase(url);
  const clients = createDataClients(url);
  // The agents' checkpoint tables must exist before the first reset.
  await createCheckpointer(clients.pool);
  const tables = await clients.pool.query<{ name: string }>(
    `SELECT quote_ident(schemaname) || '.' || quote_ident(tablename) AS name FROM pg_tables
     WHERE (schemaname = 'public' AND tablename <> '_prisma_migrations') OR (schemaname = 'langgraph' AND tablename <> 'checkpoint_migrations')`,
  );
  return {
    ...clients,
    async reset() {
      await clients.pool.query(`TRUNCATE ${tables.rows.map((t) => t.name).join(", ")} RESTART IDENTITY CASCADE`);
    },
    async close() {
      await clients.prisma.$disconnect();
      await clients.pool.end();
      await stop();
    },
  };
}
