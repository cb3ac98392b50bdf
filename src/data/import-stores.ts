// What `poolpatrol import KIND` reads and writes for each kind: the stored records as the import
// compares them, writing the added and changed ones, and the vanpools a plan re-checks. Plain pg on
// the import's transaction: Prisma spent seconds turning 100,000 rows (and their JSON) to and fro.
import type pg from "pg";
import { employeeKind } from "../domain/employee-import.js";
import type { EmployeeFixture, ShiftFixture } from "../domain/fixture-schema.js";
import type { ImportKindName, ImportPlan } from "../domain/record-import.js";
import type { RiderRecord } from "../domain/rider-import.js";
import type { Schedule } from "../domain/schedule.js";
import { shiftKind } from "../domain/shift-import.js";
import { type VanpoolRecord, vanpoolKind } from "../domain/vanpool-import.js";
import { inChunks, pgBulk, writeEmployees, writeShifts, writeVanpools } from "./seed.js";

type Tx = pg.ClientBase;

export interface ImportStore<R> {
  /** Stored records by id. */
  load(tx: Tx): Promise<Map<string, R>>;
  write(tx: Tx, records: R[], source: string): Promise<void>;
  /** Vanpools whose checked facts the plan changes (a rider's, their shift's, the van's) or a rider joins: re-checked, case or not. */
  rechecked(tx: Tx, plan: ImportPlan<R>): Promise<string[]>;
  /** Vanpools a rider leaves or that stop running: re-checked when they have an open case (it may now pass). */
  relieved?(plan: ImportPlan<R>): string[];
}

/** The changed or leaving records of a plan with a change to a field a check reads (ImportKind.checked). */
const checkedChanges = <R>(plan: ImportPlan<R>, checked: readonly string[]) =>
  [...plan.changed, ...plan.leaving].filter((c) => c.changes.some((f) => checked.includes(f.field)));

const distinct = (ids: string[]) => [...new Set(ids)].sort();

/** Vanpools with an active rider among these employees. */
const vanpoolsOfEmployees = async (tx: Tx, employeeIds: string[]) =>
  (
    await tx.query<{ vanpool_id: string }>(
      `SELECT DISTINCT vanpool_id FROM riders WHERE status = 'active' AND employee_id = ANY($1) ORDER BY vanpool_id`,
      [employeeIds],
    )
  ).rows.map((r) => r.vanpool_id);

const employees: ImportStore<EmployeeFixture> = {
  // Rows as arrays, each made into its record in one step: a re-import reads every stored employee.
  async load(tx) {
    const { rows } = await tx.query<
      [
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        number | null,
        number | null,
        string | null,
        string[],
        string,
        string | null,
        string,
        string | null,
      ]
    >({
      text: `SELECT id, first_name, last_name, email, work_site, home_address, home_city, home_state, home_zip,
                    home_lat, home_lng, shift_id, pto_dates, time_type, supervisor, status, separation_date
             FROM employees ORDER BY id`,
      rowMode: "array",
    });
    const stored = new Map<string, EmployeeFixture>();
    for (const [
      id,
      first,
      last,
      email,
      site,
      address,
      city,
      state,
      zip,
      lat,
      lng,
      shift,
      pto,
      time,
      sup,
      status,
      sep,
    ] of rows)
      stored.set(id, {
        employee_id: id,
        first_name: first,
        last_name: last,
        email,
        work_site: site,
        home_address: address,
        home_city: city,
        home_state: state,
        home_zip: zip,
        home_coords: lat !== null && lng !== null ? { lat, lng } : null,
        shift_id: shift,
        pto_dates: pto,
        time_type: time as EmployeeFixture["time_type"],
        supervisor: sup,
        status: status as EmployeeFixture["status"],
        separation_date: sep,
      });
    return stored;
  },
  write: (tx, records) => writeEmployees(pgBulk(tx), records, "update"),
  rechecked: (tx, plan) =>
    vanpoolsOfEmployees(
      tx,
      checkedChanges(plan, employeeKind.checked).map((c) => c.record.employee_id),
    ),
};

