import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "../generated/prisma/client.js";

export type { PrismaClient };
export { Prisma } from "../generated/prisma/client.js";

/** Prisma for everyday reads and writes, and its pg pool for the few bulk writes. */
export interface DataClients {
  prisma: PrismaClient;
  pool: pg.Pool;
}

export function createDataClients(databaseUrl: string): DataClients {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  return { prisma: new PrismaClient({ adapter: new PrismaPg(pool) }), pool };
}
