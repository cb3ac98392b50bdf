// Writes fixtures in one transaction. Upserts by id, so seeding twice leaves the
// same rows; a refused folder leaves the database exactly as it was.

import type pg from "pg";
import { isClosed } from "../domain/case-lifecycle.js";
import type { EmployeeFixture, ShiftFixture, VanpoolFixture } from "../domain/fixture-schema.js";
import { checkReferences, type ExistingIds, type Fixtures } from "./fixtures.js";
import { Prisma, type PrismaClient } from "./prisma.js";

export interface SeedCounts {
  shifts: number;
  employees: number;
  vanpools: number;
  riders: number;
  cases: number;
  emailThreads: number;
  messages: number;
}

type Tx = Prisma.TransactionClient;

/**
 * `inbound: false` leaves the riders' replies out, for the caller to take them in as real
 * inbound email afterwards (src/integrations/email/inbound/seeded-replies.ts).
 */
export async function seedFixtures(
  prisma: PrismaClient,
  fixtures: Fixtures,
  options: { inbound?: boolean } = {},
): Promise<SeedCounts> {
  return prisma.$transaction(
    async (tx) => {
      checkReferences(fixtures, await existingIds(tx, fixtures));
      // People, vanpools and riders can be tens of thousands of rows: written in bulk.
      await writePeopleAndVanpools(tx, fixtures, "update");
      const riders = fixtures.vanpools.reduce((n, v) => n + v.riders.length, 0);
      for (const c of fixtures.cases) {
        const data = {
          vanpoolId: c.vanpool_id,
          status: c.status,
          reason: c.reason,
          failedChecks: c.failed_checks,
          meta: c.meta as object,
          outcome: c.outcome,
          reAuditCount: c.re_audit_count,
          createdAt: new Date(c.created_at),
          updatedAt: new Date(c.updated_at),
          resolvedAt: c.resolved_at ? new Date(c.resolved_at) : null,
        };
        await tx.case.upsert({ where: { id: c.case_id }, create: { id: c.case_id, ...data }, update: data });
      }
      let messages = 0;
      for (const t of fixtures.emailThreads) {
        const data = { caseId: t.case_id, vanpoolId: t.vanpool_id, subject: t.subject, status: t.status };
        await tx.emailThread.upsert({ where: { id: t.thread_id }, create: { id: t.thread_id, ...data }, update: data });
        for (const m of t.messages) {
          if (m.direction === "inbound" && options.inbound === false) continue;
          const at = new Date(m.sent_at);
          const message = {
            threadId: t.thread_id,
            direction: m.direction,
            fromAddress: m.from,
            toAddresses: m.to,
            ccAddresses: m.cc,
            subject: m.subject,
            body: m.body,
            status: m.status,
            bucket: m.bucket,
            confidence: m.confidence,
            sentAt: m.direction === "outbound" ? at : null,
            receivedAt: m.direction === "inbound" ? at : null,
            // Seeded replies are history: read when they came.
            readAt: m.direction === "inbound" ? at : null,
            createdAt: at,
          };
          await tx.message.upsert({
            where: { id: m.message_id },
            create: { id: m.message_id, ...message },
            update: message,
          });
          messages++;
        }
        const lastOutbound = t.messages
          .filter((m) => m.direction === "outbound")
          .map((m) => m.sent_at)
          .sort()
          .at(-1);
        if (lastOutbound)
          await tx.case.update({ where: { id: t.case_id }, data: { lastOutboundAt: new Date(lastOutbound) } });
      }
      return {
        shifts: fixtures.shifts.length,
        employees: fixtures.employees.length,
        vanpools: fixtures.vanpools.length,
        riders,
        cases: fixtures.cases.length,
        emailThreads: fixtures.emailThreads.length,
        messages,
      };
    },
    { timeout: 600_000, maxWait: 10_000 },
  );
}

function employeeRow(e: EmployeeFixture) {
  return {
    id: e.employee_id,
    firstName: e.first_name,
    lastName: e.last_name,
    email: e.email,
    workSite: e.work_site,
    homeAddress: e.home_address,
    homeCity: e.home_city,
    homeState: e.home_state,
    homeZip: e.home_zip,
    homeLat: e.home_coords?.lat ?? null,
    homeLng: e.home_coords?.lng ?? null,
    shiftId: e.shift_id,
    ptoDates: e.pto_dates,
    timeType: e.time_type,
    supervisor: e.supervisor ?? null,
    status: e.status,
    separationDate: e.separation_date ?? null,
  };
}

