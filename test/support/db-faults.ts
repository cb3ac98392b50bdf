// Faults injected in the real database: the next write of a column fails once, as a database
// that drops out right after Slack (or another service) took the call would.
import type { PrismaClient } from "../../src/data/prisma.js";

/** The next write of `column` on a row of `table` matching `when` fails once. */
export async function failNextWrite(
  db: PrismaClient,
  fault: { name: string; table: string; column: string; when: string },
): Promise<void> {
  const { name, table, column, when } = fault;
  await failOnce(
    db,
    name,
    `BEFORE UPDATE OF ${column} ON ${table} FOR EACH ROW WHEN (NEW.${column} IS NOT NULL AND ${when})`,
  );
}

/** The next row inserted into `table` (once `after`, a query on the database's state, holds) fails once. */
export async function failNextInsert(
  db: PrismaClient,
  fault: { name: string; table: string; after?: string },
): Promise<void> {
  await failOnce(db, fault.name, `BEFORE INSERT ON ${fault.table} FOR EACH ROW`, fault.after);
}

/**
 * The next row inserted into `table` once `after` (a query on the database's state, e.g. "a reply is classified")
 * holds waits `seconds` before it is written: the process making it can be killed at that point.
 */
export async function stallNextInsertAfter(
  db: PrismaClient,
  fault: { name: string; table: string; after: string; seconds: number },
): Promise<void> {
  const { name, table, after, seconds } = fault;
  await faultOnce(db, name, `BEFORE INSERT ON ${table} FOR EACH ROW`, `PERFORM pg_sleep(${seconds})`, after);
}

/** Ends the database session of a write stalled by stallNextInsertAfter, once its process is gone. */
export async function endStalledWrites(db: PrismaClient): Promise<void> {
  await db.$queryRawUnsafe(
    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE wait_event = 'PgSleep' AND datname = current_database()",
  );
}

async function failOnce(db: PrismaClient, name: string, on: string, after?: string): Promise<void> {
  await faultOnce(db, name, on, `RAISE EXCEPTION 'injected fault: ${name}'`, after);
}

async function faultOnce(db: PrismaClient, name: string, on: string, act: string, after = "true"): Promise<void> {
  // A sequence counts outside the failing transaction: only the first write is hit.
  await db.$executeRawUnsafe(`CREATE SEQUENCE fault_${name}`);
  await db.$executeRawUnsafe(
    `CREATE FUNCTION fault_${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
       IF (${after}) THEN
         IF nextval('fault_${name}') = 1 THEN ${act}; END IF;
       END IF;
       RETURN NEW; END $$`,
  );
  await db.$executeRawUnsafe(`CREATE TRIGGER fault_${name} ${on} EXECUTE FUNCTION fault_${name}()`);
}

/** Whether the fault has fired. */
export async function faultFired(db: PrismaClient, name: string): Promise<boolean> {
  const [row] = await db.$queryRawUnsafe<{ is_called: boolean }[]>(`SELECT is_called FROM fault_${name}`);
  return Boolean(row?.is_called);
}
