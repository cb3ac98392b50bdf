// Prisma CLI configuration: the JS schema engine over the pg driver adapter, so
// nothing is downloaded at install or run time. Used by `prisma generate` and by
// `poolpatrol db migrate` (which runs `prisma migrate deploy`).
import { defineConfig } from "prisma/config";
import { cliMigrationAdapter } from "./src/data/prisma-cli-adapter.js";

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  experimental: { adapter: true },
  engine: "js",
  adapter: cliMigrationAdapter,
});
