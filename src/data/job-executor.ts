// Lets pg-boss write a job inside a Prisma or pg transaction, so a recorded fact and the
// job that acts on it commit (or roll back) together.
import type pg from "pg";
import type { Prisma } from "./prisma.js";

export interface SqlExecutor {
  executeSql(text: string, values: unknown[]): Promise<{ rows: unknown[] }>;
}

export function transactionExecutor(tx: Prisma.TransactionClient): SqlExecutor {
  return {
    async executeSql(text, values) {
      const params = values.map((v) =>
        v === undefined ? null : typeof v === "object" && v !== null && !(v instanceof Date) ? JSON.stringify(v) : v,
      );
      return { rows: await tx.$queryRawUnsafe<unknown[]>(text, ...params) };
    },
  };
}

/** The same for a pg connection inside `inPgTransaction`. */
export function pgExecutor(client: pg.PoolClient): SqlExecutor {
  return { executeSql: (text, values) => client.query(text, values) };
}
