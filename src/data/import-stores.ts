// What `poolpatrol import KIND` reads and writes for each kind: the stored records as the import
// compares them, writing the added and changed ones, and the vanpools a plan touches.
import type { EmployeeFixture, ShiftFixture } from "../domain/fixture-schema.js";
import type { ImportKindName, ImportPlan } from "../domain/record-import.js";
import type { RiderRecord } from "../domain/rider-import.js";
import type { Schedule } from "../domain/schedule.js";
import type { VanpoolRecord } from "../domain/vanpool-import.js";
import type { Prisma } from "./prisma.js";
import { inChunks, writeEmployees, writeShifts, writeVanpools } from "./seed.js";

type Tx = Prisma.TransactionClient;

export interface ImportStore<R> {
  /** Stored records by id. */
  load(tx: Tx): Promise<Map<string, R>>;
  write(tx: Tx, records: R[], source: string): Promise<void>;
  /** Vanpools whose riders' facts the plan changes (re-audited when they have an open case). */
  touched(tx: Tx, plan: ImportPlan<R>): Promise<string[]>;
  /** Vanpools a rider joins: audited whether or not they have a case. */
  joined?(plan: ImportPlan<R>): string[];
  /** Other vanpools audited whether or not they have a case (a rider whose employment may have ended). */
  audited?(tx: Tx, plan: ImportPlan<R>): Promise<string[]>;
}

/** Vanpools with an active rider among these employees. */
const vanpoolsOfEmployees = async (tx: Tx, employeeIds: string[]) =>
  (
    await tx.$queryRaw<{ vanpool_id: string }[]>`
      SELECT DISTINCT vanpool_id FROM riders WHERE status = 'active' AND employee_id = ANY(${employeeIds})
      ORDER BY vanpool_id`
  ).map((r) => r.vanpool_id);

const employees: ImportStore<EmployeeFixture> = {
  async load(tx) {
    const rows = await tx.employee.findMany({ orderBy: { id: "asc" } });
    return new Map(
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
          separation_date: e.separationDate,
        },
      ]),
    );
  },
  write: (tx, records) => writeEmployees(tx, records, "update"),
  touched: (tx, plan) =>
    vanpoolsOfEmployees(
      tx,
      [...plan.changed, ...plan.leaving].map((c) => c.record.employee_id),
    ),
  // A status or separation date that changes may end an employment: the employment check decides.
  audited: (tx, plan) =>
    vanpoolsOfEmployees(
      tx,
      [...plan.changed, ...plan.leaving]
        .filter((c) => c.changes.some((f) => f.field === "status" || f.field === "separation_date"))
        .map((c) => c.record.employee_id),
    ),
};

const shifts: ImportStore<ShiftFixture> = {
  async load(tx) {
    const rows = await tx.shift.findMany({ orderBy: { id: "asc" } });
    return new Map(rows.map((s) => [s.id, { id: s.id, name: s.name, schedule: s.schedule as unknown as Schedule }]));
  },
  write: (tx, records) => writeShifts(tx, records, "update"),
  async touched(tx, plan) {
    const changed = plan.changed.map((c) => c.record.id);
    const on = await tx.employee.findMany({ where: { shiftId: { in: changed } }, select: { id: true } });
    return vanpoolsOfEmployees(
      tx,
      on.map((e) => e.id),
    );
  },
};

const vanpools: ImportStore<VanpoolRecord> = {
  async load(tx) {
    const rows = await tx.vanpool.findMany({ orderBy: { id: "asc" } });
    return new Map(
      rows.map((v) => [
        v.id,
        {
          vanpool_id: v.id,
          name: v.name,
          work_site: v.workSite,
          work_site_address: v.workSiteAddress,
          work_site_coords: { lat: v.workSiteLat, lng: v.workSiteLng },
          pickup_address: v.pickupAddress,
          pickup_coords: v.pickupLat !== null && v.pickupLng !== null ? { lat: v.pickupLat, lng: v.pickupLng } : null,
          capacity: v.capacity,
          coordinator_id: v.coordinatorId,
          status: v.status,
          operating_schedule: (v.operatingSchedule as unknown as Schedule | null) ?? null,
          time_zone: v.timeZone,
        },
      ]),
    );
  },
  write: (tx, records) => writeVanpools(tx, records, "update"),
  touched: async (_tx, plan) => [...plan.changed, ...plan.leaving].map((c) => c.record.vanpool_id).sort(),
};

const riders: ImportStore<RiderRecord> = {
  async load(tx) {
    const rows = await tx.rider.findMany({ orderBy: { participantId: "asc" } });
    return new Map(
      rows.map((r) => [
        r.participantId,
        { participant_id: r.participantId, vanpool_id: r.vanpoolId, employee_id: r.employeeId, status: r.status },
      ]),
    );
  },
  // A rider who leaves keeps the row: status removed, when and why.
  write: (tx, records, source) =>
    inChunks(
      records,
      (json) => tx.$executeRaw`
        INSERT INTO riders (participant_id, vanpool_id, employee_id, status)
        SELECT r.participant_id, r.vanpool_id, r.employee_id, r.status::"RiderStatus"
        FROM jsonb_to_recordset(${json}::jsonb) AS r(participant_id text, vanpool_id text, employee_id text, status text)
        ON CONFLICT (participant_id) DO UPDATE SET status = EXCLUDED.status,
          joined_at = CASE WHEN riders.status = 'removed' AND EXCLUDED.status = 'active' THEN now() ELSE riders.joined_at END,
          removed_at = CASE WHEN EXCLUDED.status = 'removed' THEN now() ELSE NULL END,
          removed_reason = CASE WHEN EXCLUDED.status = 'removed' THEN ${`absent from the roster ${source}`} ELSE NULL END`,
    ),
  touched: async (_tx, plan) => [...new Set([...plan.changed, ...plan.leaving].map((c) => c.record.vanpool_id))].sort(),
  joined: (plan) =>
    [
      ...new Set(
        [...plan.added, ...plan.changed.map((c) => c.record)]
          .filter((r) => r.status === "active")
          .map((r) => r.vanpool_id),
      ),
    ].sort(),
};

export const IMPORT_STORES: Record<ImportKindName, ImportStore<unknown>> = {
  employees: employees as ImportStore<unknown>,
  shifts: shifts as ImportStore<unknown>,
  vanpools: vanpools as ImportStore<unknown>,
  riders: riders as ImportStore<unknown>,
};
