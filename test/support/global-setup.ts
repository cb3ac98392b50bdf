// One embedded PostgreSQL for the whole run, in a throwaway folder, with a migrated
// template database that each test file clones into a database of its own, and a second template
// with the mock data seeded, for the many tests that start from it (a clone costs less than a seed).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { seedFolder } from "../../src/cases/seed-folder.js";
import { ensureDatabaseExists } from "../../src/data/database.js";
import { startEmbeddedPostgres } from "../../src/data/embedded-postgres.js";
import { migrateDatabase } from "../../src/data/migrations.js";
import { createDataClients } from "../../src/data/prisma.js";
import { MOCK_DIR } from "./fixtures.js";
import { MOCK_TEMPLATE_DATABASE, TEMPLATE_DATABASE } from "./templates.js";

/**
 * embedded-postgres's exit hook (async-exit-hook) ends the process with code 0 on 'beforeExit', which
 * would turn a run with failed tests into a success: keep the exit code vitest chose.
 */
function keepVitestExitCode() {
  let chosen: number | string | undefined;
  process.on("beforeExit", () => {
    if (process.exitCode) chosen = process.exitCode;
  });
  process.on("exit", () => {
    if (chosen) process.exitCode = chosen;
  });
}

export default async function setup(project: TestProject) {
  keepVitestExitCode();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "poolpatrol-test-"));
  // Readable by the unprivileged user PostgreSQL runs as when tests run as root.
  fs.chmodSync(dataDir, 0o755);
  const server = await startEmbeddedPostgres({ dataDir, fast: true });
  await ensureDatabaseExists(server.serverUrl, TEMPLATE_DATABASE);
  await migrateDatabase(server.urlFor(TEMPLATE_DATABASE));
  await seedMockTemplate(server.serverUrl, server.urlFor(MOCK_TEMPLATE_DATABASE));
  project.provide("postgresServerUrl", server.serverUrl);
  return async () => {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}

async function seedMockTemplate(serverUrl: string, url: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${MOCK_TEMPLATE_DATABASE} TEMPLATE ${TEMPLATE_DATABASE}`);
  } finally {
    await admin.end();
  }
  // Closed before any test clones it: PostgreSQL refuses to copy a database someone is connected to.
  const clients = createDataClients(url);
  try {
    await seedFolder(clients, MOCK_DIR);
  } finally {
    await clients.prisma.$disconnect();
    await clients.pool.end();
  }
}

declare module "vitest" {
  export interface ProvidedContext {
    postgresServerUrl: string;
  }
}
