// Every change an import applied, one field a row (table change_history), and applying an import
// of any kind: the stored records are read, the plan made from them, and its rows and their history
// written in one transaction.

import type pg from "pg";
import { IMPORTABLE } from "../domain/import-kinds.js";
import type { ImportKindName, ImportPlan, ImportRefs } from "../domain/record-import.js";
import { IMPORT_STORES, type ImportStore } from "./import-stores.js";
import { pgExecutor, type SqlExecutor } from "./job-executor.js";
import { inPgTransaction } from "./pg-pool.js";
import type { PrismaClient } from "./prisma.js";
import { inChunks } from "./seed.js";

export interface ChangeRecord {
  entity: string;
  entity_id: string;
  field: string;
  old_value: string | null;
  new_value: string | null;
  source_file: string;
  actor: string;
  at: Date;
}

/** The field name a history row gives an added record. */
export const ADDED_FIELD = "(record)";

/** The history's entity of each kind. */
export const ENTITY_OF: Record<ImportKindName, string> = {
  employees: "employee",
  shifts: "shift",
  vanpools: "vanpool",
  riders: "rider",
};

/**
 * Reads the stored records of the kind and what a file may refer to, lets `plan` compare the file
 * with them (it throws to refuse the file) and, unless `dryRun`, writes the added, changed and
 * leaving records with one history row per changed field. All or nothing; imports run one at a time.
 * Re-audits (committed with the import): each vanpool whose checked facts change (a rider's home, shift,
 * work site or employment, the shift's times, the van's own) or that a rider joins, case or not, and each
 * vanpool with an open case that a rider leaves or that stops running.
 */
export async function applyImport<R>(
  pool: pg.Pool,
  kind: ImportKindName,
  options: {
    source: string;
    actor: string;
    dryRun: boolean;
    reaudit?: (vanpoolIds: string[], db: SqlExecutor) => Promise<unknown>;
    /** Runs in the import's transaction once it is written (the import's own record, its summary's job). */
    applied?: (result: ImportPlan<R> & { reaudits: string[] }, tx: pg.PoolClient) => Promise<void>;
    /** A transaction of inImportTransaction to run in, with other imports: all commit or none. */
    tx?: pg.PoolClient;
  },
  plan: (stored: Map<string, R>, refs: ImportRefs, added?: (record: R) => void) => Promise<ImportPlan<R>>,
  idOf: (record: R) => string,
): Promise<ImportPlan<R> & { reaudits: string[] }> {
  const store = IMPORT_STORES[kind] as ImportStore<R>;
  const run = async (tx: pg.PoolClient) => {
    const history = (
      rows: { entity_id: string; field: string; old_value: string | null; new_value: string | null }[],
    ) =>
      inChunks(rows, (json) =>
        tx.query(
          `INSERT INTO change_history (entity, entity_id, field, old_value, new_value, source_file, actor)
           SELECT $2, r.entity_id, r.field, r.old_value, r.new_value, $3, $4
           FROM json_to_recordset($1::json) AS r(entity_id text, field text, old_value text, new_value text)`,
          [json, ENTITY_OF[kind], options.source, options.actor],
        ),
      );
    const stored = await store.load(tx);
    // Added records are written while the file is still being read, the database on one core and the
    // import on the other; a file refused later rolls them back with the transaction.
    const adding = options.dryRun
      ? undefined
      : inBatches<R>(async (records) => {
          await store.write(tx, records, options.source);
          await history(
            records.map((r) => ({ entity_id: idOf(r), field: ADDED_FIELD, old_value: null, new_value: "added" })),
          );
        });
    const result = await plan(stored, await loadRefs(tx, IMPORTABLE[kind].kind.refs ?? []), adding?.add).catch(
      async (error: unknown) => {
        // Nothing more is written, and the transaction is rolled back only once the batch under way is done.
        await adding?.abandon();
        throw error;
      },
    );
    await adding?.done();
    const relieved = store.relieved?.(result) ?? [];
    const withOpenCase = relieved.length
      ? (
          await tx.query<{ vanpool_id: string }>(
            `SELECT DISTINCT vanpool_id FROM cases
             WHERE status NOT IN ('resolved', 'cancelled') AND vanpool_id = ANY($1)`,
            [relieved],
          )
        ).rows.map((r) => r.vanpool_id)
      : [];
    const reaudits = [...new Set([...(await store.rechecked(tx, result)), ...withOpenCase])].sort();
    if (options.dryRun) return { ...result, reaudits };
    const touchedRecords = [...result.changed, ...result.leaving];
    await store.write(
      tx,
      touchedRecords.map((c) => c.record),
      options.source,
    );
    await history(
      touchedRecords.flatMap((c) =>
        c.changes.map((f) => ({ entity_id: idOf(c.record), field: f.field, old_value: f.old, new_value: f.new })),
      ),
    );
    await options.applied?.({ ...result, reaudits }, tx);
    if (options.reaudit && reaudits.length > 0) await options.reaudit(reaudits, pgExecutor(tx));
    return { ...result, reaudits };
  };
  return options.tx ? run(options.tx) : inImportTransaction(pool, run);
}

