// Reads vanpools, riders, employees and shifts as plain snapshots. A page of
// vanpools costs a fixed handful of queries, never one per rider.
import type pg from "pg";
import type { LatLng } from "../domain/geo.js";
import type { Schedule } from "../domain/schedule.js";
import type { RiderSnapshot, VanpoolSnapshot } from "../domain/snapshot.js";
import type { Prisma, PrismaClient } from "./prisma.js";

const vanpoolWithRiders = {
  riders: {
    where: { status: "active" },
    orderBy: { employeeId: "asc" },
    include: { employee: { include: { shift: true } } },
  },
} satisfies Prisma.VanpoolInclude;

type EmployeeRow = Pick<
  Prisma.EmployeeGetPayload<object>,
  | "id"
  | "firstName"
  | "lastName"
  | "email"
  | "workSite"
  | "homeCity"
  | "homeState"
  | "homeZip"
  | "homeLat"
  | "homeLng"
  | "ptoDates"
  | "status"
  | "separationDate"
> & {
  shift: Pick<Prisma.ShiftGetPayload<object>, "id" | "name" | "schedule"> | null;
  statusSince?: { on: string; source: string } | null;
};
type VanpoolRow = Omit<Prisma.VanpoolGetPayload<object>, "createdAt" | "updatedAt"> & {
  riders: { participantId: string; employee: EmployeeRow }[];
};

export interface VanpoolQuery {
  ids?: string[];
  activeOnly?: boolean;
  /** Keyset pagination: vanpools after this id. */
  afterId?: string;
  take?: number;
}

export async function findVanpoolSnapshots(prisma: PrismaClient, query: VanpoolQuery = {}): Promise<VanpoolSnapshot[]> {
  const rows = await prisma.vanpool.findMany({
    where: {
      ...(query.ids ? { id: { in: query.ids } } : {}),
      ...(query.activeOnly ? { status: "active" } : {}),
      ...(query.afterId ? { id: { gt: query.afterId } } : {}),
    },
    orderBy: { id: "asc" },
    ...(query.take ? { take: query.take } : {}),
    include: vanpoolWithRiders,
  });
  const since = await statusSince(
    prisma,
    rows.flatMap((v) => v.riders.filter((r) => r.employee.status !== "active").map((r) => r.employee.id)),
  );
  return rows.map((v) =>
    toVanpoolSnapshot({
      ...v,
      riders: v.riders.map((r) => ({
        ...r,
        employee: { ...r.employee, statusSince: since.get(r.employee.id) ?? null },
      })),
    }),
  );
}