function vanpoolRow(v: Omit<VanpoolFixture, "riders">) {
  return {
    id: v.vanpool_id,
    name: v.name ?? null,
    workSite: v.work_site,
    workSiteAddress: v.work_site_address,
    workSiteLat: v.work_site_coords.lat,
    workSiteLng: v.work_site_coords.lng,
    pickupAddress: v.pickup_address ?? null,
    pickupLat: v.pickup_coords?.lat ?? null,
    pickupLng: v.pickup_coords?.lng ?? null,
    capacity: v.capacity,
    coordinatorId: v.coordinator_id ?? null,
    status: v.status,
    operatingSchedule: v.operating_schedule ?? null,
    timeZone: v.time_zone ?? null,
  };
}

async function existingIds(tx: Tx, fixtures: Fixtures): Promise<ExistingIds> {
  // One after another: a transaction is a single connection.
  const shifts = await tx.shift.findMany({ select: { id: true } });
  const employees = await tx.employee.findMany({ select: { id: true, email: true } });
  const vanpools = await tx.vanpool.findMany({ select: { id: true } });
  const cases = await tx.case.findMany({ select: { id: true, vanpoolId: true, status: true } });
  const threads = await tx.emailThread.findMany({ select: { id: true, caseId: true } });
  const messageIds = fixtures.emailThreads.flatMap((t) => t.messages.map((m) => m.message_id));
  const messages = await tx.message.findMany({
    where: { id: { in: messageIds } },
    select: { id: true, threadId: true },
  });
  const riders = await tx.rider.findMany({
    select: {
      participantId: true,
      vanpoolId: true,
      employeeId: true,
      status: true,
      vanpool: { select: { status: true } },
    },
  });
  return {
    shifts: new Set(shifts.map((r) => r.id)),
    employees: new Map(employees.map((e) => [e.id, e.email])),
    vanpools: new Set(vanpools.map((r) => r.id)),
    cases: new Map(cases.map((c) => [c.id, { vanpoolId: c.vanpoolId, open: !isClosed(c.status) }])),
    threads: new Map(threads.map((t) => [t.id, t.caseId])),
    messages: new Map(messages.map((m) => [m.id, m.threadId])),
    riders: riders.map(({ status, vanpool, ...r }) => ({
      ...r,
      active: status === "active" && vanpool.status === "active",
    })),
  };
}

/** Bulk insert for generated load data, existing ids skipped. */
export async function insertFixturesInBulk(prisma: PrismaClient, fixtures: Fixtures): Promise<void> {
  await prisma.$transaction(
    async (tx) => {
      checkReferences(fixtures, await existingIds(tx, fixtures));
      await writePeopleAndVanpools(tx, fixtures, "skip");
    },
    { timeout: 600_000, maxWait: 10_000 },
  );
}

/**
 * Shifts, employees, vanpools and riders, a chunk of rows at a time: each chunk travels as one JSON
 * parameter that PostgreSQL expands (one statement per table and chunk). Prisma's createMany spent
 * minutes serialising 100,000 vanpools' rows, and an upsert per row took over two minutes for 50,000
 * employees. `skip` leaves existing ids as they are; `update` overwrites them with the folder's values.
 */
const CHUNK = 20_000;
/** Rows a chunk at a time, each chunk one JSON parameter (see writePeopleAndVanpools). */
export async function inChunks<T>(items: T[], insert: (json: string) => Promise<unknown>): Promise<void> {
  for (let at = 0; at < items.length; at += CHUNK) await insert(JSON.stringify(items.slice(at, at + CHUNK)));
}

/** Runs one bulk statement whose only parameter ($1) is a chunk's JSON: in a Prisma or a pg transaction. */
export type BulkSql = (sql: string, json: string) => Promise<unknown>;
export const prismaBulk =
  (tx: Tx): BulkSql =>
  (sql, json) =>
    tx.$executeRawUnsafe(sql, json);
export const pgBulk =
  (client: pg.ClientBase): BulkSql =>
  (sql, json) =>
    client.query(sql, [json]);

// Column names are constants of this file, never input.
const conflictClause =
  (existing: "skip" | "update") =>
  (key: string, columns: string[], updatedAt = true) =>
    existing === "skip"
      ? "ON CONFLICT DO NOTHING"
      : `ON CONFLICT (${key}) DO UPDATE SET ${[
          ...columns.map((c) => `${c} = EXCLUDED.${c}`),
          ...(updatedAt ? ["updated_at = now()"] : []),
        ].join(", ")}`;

