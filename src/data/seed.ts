// Writes fixture data: a seed folder's cases and email threads (its people, vanpools and riders go
// through the import, src/cases/seed-folder.ts), generated load data in bulk, and the bulk writers the
// import uses.

import type pg from "pg";
import { isClosed } from "../domain/case-lifecycle.js";
import type { CaseFixture, EmployeeFixture, ShiftFixture, VanpoolFixture } from "../domain/fixture-schema.js";
import { checkReferences, type ExistingIds, type Fixtures } from "./fixtures.js";
import { Prisma, type PrismaClient } from "./prisma.js";

type Tx = Prisma.TransactionClient;

/** Rows a seed added and changed (an unchanged row is left as it is, not even its updated_at). */
export interface WriteCounts {
  added: number;
  changed: number;
}

export interface CaseSeedCounts {
  cases: WriteCounts;
  emailThreads: WriteCounts;
  messages: WriteCounts;
}

const counted = (rows: { added: boolean }[]): WriteCounts => ({
  added: rows.filter((r) => r.added).length,
  changed: rows.filter((r) => !r.added).length,
});

/**
 * The cases, email threads and messages of a fixture folder (`db seed`), in the caller's transaction
 * after the folder's people, vanpools and riders are in. Checked first against the stored rows: a
 * message id stays on its thread, a thread on its case, a vanpool has one open case.
 * `inbound: false` leaves the riders' replies out, for the caller to take them in as real
 * inbound email afterwards (src/integrations/email/inbound/seeded-replies.ts).
 */
