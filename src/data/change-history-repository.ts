// Every change an import applied, one field a row (table change_history), and applying an import
// of any kind: the stored records are read, the plan made from them, and its rows and their history
// written in one transaction.
import type { ImportKindName, ImportPlan, ImportRefs } from "../domain/record-import.js";
import { IMPORT_STORES, type ImportStore } from "./import-stores.js";
import { type SqlExecutor, transactionExecutor } from "./job-executor.js";
import type { Prisma, PrismaClient } from "./prisma.js";
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
 * Re-audits (committed with the import): each vanpool with an open case whose riders' facts change,
 * and each vanpool a rider joins.
 */
export async function applyImport<R>(
  prisma: PrismaClient,
  kind: ImportKindName,
  options: {
    source: string;
    actor: string;
    dryRun: boolean;
    reaudit?: (vanpoolId: string, db: SqlExecutor) => Promise<unknown>;
    /** Runs in the import's transaction once it is written (the import's own record, its summary's job). */
    applied?: (result: ImportPlan<R> & { reaudits: string[] }, tx: Prisma.TransactionClient) => Promise<void>;
  },
  plan: (stored: Map<string, R>, refs: ImportRefs) => ImportPlan<R>,
  idOf: (record: R) => string,
): Promise<ImportPlan<R> & { reaudits: string[] }> {
  const store = IMPORT_STORES[kind] as ImportStore<R>;
  return prisma.$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('poolpatrol import'))`;
      const stored = await store.load(tx);
      const result = plan(stored, await loadRefs(tx));
      const touched = await store.touched(tx, result);
      const withOpenCase = (
        await tx.$queryRaw<{ vanpool_id: string }[]>`
          SELECT DISTINCT vanpool_id FROM cases
          WHERE status NOT IN ('resolved', 'cancelled') AND vanpool_id = ANY(${touched})`
      ).map((r) => r.vanpool_id);
      const reaudits = [...new Set([...withOpenCase, ...(store.joined?.(result) ?? [])])].sort();
      if (options.dryRun) return { ...result, reaudits };
      const touchedRecords = [...result.changed, ...result.leaving];
      await store.write(tx, [...result.added, ...touchedRecords.map((c) => c.record)], options.source);
      const made = { entity: ENTITY_OF[kind], source_file: options.source, actor: options.actor };
      const history = [
        ...result.added.map((r) => ({
          ...made,
          entity_id: idOf(r),
          field: ADDED_FIELD,
          old_value: null,
          new_value: "added",
        })),
        ...touchedRecords.flatMap((c) =>
          c.changes.map((f) => ({
            ...made,
            entity_id: idOf(c.record),
            field: f.field,
            old_value: f.old,
            new_value: f.new,
          })),
        ),
      ];
      // A first import adds every record: one statement per chunk, as the records are written.
      await inChunks(
        history,
        (json) => tx.$executeRaw`
          INSERT INTO change_history (entity, entity_id, field, old_value, new_value, source_file, actor)
          SELECT r.entity, r.entity_id, r.field, r.old_value, r.new_value, r.source_file, r.actor
          FROM jsonb_to_recordset(${json}::jsonb) AS r(entity text, entity_id text, field text, old_value text,
            new_value text, source_file text, actor text)`,
      );
      await options.applied?.({ ...result, reaudits }, tx);
      if (options.reaudit) for (const vanpoolId of reaudits) await options.reaudit(vanpoolId, transactionExecutor(tx));
      return { ...result, reaudits };
    },
    { timeout: 600_000, maxWait: 10_000 },
  );
}

async function loadRefs(tx: Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0]): Promise<ImportRefs> {
  const shifts = await tx.shift.findMany({ select: { id: true } });
  const employees = await tx.employee.findMany({ select: { id: true } });
  const vanpools = await tx.vanpool.findMany({ select: { id: true, status: true } });
  return {
    shiftIds: new Set(shifts.map((s) => s.id)),
    employeeIds: new Set(employees.map((e) => e.id)),
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
