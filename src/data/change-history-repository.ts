// Every change an import applied, one field a row (table change_history), and applying an
// employee import: the stored employees are read, the plan made from them, and its rows and
// their history written in one transaction.
import type { EmployeeImportPlan } from "../domain/employee-import.js";
import type { EmployeeFixture } from "../domain/fixture-schema.js";
import { type SqlExecutor, transactionExecutor } from "./job-executor.js";
import type { PrismaClient } from "./prisma.js";
import { inChunks, writeEmployees } from "./seed.js";

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

/**
 * Reads the stored employees and shift ids, lets `plan` compare the file with them (it throws to
 * refuse the file) and, unless `dryRun`, writes the added, changed and leaving employees with one
 * history row per changed field. All or nothing; imports run one at a time.
 */
export async function importEmployees(
  prisma: PrismaClient,
  options: {
    source: string;
    actor: string;
    dryRun: boolean;
    /** Queues, in the import's transaction, the re-audit of a vanpool whose open case has a changed rider. */
    reaudit?: (vanpoolId: string, db: SqlExecutor) => Promise<unknown>;
  },
  plan: (stored: Map<string, EmployeeFixture>, shiftIds: Set<string>) => EmployeeImportPlan,
): Promise<EmployeeImportPlan & { reaudits: string[] }> {
  return prisma.$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('poolpatrol import employees'))`;
      const rows = await tx.employee.findMany({ orderBy: { id: "asc" } });
      const stored = new Map(
        rows.map((e) => [
          e.id,
          {
            employee_id: e.id,
            first_name: e.firstName,
            last_name: e.lastName,
            email: e.email,
            work_site: e.workSite,
            home_address: e.homeAddress,
            home_city: e.homeCity,
            home_state: e.homeState,
            home_zip: e.homeZip,
            home_coords: e.homeLat !== null && e.homeLng !== null ? { lat: e.homeLat, lng: e.homeLng } : null,
            shift_id: e.shiftId,
            pto_dates: e.ptoDates,
            time_type: e.timeType as EmployeeFixture["time_type"],
            supervisor: e.supervisor,
            status: e.status as EmployeeFixture["status"],
          },
        ]),
      );
      const shifts = await tx.shift.findMany({ select: { id: true } });
      const result = plan(stored, new Set(shifts.map((s) => s.id)));
      // Vanpools with an open case and an active rider whose record changes (or who leaves).
      const changedIds = [...result.changed, ...result.leaving].map((c) => c.employee.employee_id);
      const reaudits = (
        await tx.$queryRaw<{ vanpool_id: string }[]>`
          SELECT DISTINCT r.vanpool_id FROM riders r
          JOIN cases c ON c.vanpool_id = r.vanpool_id AND c.status NOT IN ('resolved', 'cancelled')
          WHERE r.status = 'active' AND r.employee_id = ANY(${changedIds})
          ORDER BY r.vanpool_id`
      ).map((r) => r.vanpool_id);
      if (options.dryRun) return { ...result, reaudits };
      const touched = [...result.changed, ...result.leaving];
      await writeEmployees(tx, [...result.added, ...touched.map((c) => c.employee)], "update");
      const made = { entity: "employee", source_file: options.source, actor: options.actor };
      const history = [
        ...result.added.map((e) => ({
          ...made,
          entity_id: e.employee_id,
          field: ADDED_FIELD,
          old_value: null,
          new_value: "added",
        })),
        ...touched.flatMap((c) =>
          c.changes.map((f) => ({
            ...made,
            entity_id: c.employee.employee_id,
            field: f.field,
            old_value: f.old,
            new_value: f.new,
          })),
        ),
      ];
      // A first import adds every employee: one statement per chunk, as the employees are written.
      await inChunks(
        history,
        (json) => tx.$executeRaw`
          INSERT INTO change_history (entity, entity_id, field, old_value, new_value, source_file, actor)
          SELECT r.entity, r.entity_id, r.field, r.old_value, r.new_value, r.source_file, r.actor
          FROM jsonb_to_recordset(${json}::jsonb) AS r(entity text, entity_id text, field text, old_value text,
            new_value text, source_file text, actor text)`,
      );
      if (options.reaudit) for (const vanpoolId of reaudits) await options.reaudit(vanpoolId, transactionExecutor(tx));
      return { ...result, reaudits };
    },
    { timeout: 600_000, maxWait: 10_000 },
  );
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
