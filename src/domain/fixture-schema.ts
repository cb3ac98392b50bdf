// The JSON shapes of mock/ (and of any folder given to `poolpatrol db seed --from`).
// snake_case as in the seeds; riders are listed inside each vanpool and employees
// carry their shift id.

import { z } from "zod";
import { CASE_STATUSES } from "./case-lifecycle.js";
import { idPattern } from "./ids.js";
import { isTimeZone } from "./schedule.js";
import { CHECK_KINDS } from "./specialist-result.js";

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date like 2026-11-23")
  // "2026-02-30" has the shape but is no day of the calendar.
  .refine((day) => {
    const at = new Date(`${day}T00:00:00Z`);
    return !Number.isNaN(at.getTime()) && at.toISOString().startsWith(day);
  }, "is not a day of the calendar");
const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "must be a time like 07:30 (24-hour)");
export const weekdaySchema = z.enum(["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]);
export const coordsSchema = z.object({
  lat: z.number().min(-90, "latitude must be between -90 and 90").max(90, "latitude must be between -90 and 90"),
  lng: z
    .number()
    .min(-180, "longitude must be between -180 and 180")
    .max(180, "longitude must be between -180 and 180"),
});

export const scheduleSchema = z.array(z.object({ day: weekdaySchema, start_time: hhmm, end_time: hhmm }).strict());

export const shiftFixture = z
  .object({
    id: z.string().regex(/^SHIFT_[A-Z0-9_]+$/, "must look like SHIFT_DAY"),
    name: z.string().min(1),
    schedule: scheduleSchema.min(1, "needs at least one working day"),
  })
  .strict();

export const employeeFixture = z
  .object({
    employee_id: z.string().regex(/^EMP-\d+$/, "must look like EMP-1001"),
    first_name: z.string().min(1),
    last_name: z.string().min(1),
    email: z.email(),
    work_site: z.string().min(1),
    home_address: z.string().min(1),
    home_city: z.string().min(1),
    home_state: z.string().length(2),
    home_zip: z.string().regex(/^\d{5}$/, "must be a 5-digit ZIP"),
    home_coords: coordsSchema.nullable().optional(),
    shift_id: z.string().nullable(),
    pto_dates: z.array(isoDate).default([]),
    time_type: z.enum(["full_time", "part_time"]),
    supervisor: z.string().nullable().optional(),
    status: z.enum(["active", "on_leave", "terminated"]).default("active"),
    /** The last day of employment, when the HR export gives one. */
    separation_date: isoDate.nullable().optional(),
  })
  .strict();

export const riderFixture = z
  .object({
    participant_id: z.string().min(1),
    employee_id: z.string().min(1),
  })
  .strict();

export const vanpoolFixture = z
  .object({
    vanpool_id: z.string().regex(/^VP-\d+$/, "must look like VP-101"),
    name: z.string().nullable().optional(),
    work_site: z.string().min(1),
    work_site_address: z.string().min(1),
    work_site_coords: coordsSchema,
    pickup_address: z.string().nullable().optional(),
    pickup_coords: coordsSchema.nullable().optional(),
    capacity: z.number().int().positive(),
    coordinator_id: z.string().nullable().optional(),
    status: z.enum(["active", "inactive"]).default("active"),
    operating_schedule: scheduleSchema.nullable().optional(),
    time_zone: z
      .string()
      .refine(isTimeZone, "must be an IANA time zone such as America/Los_Angeles")
      .nullable()
      .optional(),
    riders: z.array(riderFixture),
  })
  .strict();

export const caseStatusSchema = z.enum(CASE_STATUSES);

export const caseFixture = z
  .object({
    case_id: z
      .string()
      .regex(new RegExp(`^${idPattern("case")}$`), "must be CASE- and 16 (or 8) upper-case hex digits"),
    vanpool_id: z.string().min(1),
    status: caseStatusSchema,
    reason: z.enum(["location_mismatch", "shift_mismatch", "both", "inconclusive"]),
    failed_checks: z.array(z.enum(CHECK_KINDS)),
    meta: z.record(z.string(), z.unknown()).default({}),
    outcome: z.enum(["verified", "resolved", "cancelled"]).nullable().default(null),
    re_audit_count: z.number().int().min(0).default(0),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
    resolved_at: z.iso.datetime().nullable().default(null),
  })
  .strict();

export const messageFixture = z
  .object({
    message_id: z
      .string()
      .regex(new RegExp(`^${idPattern("message")}$`), "must be MSG- and 16 (or 8) upper-case hex digits"),
    direction: z.enum(["inbound", "outbound"]),
    from: z.string().min(1),
    to: z.array(z.string()).min(1),
    cc: z.array(z.string()).default([]),
    subject: z.string().min(1),
    body: z.string().min(1),
    status: z.enum(["draft", "pending_review", "queued", "sent", "received", "failed", "discarded"]),
    bucket: z.enum(["acknowledgment", "question", "update", "escalation"]).nullable().default(null),
    confidence: z.number().min(0).max(1).nullable().default(null),
    sent_at: z.iso.datetime(),
  })
  .strict();

export const emailThreadFixture = z
  .object({
    thread_id: z
      .string()
      .regex(new RegExp(`^${idPattern("thread")}$`), "must be THREAD- and 16 (or 8) upper-case hex digits"),
    case_id: z.string().min(1),
    vanpool_id: z.string().min(1),
    subject: z.string().min(1),
    status: z.enum(["active", "closed"]).default("active"),
    messages: z.array(messageFixture),
  })
  .strict();

export type ShiftFixture = z.infer<typeof shiftFixture>;
export type EmployeeFixture = z.infer<typeof employeeFixture>;
export type VanpoolFixture = z.infer<typeof vanpoolFixture>;
export type CaseFixture = z.infer<typeof caseFixture>;
export type EmailThreadFixture = z.infer<typeof emailThreadFixture>;

/** File name -> record schema, in load order (later files refer to earlier ones). */
export const fixtureFiles = {
  "shifts.json": shiftFixture,
  "employees.json": employeeFixture,
  "vanpools.json": vanpoolFixture,
  "cases.json": caseFixture,
  "email_threads.json": emailThreadFixture,
} as const;