const shifts: ImportStore<ShiftFixture> = {
  async load(tx) {
    const { rows } = await tx.query<ShiftFixture>("SELECT id, name, schedule FROM shifts ORDER BY id");
    return new Map(rows.map((s) => [s.id, { id: s.id, name: s.name, schedule: s.schedule as Schedule }]));
  },
  write: (tx, records) => writeShifts(pgBulk(tx), records, "update"),
  async rechecked(tx, plan) {
    const changed = checkedChanges(plan, shiftKind.checked).map((c) => c.record.id);
    const on = await tx.query<{ id: string }>("SELECT id FROM employees WHERE shift_id = ANY($1)", [changed]);
    return vanpoolsOfEmployees(
      tx,
      on.rows.map((e) => e.id),
    );
  },
};

const vanpools: ImportStore<VanpoolRecord> = {
  async load(tx) {
    const { rows } = await tx.query<{
      id: string;
      name: string | null;
      work_site: string;
      work_site_address: string;
      work_site_lat: number;
      work_site_lng: number;
      pickup_address: string | null;
      pickup_lat: number | null;
      pickup_lng: number | null;
      capacity: number;
      coordinator_id: string | null;
      status: VanpoolRecord["status"];
      operating_schedule: Schedule | null;
      time_zone: string | null;
    }>(
      `SELECT id, name, work_site, work_site_address, work_site_lat, work_site_lng, pickup_address, pickup_lat,
              pickup_lng, capacity, coordinator_id, status, operating_schedule, time_zone
       FROM vanpools ORDER BY id`,
    );
    return new Map(
      rows.map((v) => [
        v.id,
        {
          vanpool_id: v.id,
          name: v.name,
          work_site: v.work_site,
          work_site_address: v.work_site_address,
          work_site_coords: { lat: v.work_site_lat, lng: v.work_site_lng },
          pickup_address: v.pickup_address,
          pickup_coords:
            v.pickup_lat !== null && v.pickup_lng !== null ? { lat: v.pickup_lat, lng: v.pickup_lng } : null,
          capacity: v.capacity,
          coordinator_id: v.coordinator_id,
          status: v.status,
          operating_schedule: v.operating_schedule,
          time_zone: v.time_zone,
        },
      ]),
    );
  },
  write: (tx, records) => writeVanpools(pgBulk(tx), records, "update"),
  rechecked: async (_tx, plan) =>
    distinct(
      checkedChanges(plan, vanpoolKind.checked)
        .filter((c) => c.record.status === "active")
        .map((c) => c.record.vanpool_id),
    ),
  relieved: (plan) =>
    distinct(
      [...plan.changed, ...plan.leaving]
        .filter((c) => c.record.status !== "active" && c.changes.some((f) => f.field === "status"))
        .map((c) => c.record.vanpool_id),
    ),
};

const riders: ImportStore<RiderRecord> = {
  async load(tx) {
    const { rows } = await tx.query<RiderRecord>(
      "SELECT participant_id, vanpool_id, employee_id, status FROM riders ORDER BY participant_id",
    );
    return new Map(rows.map((r) => [r.participant_id, r]));
  },
  // A rider who leaves keeps the row: status removed, when and why.
  write: (tx, records, source) =>
    inChunks(records, (json) =>
      tx.query(
        `INSERT INTO riders (participant_id, vanpool_id, employee_id, status)
        SELECT r.participant_id, r.vanpool_id, r.employee_id, r.status::"RiderStatus"
        FROM json_to_recordset($1::json) AS r(participant_id text, vanpool_id text, employee_id text, status text)
        ON CONFLICT (participant_id) DO UPDATE SET status = EXCLUDED.status,
          joined_at = CASE WHEN riders.status = 'removed' AND EXCLUDED.status = 'active' THEN now() ELSE riders.joined_at END,
          removed_at = CASE WHEN EXCLUDED.status = 'removed' THEN now() ELSE NULL END,
          removed_reason = CASE WHEN EXCLUDED.status = 'removed' THEN $2::text ELSE NULL END`,
        [json, `absent from the roster ${source}`],
      ),
    ),
  rechecked: async (_tx, plan) =>
    distinct(
      [...plan.added, ...plan.changed.map((c) => c.record)]
        .filter((r) => r.status === "active")
        .map((r) => r.vanpool_id),
    ),
  relieved: (plan) =>
    distinct(
      [...plan.changed, ...plan.leaving].filter((c) => c.record.status === "removed").map((c) => c.record.vanpool_id),
    ),
};

export const IMPORT_STORES: Record<ImportKindName, ImportStore<unknown>> = {
  employees: employees as ImportStore<unknown>,
  shifts: shifts as ImportStore<unknown>,
  vanpools: vanpools as ImportStore<unknown>,
  riders: riders as ImportStore<unknown>,
};