/** Employees in bulk (also `poolpatrol import employees`): `update` overwrites stored ids with these values. */
export async function writeEmployees(
  run: BulkSql,
  employees: EmployeeFixture[],
  existing: "skip" | "update",
): Promise<void> {
  const onConflict = conflictClause(existing);
  await inChunks(employees.map(employeeRow), (json) =>
    run(
      `
      INSERT INTO employees (id, first_name, last_name, email, work_site, home_address, home_city, home_state, home_zip,
                             home_lat, home_lng, shift_id, pto_dates, time_type, supervisor, status, separation_date,
                             updated_at)
      SELECT r."id", r."firstName", r."lastName", r."email", r."workSite", r."homeAddress", r."homeCity", r."homeState",
             r."homeZip", r."homeLat", r."homeLng", r."shiftId", ARRAY(SELECT json_array_elements_text(r."ptoDates")),
             r."timeType", r."supervisor", r."status", r."separationDate", now()
      FROM json_to_recordset($1::json) AS r("id" text, "firstName" text, "lastName" text, "email" text,
        "workSite" text, "homeAddress" text, "homeCity" text, "homeState" text, "homeZip" text, "homeLat" float8,
        "homeLng" float8, "shiftId" text, "ptoDates" json, "timeType" text, "supervisor" text, "status" text,
        "separationDate" text)
      ${onConflict("id", [
        "first_name",
        "last_name",
        "email",
        "work_site",
        "home_address",
        "home_city",
        "home_state",
        "home_zip",
        "home_lat",
        "home_lng",
        "shift_id",
        "pto_dates",
        "time_type",
        "supervisor",
        "status",
        "separation_date",
      ])}`,
      json,
    ),
  );
}

async function writePeopleAndVanpools(tx: Tx, fixtures: Fixtures, existing: "skip" | "update"): Promise<void> {
  await writeShifts(prismaBulk(tx), fixtures.shifts, existing);
  await writeEmployees(prismaBulk(tx), fixtures.employees, existing);
  await writeVanpools(prismaBulk(tx), fixtures.vanpools, existing);
  await inChunks(
    fixtures.vanpools.flatMap((v) =>
      v.riders.map((r) => ({
        participant_id: r.participant_id,
        vanpool_id: v.vanpool_id,
        employee_id: r.employee_id,
      })),
    ),
    (json) => tx.$executeRaw`
      INSERT INTO riders (participant_id, vanpool_id, employee_id)
      SELECT r.participant_id, r.vanpool_id, r.employee_id
      FROM jsonb_to_recordset(${json}::jsonb) AS r(participant_id text, vanpool_id text, employee_id text)
      ${Prisma.raw(conflictClause(existing)("participant_id", ["vanpool_id", "employee_id"], false))}`,
  );
}

/** Shifts in bulk (also `poolpatrol import shifts`). */
export async function writeShifts(run: BulkSql, shifts: ShiftFixture[], existing: "skip" | "update"): Promise<void> {
  await inChunks(
    shifts.map((s) => ({ id: s.id, name: s.name, schedule: s.schedule })),
    (json) =>
      run(
        `INSERT INTO shifts (id, name, schedule, updated_at)
        SELECT r.id, r.name, r.schedule, now() FROM jsonb_to_recordset($1::jsonb) AS r(id text, name text, schedule jsonb)
        ${conflictClause(existing)("id", ["name", "schedule"])}`,
        json,
      ),
  );
}

/** Vanpools in bulk, without their riders (also `poolpatrol import vanpools`). */
export async function writeVanpools(
  run: BulkSql,
  vanpools: Omit<VanpoolFixture, "riders">[],
  existing: "skip" | "update",
): Promise<void> {
  const onConflict = conflictClause(existing);
  await inChunks(vanpools.map(vanpoolRow), (json) =>
    run(
      `
      INSERT INTO vanpools (id, name, work_site, work_site_address, work_site_lat, work_site_lng, pickup_address,
                            pickup_lat, pickup_lng, capacity, coordinator_id, status, operating_schedule, time_zone,
                            updated_at)
      SELECT r."id", r."name", r."workSite", r."workSiteAddress", r."workSiteLat", r."workSiteLng", r."pickupAddress",
             r."pickupLat", r."pickupLng", r."capacity", r."coordinatorId", r."status"::"VanpoolStatus",
             r."operatingSchedule", r."timeZone", now()
      FROM jsonb_to_recordset($1::jsonb) AS r("id" text, "name" text, "workSite" text, "workSiteAddress" text,
        "workSiteLat" float8, "workSiteLng" float8, "pickupAddress" text, "pickupLat" float8, "pickupLng" float8,
        "capacity" int, "coordinatorId" text, "status" text, "operatingSchedule" jsonb, "timeZone" text)
      ${onConflict("id", [
        "name",
        "work_site",
        "work_site_address",
        "work_site_lat",
        "work_site_lng",
        "pickup_address",
        "pickup_lat",
        "pickup_lng",
        "capacity",
        "coordinator_id",
        "status",
        "operating_schedule",
        "time_zone",
      ])}`,
      json,
    ),
  );
}