export async function writeCaseFixtures(
  client: pg.ClientBase,
  fixtures: Pick<Fixtures, "cases" | "emailThreads">,
  options: { inbound?: boolean } = {},
): Promise<CaseSeedCounts> {
  const all = { shifts: [], employees: [], vanpools: [], ...fixtures };
  checkReferences(all, await existingIds(pgRead(client), fixtures));
  const cases = fixtures.cases.map((c) => ({
    id: c.case_id,
    vanpool_id: c.vanpool_id,
    status: c.status,
    reason: c.reason,
    failed_checks: c.failed_checks,
    meta: c.meta,
    outcome: c.outcome,
    re_audit_count: c.re_audit_count,
    created_at: c.created_at,
    updated_at: c.updated_at,
    resolved_at: c.resolved_at,
    last_outbound_at:
      fixtures.emailThreads
        .find((t) => t.case_id === c.case_id)
        ?.messages.filter((m) => m.direction === "outbound")
        .map((m) => m.sent_at)
        .sort()
        .at(-1) ?? null,
  }));
  const threads = fixtures.emailThreads.map((t) => ({
    id: t.thread_id,
    case_id: t.case_id,
    vanpool_id: t.vanpool_id,
    subject: t.subject,
    status: t.status,
  }));
  const messages = fixtures.emailThreads.flatMap((t) =>
    t.messages
      .filter((m) => m.direction === "outbound" || options.inbound !== false)
      .map((m) => ({
        id: m.message_id,
        thread_id: t.thread_id,
        direction: m.direction,
        from_address: m.from,
        to_addresses: m.to,
        cc_addresses: m.cc,
        subject: m.subject,
        body: m.body,
        status: m.status,
        bucket: m.bucket,
        confidence: m.confidence,
        sent_at: m.direction === "outbound" ? m.sent_at : null,
        received_at: m.direction === "inbound" ? m.sent_at : null,
        // Seeded replies are history: read when they came.
        read_at: m.direction === "inbound" ? m.sent_at : null,
        created_at: m.sent_at,
      })),
  );
  // Each statement writes a row only when it is new or differs, and says which it was.
  const upsert = async (sql: string, rows: object[]) =>
    counted(rows.length === 0 ? [] : (await client.query<{ added: boolean }>(sql, [JSON.stringify(rows)])).rows);
  const caseCounts = await upsert(
    `INSERT INTO cases AS c (id, vanpool_id, status, reason, failed_checks, meta, outcome, re_audit_count, created_at,
                             updated_at, resolved_at, last_outbound_at)
     SELECT r.id, r.vanpool_id, r.status::"CaseStatus", r.reason::"CaseReason",
            ARRAY(SELECT jsonb_array_elements_text(r.failed_checks)), r.meta, r.outcome::"CaseOutcome", r.re_audit_count,
            r.created_at, r.updated_at, r.resolved_at, r.last_outbound_at
     FROM jsonb_to_recordset($1::jsonb) AS r(id text, vanpool_id text, status text, reason text, failed_checks jsonb,
       meta jsonb, outcome text, re_audit_count int, created_at timestamptz, updated_at timestamptz,
       resolved_at timestamptz, last_outbound_at timestamptz)
     ON CONFLICT (id) DO UPDATE SET vanpool_id = EXCLUDED.vanpool_id, status = EXCLUDED.status, reason = EXCLUDED.reason,
       failed_checks = EXCLUDED.failed_checks, meta = EXCLUDED.meta, outcome = EXCLUDED.outcome,
       re_audit_count = EXCLUDED.re_audit_count, created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at,
       resolved_at = EXCLUDED.resolved_at, last_outbound_at = EXCLUDED.last_outbound_at
     WHERE (c.vanpool_id, c.status, c.reason, c.failed_checks, c.meta, c.outcome, c.re_audit_count, c.created_at,
            c.updated_at, c.resolved_at, c.last_outbound_at)
       IS DISTINCT FROM (EXCLUDED.vanpool_id, EXCLUDED.status, EXCLUDED.reason, EXCLUDED.failed_checks, EXCLUDED.meta,
            EXCLUDED.outcome, EXCLUDED.re_audit_count, EXCLUDED.created_at, EXCLUDED.updated_at, EXCLUDED.resolved_at,
            EXCLUDED.last_outbound_at)
     RETURNING (xmax = 0) AS added`,
    cases,
  );
  const threadCounts = await upsert(
    `INSERT INTO email_threads AS t (id, case_id, vanpool_id, subject, status, updated_at)
     SELECT r.id, r.case_id, r.vanpool_id, r.subject, r.status, now()
     FROM jsonb_to_recordset($1::jsonb) AS r(id text, case_id text, vanpool_id text, subject text, status text)
     ON CONFLICT (id) DO UPDATE SET case_id = EXCLUDED.case_id, vanpool_id = EXCLUDED.vanpool_id,
       subject = EXCLUDED.subject, status = EXCLUDED.status, updated_at = now()
     WHERE (t.case_id, t.vanpool_id, t.subject, t.status)
       IS DISTINCT FROM (EXCLUDED.case_id, EXCLUDED.vanpool_id, EXCLUDED.subject, EXCLUDED.status)
     RETURNING (xmax = 0) AS added`,
    threads,
  );
  const messageCounts = await upsert(
    `INSERT INTO messages AS m (id, thread_id, direction, from_address, to_addresses, cc_addresses, subject, body, status,
                                bucket, confidence, sent_at, received_at, read_at, created_at)
     SELECT r.id, r.thread_id, r.direction::"MessageDirection", r.from_address,
            ARRAY(SELECT jsonb_array_elements_text(r.to_addresses)), ARRAY(SELECT jsonb_array_elements_text(r.cc_addresses)),
            r.subject, r.body, r.status::"MessageStatus", r.bucket::"ReplyBucket", r.confidence, r.sent_at, r.received_at,
            r.read_at, r.created_at
     FROM jsonb_to_recordset($1::jsonb) AS r(id text, thread_id text, direction text, from_address text,
       to_addresses jsonb, cc_addresses jsonb, subject text, body text, status text, bucket text, confidence float8,
       sent_at timestamptz, received_at timestamptz, read_at timestamptz, created_at timestamptz)
     ON CONFLICT (id) DO UPDATE SET thread_id = EXCLUDED.thread_id, direction = EXCLUDED.direction,
       from_address = EXCLUDED.from_address, to_addresses = EXCLUDED.to_addresses, cc_addresses = EXCLUDED.cc_addresses,
       subject = EXCLUDED.subject, body = EXCLUDED.body, status = EXCLUDED.status, bucket = EXCLUDED.bucket,
       confidence = EXCLUDED.confidence, sent_at = EXCLUDED.sent_at, received_at = EXCLUDED.received_at,
       read_at = EXCLUDED.read_at, created_at = EXCLUDED.created_at
     WHERE (m.thread_id, m.direction, m.from_address, m.to_addresses, m.cc_addresses, m.subject, m.body, m.status,
            m.bucket, m.confidence, m.sent_at, m.received_at, m.read_at, m.created_at)
       IS DISTINCT FROM (EXCLUDED.thread_id, EXCLUDED.direction, EXCLUDED.from_address, EXCLUDED.to_addresses,
            EXCLUDED.cc_addresses, EXCLUDED.subject, EXCLUDED.body, EXCLUDED.status, EXCLUDED.bucket,
            EXCLUDED.confidence, EXCLUDED.sent_at, EXCLUDED.received_at, EXCLUDED.read_at, EXCLUDED.created_at)
     RETURNING (xmax = 0) AS added`,
    messages,
  );
  return { cases: caseCounts, emailThreads: threadCounts, messages: messageCounts };
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

/** How far the stored copy of one of these cases was moved from its fixture's dates, if one is stored. */
export async function storedDateOffset(client: pg.ClientBase, cases: CaseFixture[]): Promise<number | undefined> {
  const { rows } = await client.query<{ id: string; created_at: Date }>(
    "SELECT id, created_at FROM cases WHERE id = ANY($1::text[]) LIMIT 1",
    [cases.map((c) => c.case_id)],
  );
  const stored = rows[0];
  const fixture = stored && cases.find((c) => c.case_id === stored.id);
  return fixture ? stored.created_at.getTime() - Date.parse(fixture.created_at) : undefined;
}

/** A read in whichever transaction is at hand: Prisma's (bulk load data) or pg's (db seed). */
type Read = <T>(sql: string, params?: unknown[]) => Promise<T[]>;
const prismaRead =
  (tx: Tx): Read =>
  (sql, params = []) =>
    tx.$queryRawUnsafe(sql, ...params);
const pgRead =
  (client: pg.ClientBase): Read =>
  async <T>(sql: string, params: unknown[] = []) =>
    (await client.query(sql, params)).rows as T[];

async function existingIds(read: Read, fixtures: Pick<Fixtures, "emailThreads">): Promise<ExistingIds> {
  // One after another: a transaction is a single connection.
  const shifts = await read<{ id: string }>("SELECT id FROM shifts");
  const employees = await read<{ id: string; email: string }>("SELECT id, email FROM employees");
  const vanpools = await read<{ id: string }>("SELECT id FROM vanpools");
  const cases = await read<{ id: string; vanpool_id: string; status: string }>(
    "SELECT id, vanpool_id, status::text FROM cases",
  );
  const threads = await read<{ id: string; case_id: string }>("SELECT id, case_id FROM email_threads");
  const messageIds = fixtures.emailThreads.flatMap((t) => t.messages.map((m) => m.message_id));
  const messages = await read<{ id: string; thread_id: string }>(
    "SELECT id, thread_id FROM messages WHERE id = ANY($1::text[])",
    [messageIds],
  );
  const riders = await read<{ participant_id: string; vanpool_id: string; employee_id: string; active: boolean }>(
    `SELECT r.participant_id, r.vanpool_id, r.employee_id, (r.status = 'active' AND v.status = 'active') AS active
     FROM riders r JOIN vanpools v ON v.id = r.vanpool_id`,
  );
  return {
    shifts: new Set(shifts.map((r) => r.id)),
    employees: new Map(employees.map((e) => [e.id, e.email])),
    vanpools: new Set(vanpools.map((r) => r.id)),
    cases: new Map(
      cases.map((c) => [c.id, { vanpoolId: c.vanpool_id, open: !isClosed(c.status as CaseFixture["status"]) }]),
    ),
    threads: new Map(threads.map((t) => [t.id, t.case_id])),
    messages: new Map(messages.map((m) => [m.id, m.thread_id])),
    riders: riders.map((r) => ({
      participantId: r.participant_id,
      vanpoolId: r.vanpool_id,
      employeeId: r.employee_id,
      active: r.active,
    })),
  };
}

/** Bulk insert for generated load data, existing ids skipped. */
export async function insertFixturesInBulk(prisma: PrismaClient, fixtures: Fixtures): Promise<void> {
  await prisma.$transaction(
    async (tx) => {
      checkReferences(fixtures, await existingIds(prismaRead(tx), fixtures));
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
