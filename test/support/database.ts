// A fresh database per test file (or per test), cloned from the migrated template, or from the one with
// the mock data seeded (global-setup.ts).
import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";
import { createDataClients, type DataClients, type PrismaClient } from "../../src/data/prisma.js";
import { MOCK_TEMPLATE_DATABASE, TEMPLATE_DATABASE } from "./templates.js";

export interface TestDatabase extends DataClients {
  url: string;
  name: string;
  drop(): Promise<void>;
}

export interface TestDatabaseOptions {
  /** With mock/ seeded. */
  mockData?: boolean;
  /** A copy of another test database, which nobody may be connected to (PostgreSQL refuses to copy one in use). */
  copyOf?: TestDatabase;
}

export async function createTestDatabase(options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const serverUrl = inject("postgresServerUrl");
  const name = `test_${randomBytes(6).toString("hex")}`;
  const template = options.copyOf?.name ?? (options.mockData ? MOCK_TEMPLATE_DATABASE : TEMPLATE_DATABASE);
  await admin(serverUrl, `CREATE DATABASE ${name} TEMPLATE ${template}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const clients = createDataClients(url.toString());
  return {
    ...clients,
    url: url.toString(),
    name,
    async drop() {
      await clients.prisma.$disconnect();
      await clients.pool.end();
      await admin(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

async function admin(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Row counts of every table: "changes nothing" is asserted by comparing two of these. */
export async function tableCounts(prisma: PrismaClient): Promise<Record<string, number>> {
  const rows = await prisma.$queryRawUnsafe<{ table_name: string }[]>(
    `SELECT table_name::text AS table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_name <> '_prisma_migrations' ORDER BY table_name`,
  );
  const counts: Record<string, number> = {};
  for (const { table_name } of rows) {
    const [row] = await prisma.$queryRawUnsafe<{ n: bigint }[]>(`SELECT count(*) AS n FROM "${table_name}"`);
    counts[table_name] = Number(row!.n);
  }
  return counts;
}
