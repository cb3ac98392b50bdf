import { PrismaPg } from "@prisma/adapter-pg";
import type pg from "pg";
import { PrismaClient } from "../generated/prisma/client.js";
import { createPool } from "./pg-pool.js";

export { Prisma } from "../generated/prisma/client.js";
export type { PrismaClient };

/** Prisma for everyday reads and writes, and its pg pool for the few bulk writes. */
export interface DataClients {
  prisma: PrismaClient;
  pool: pg.Pool;
}

export function createDataClients(databaseUrl: string, pool: pg.Pool = createPool(databaseUrl)): DataClients {
  return { prisma: new PrismaClient({ adapter: new PrismaPg(pool) }), pool };
}