const BATCH = 5_000;

/**
 * Writes records a batch at a time, each batch after the one before, without making the caller wait:
 * `done` waits for the last and throws the first failure (after which nothing more is written);
 * `abandon` writes no further batch and waits for the one under way.
 */
function inBatches<R>(write: (records: R[]) => Promise<void>) {
  let batch: R[] = [];
  let written = Promise.resolve();
  let abandoned = false;
  const flush = () => {
    const records = batch;
    batch = [];
    written = written.then(() => (abandoned ? undefined : write(records)));
    // Told at `done`; until then a failure is not an unhandled rejection.
    written.catch(() => {});
  };
  return {
    add(record: R) {
      batch.push(record);
      if (batch.length >= BATCH) flush();
    },
    async done() {
      if (batch.length > 0) flush();
      await written;
    },
    async abandon() {
      abandoned = true;
      await written.catch(() => {});
    },
  };
}

/** One transaction for one or several imports; imports run one at a time (an advisory lock). */
export function inImportTransaction<T>(pool: pg.Pool, run: (tx: pg.PoolClient) => Promise<T>): Promise<T> {
  return inPgTransaction(pool, async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock(hashtext('poolpatrol import'))");
    return run(tx);
  });
}

/** The references a kind's checker reads (the others empty); ids as one JSON array, not an array literal to parse. */
async function loadRefs(tx: pg.ClientBase, needed: readonly (keyof ImportRefs)[]): Promise<ImportRefs> {
  const ids = async (table: "shifts" | "employees") =>
    (await tx.query<{ ids: string[] }>(`SELECT coalesce(json_agg(id), '[]') AS ids FROM ${table}`)).rows[0]!.ids;
  const vanpools = needed.includes("vanpools")
    ? (await tx.query<{ id: string; status: string }>("SELECT id, status FROM vanpools")).rows
    : [];
  return {
    shiftIds: new Set(needed.includes("shiftIds") ? await ids("shifts") : []),
    employeeIds: new Set(needed.includes("employeeIds") ? await ids("employees") : []),
    vanpools: new Map(vanpools.map((v) => [v.id, v.status === "active"])),
  };
}

export async function changeHistory(prisma: PrismaClient, entity: string, entityId: string): Promise<ChangeRecord[]> {
  const rows = await prisma.changeHistory.findMany({
    where: { entity, entityId },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return rows.map((r) => ({
    entity: r.entity,
    entity_id: r.entityId,
    field: r.field,
    old_value: r.oldValue,
    new_value: r.newValue,
    source_file: r.sourceFile,
    actor: r.actor,
    at: r.createdAt,
  }));
}
