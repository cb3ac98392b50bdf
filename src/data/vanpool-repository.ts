// Reads vanpools, riders, employees and shifts as plain snapshots. A page of
// vanpools costs a fixed handful of queries, never one per rider.
import type { LatLng } from "../domain/geo.js";
import type { Schedule } from "../domain/schedule.js";
import type { RiderSnapshot, VanpoolSnapshot } from "../verification/snapshot.js";
import type { Prisma, PrismaClient } from "./prisma.js";

const vanpoolWithRiders = {
  riders: {
    where: { status: "active" },
    orderBy: { employeeId: "asc" },
    include: { employee: { include: { shift: true } } },
  },
} satisfies Prisma.VanpoolInclude;

type VanpoolRow = Prisma.VanpoolGetPayload<{ include: typeof vanpoolWithRiders }>;
type EmployeeRow = Prisma.EmployeeGetPayload<{ include: { shift: true } }>;

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
  return rows.map(toVanpoolSnapshot);
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
  };
}

function point(lat: number | null, lng: number | null): LatLng | null {
  return lat === null || lng === null ? null : { lat, lng };
}

export async function vanpoolExists(prisma: PrismaClient, vanpoolId: string): Promise<boolean> {
  return (await prisma.vanpool.count({ where: { id: vanpoolId } })) > 0;
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
