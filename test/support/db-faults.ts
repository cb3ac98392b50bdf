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

/** The next row inserted into `table` fails once. */
export async function failNextInsert(db: PrismaClient, fault: { name: string; table: string }): Promise<void> {
  await failOnce(db, fault.name, `BEFORE INSERT ON ${fault.table} FOR EACH ROW`);
}

async function failOnce(db: PrismaClient, name: string, on: string): Promise<void> {
  // A sequence counts outside the failing transaction: only the first write fails.
  await db.$executeRawUnsafe(`CREATE SEQUENCE fault_${name}`);
  await db.$executeRawUnsafe(
    `CREATE FUNCTION fault_${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
       IF nextval('fault_${name}') = 1 THEN RAISE EXCEPTION 'injected fault: ${name}'; END IF; RETURN NEW; END $$`,
  );
  await db.$executeRawUnsafe(`CREATE TRIGGER fault_${name} ${on} EXECUTE FUNCTION fault_${name}()`);
}

/** Whether the fault has fired. */
export async function faultFired(db: PrismaClient, name: string): Promise<boolean> {
  const [row] = await db.$queryRawUnsafe<{ is_called: boolean }[]>(`SELECT is_called FROM fault_${name}`);
  return Boolean(row?.is_called);
}