/** When each employee's stored status last changed, and by which import (the change history). */
async function statusSince(
  prisma: PrismaClient,
  employeeIds: string[],
): Promise<Map<string, { on: string; source: string }>> {
  if (employeeIds.length === 0) return new Map();
  const rows = await prisma.changeHistory.findMany({
    where: { entity: "employee", field: "status", entityId: { in: employeeIds } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return new Map(rows.map((r) => [r.entityId, { on: r.createdAt.toISOString().slice(0, 10), source: r.sourceFile }]));
}

/**
 * The active vanpools of `ids` (a page of a sweep) in two queries over pg: Prisma's nested
 * include compiled and joined 10,000 vanpools' riders in JavaScript, the largest CPU cost of a sweep.
 */
export function findActiveVanpoolSnapshots(pool: pg.Pool, ids: string[]): Promise<VanpoolSnapshot[]> {
  return snapshotsOverPg(pool, ids, { activeOnly: true });
}

/** The vanpools of `ids` whatever their status (the cases of a sweep page), read as `findActiveVanpoolSnapshots` does. */
export function findVanpoolSnapshotsOf(pool: pg.Pool, ids: string[]): Promise<VanpoolSnapshot[]> {
  return snapshotsOverPg(pool, ids, { activeOnly: false });
}

async function snapshotsOverPg(
  pool: pg.Pool,
  ids: string[],
  { activeOnly }: { activeOnly: boolean },
): Promise<VanpoolSnapshot[]> {
  if (ids.length === 0) return [];
  const [vanpools, riders] = await Promise.all([
    pool.query<Omit<VanpoolRow, "riders">>(
      `SELECT id, name, status, work_site AS "workSite", work_site_address AS "workSiteAddress",
              work_site_lat AS "workSiteLat", work_site_lng AS "workSiteLng", pickup_address AS "pickupAddress",
              pickup_lat AS "pickupLat", pickup_lng AS "pickupLng", capacity, coordinator_id AS "coordinatorId",
              operating_schedule AS "operatingSchedule", time_zone AS "timeZone"
       FROM vanpools WHERE id = ANY($1::text[]) AND ($2::boolean IS FALSE OR status = 'active') ORDER BY id`,
      [ids, activeOnly],
    ),
    pool.query<Omit<EmployeeRow, "shift"> & Record<"vanpoolId" | "participantId", string> & RiderShift>(
      `SELECT r.vanpool_id AS "vanpoolId", r.participant_id AS "participantId", e.id, e.first_name AS "firstName",
              e.last_name AS "lastName", e.email, e.work_site AS "workSite", e.home_city AS "homeCity",
              e.home_state AS "homeState", e.home_zip AS "homeZip", e.home_lat AS "homeLat", e.home_lng AS "homeLng",
              COALESCE(e.pto_dates, '{}') AS "ptoDates", e.status, e.separation_date AS "separationDate",
              s.id AS "shiftId", s.name AS "shiftName", s.schedule AS "shiftSchedule",
              CASE WHEN e.status <> 'active' THEN (
                SELECT json_build_object('on', to_char(h.created_at, 'YYYY-MM-DD'), 'source', h.source_file)
                FROM change_history h
                WHERE h.entity = 'employee' AND h.entity_id = e.id AND h.field = 'status'
                ORDER BY h.created_at DESC, h.id DESC LIMIT 1) END AS "statusSince"
       FROM riders r JOIN employees e ON e.id = r.employee_id LEFT JOIN shifts s ON s.id = e.shift_id
       WHERE r.vanpool_id = ANY($1::text[]) AND r.status = 'active'
       ORDER BY r.vanpool_id, r.employee_id`,
      [ids],
    ),
  ]);
  const byVanpool = new Map<string, VanpoolRow["riders"]>();
  for (const { vanpoolId, participantId, shiftId, shiftName, shiftSchedule, ...employee } of riders.rows) {
    const shift = shiftId ? { id: shiftId, name: shiftName!, schedule: shiftSchedule } : null;
    const list = byVanpool.get(vanpoolId) ?? [];
    if (list.length === 0) byVanpool.set(vanpoolId, list);
    list.push({ participantId, employee: { ...employee, shift } });
  }
  return vanpools.rows.map((row) => toVanpoolSnapshot({ ...row, riders: byVanpool.get(row.id) ?? [] }));
}

interface RiderShift {
  shiftId: string | null;
  shiftName: string | null;
  shiftSchedule: Prisma.JsonValue;
}

export async function findVanpoolSnapshot(
  prisma: PrismaClient,
  vanpoolId: string,
): Promise<VanpoolSnapshot | undefined> {
  const [snapshot] = await findVanpoolSnapshots(prisma, { ids: [vanpoolId] });
  return snapshot;
}

export async function countVanpools(prisma: PrismaClient, activeOnly: boolean): Promise<number> {
  return prisma.vanpool.count({ where: activeOnly ? { status: "active" } : {} });
}

export async function listVanpoolIds(prisma: PrismaClient): Promise<string[]> {
  const rows = await prisma.vanpool.findMany({ select: { id: true }, orderBy: { id: "asc" } });
  return rows.map((r) => r.id);
}

export interface EmployeeProfile extends Omit<RiderSnapshot, "participant_id"> {
  home_address: string;
  time_type: string;
  status: string;
  vanpool_ids: string[];
}

export async function findEmployeeProfile(
  prisma: PrismaClient,
  employeeId: string,
): Promise<EmployeeProfile | undefined> {
  const row = await prisma.employee.findUnique({
    where: { id: employeeId },
    include: { shift: true, riders: { where: { status: "active" }, select: { vanpoolId: true } } },
  });
  if (!row) return undefined;
  return {
    ...toEmployeeFields(row),
    home_address: row.homeAddress,
    time_type: row.timeType,
    status: row.status,
    vanpool_ids: row.riders.map((r) => r.vanpoolId),
  };
}

function toVanpoolSnapshot(row: VanpoolRow): VanpoolSnapshot {
  return {
    vanpool_id: row.id,
    name: row.name,
    status: row.status,
    work_site: row.workSite,
    work_site_address: row.workSiteAddress,
    work_site_coords: { lat: row.workSiteLat, lng: row.workSiteLng },
    pickup_address: row.pickupAddress,
    pickup_coords: point(row.pickupLat, row.pickupLng),
    capacity: row.capacity,
    coordinator_id: row.coordinatorId,
    operating_schedule: (row.operatingSchedule as Schedule | null) ?? null,
    time_zone: row.timeZone,
    riders: row.riders.map((rider) => ({ ...toEmployeeFields(rider.employee), participant_id: rider.participantId })),
  };
}

function toEmployeeFields(row: EmployeeRow): Omit<RiderSnapshot, "participant_id"> {
  return {
    employee_id: row.id,
    first_name: row.firstName,
    last_name: row.lastName,
    email: row.email,
    work_site: row.workSite,
    home_city: row.homeCity,
    home_state: row.homeState,
    home_zip: row.homeZip,
    home_coords: point(row.homeLat, row.homeLng),
    shift: row.shift
      ? { shift_id: row.shift.id, name: row.shift.name, schedule: row.shift.schedule as unknown as Schedule }
      : null,
    pto_dates: row.ptoDates,
    employment: {
      status: row.status,
      separation_date: row.separationDate,
      status_since: row.statusSince ?? null,
    },
  };
}

function point(lat: number | null, lng: number | null): LatLng | null {
  return lat === null || lng === null ? null : { lat, lng };
}

export async function vanpoolExists(prisma: PrismaClient, vanpoolId: string): Promise<boolean> {
  return (await prisma.vanpool.count({ where: { id: vanpoolId } })) > 0;
}

/** Vanpools whose name holds any of `words` (case-insensitive): candidates for a name in a question. */
export async function findVanpoolsNameContaining(
  prisma: PrismaClient,
  words: string[],
  limit = 50,
): Promise<{ vanpool_id: string; name: string | null; work_site: string }[]> {
  if (words.length === 0) return [];
  // Names and work sites apart, so vans sharing a site never crowd out a name.
  const rows = await Promise.all(
    (["name", "workSite"] as const).map((field) =>
      prisma.vanpool.findMany({
        where: { OR: words.map((word) => ({ [field]: { contains: word, mode: "insensitive" as const } })) },
        orderBy: { id: "asc" },
        take: limit,
        select: { id: true, name: true, workSite: true },
      }),
    ),
  );
  const byId = new Map(rows.flat().map((v) => [v.id, { vanpool_id: v.id, name: v.name, work_site: v.workSite }]));
  return [...byId.values()].sort((a, b) => a.vanpool_id.localeCompare(b.vanpool_id));
}

/** Active vanpools with their number of active riders, by id. */
export async function listActiveVanpools(
  prisma: PrismaClient,
): Promise<{ vanpool_id: string; name: string | null; riders: number }[]> {
  const rows = await prisma.vanpool.findMany({
    where: { status: "active" },
    orderBy: { id: "asc" },
    select: { id: true, name: true, _count: { select: { riders: { where: { status: "active" } } } } },
  });
  return rows.map((v) => ({ vanpool_id: v.id, name: v.name, riders: v._count.riders }));
}
