// The employees of `poolpatrol import employees`: an HRIS export's rows as employee records.
// The pipeline (mapping, validation, diff) is src/domain/record-import.ts.
import { type EmployeeFixture, employeeFixture } from "./fixture-schema.js";
import { coordsOf, type ImportKind, mappingSchemaFor } from "./record-import.js";

/** Pool Patrol's employee fields as an import names them (coordinates as two columns). */
export const EMPLOYEE_FIELDS = [
  "employee_id",
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
] as const;
export type EmployeeField = (typeof EMPLOYEE_FIELDS)[number];

export const importMappingSchema = mappingSchemaFor(EMPLOYEE_FIELDS);

export const employeeKind: ImportKind<EmployeeFixture, EmployeeField> = {
  name: "employees",
  noun: "employee",
  fields: EMPLOYEE_FIELDS,
  required: [
    "employee_id",
    "first_name",
    "last_name",
    "email",
    "work_site",
    "home_address",
    "home_city",
    "home_state",
    "home_zip",
    "time_type",
  ],
  idField: "employee_id",
  // Home location (coordinates, else the ZIP's centroid; the city and state the location specialist reads),
  // work site, shift and PTO, and employment: never the street address, the name or the email.
  checked: [
    "work_site",
    "home_city",
    "home_state",
    "home_zip",
    "home_lat",
    "home_lng",
    "shift_id",
    "pto_dates",
    "status",
    "separation_date",
  ],
  together: [["home_lat", "home_lng"]],
  build: (read) => ({
    employee_id: read.raw("employee_id"),
    first_name: read.raw("first_name"),
    last_name: read.raw("last_name"),
    email: read.raw("email"),
    work_site: read.raw("work_site"),
    home_address: read.raw("home_address"),
    home_city: read.raw("home_city"),
    home_state: read.raw("home_state"),
    home_zip: read.raw("home_zip"),
    home_coords: coordsOf(read.number("home_lat"), read.number("home_lng")),
    shift_id: read.optional("shift_id"),
    pto_dates: read.list("pto_dates")?.map(read.day) ?? [],
    time_type: read.raw("time_type"),
    supervisor: read.optional("supervisor"),
    status: read.optional("status") ?? "active",
    separation_date: ((text) => (text === null ? null : read.day(text)))(read.optional("separation_date")),
  }),
  schema: employeeFixture,
  fieldOf: ([top, index, part]) =>
    (top === "home_coords" ? (part === "lng" || index === "lng" ? "home_lng" : "home_lat") : top) as
      | EmployeeField
      | undefined,
  text: (e) => ({
    employee_id: e.employee_id,
    first_name: e.first_name,
    last_name: e.last_name,
    email: e.email,
    work_site: e.work_site,
    home_address: e.home_address,
    home_city: e.home_city,
    home_state: e.home_state,
    home_zip: e.home_zip,
    home_lat: e.home_coords ? String(e.home_coords.lat) : null,
    home_lng: e.home_coords ? String(e.home_coords.lng) : null,
    shift_id: e.shift_id,
    pto_dates: e.pto_dates.length > 0 ? e.pto_dates.join(";") : null,
    time_type: e.time_type,
    supervisor: e.supervisor ?? null,
    status: e.status,
    separation_date: e.separation_date ?? null,
  }),
  merge: (incoming, before, carried) => ({
    ...incoming,
    home_coords: carried.has("home_lat") ? incoming.home_coords : before.home_coords,
    shift_id: carried.has("shift_id") ? incoming.shift_id : before.shift_id,
    pto_dates: carried.has("pto_dates") ? incoming.pto_dates : before.pto_dates,
    supervisor: carried.has("supervisor") ? incoming.supervisor : before.supervisor,
    status: carried.has("status") ? incoming.status : before.status,
    separation_date: carried.has("separation_date") ? incoming.separation_date : before.separation_date,
  }),
  leave: (before) => (before.status === "terminated" ? null : { ...before, status: "terminated" }),
  refs: ["shiftIds"],
  checker: (stored, refs) => {
    const emailOwner = new Map([...stored.values()].map((e) => [e.email.toLowerCase(), e.employee_id]));
    const emailAt = new Map<string, string>();
    return (e) => {
      const problems: { field: EmployeeField; rule: string }[] = [];
      const email = e.email.toLowerCase();
      const owner = emailOwner.get(email);
      const sameFile = emailAt.get(email);
      if (sameFile && sameFile !== e.employee_id)
        problems.push({ field: "email", rule: `email ${e.email} is also ${sameFile}'s` });
      else if (owner && owner !== e.employee_id && !sameFile)
        problems.push({ field: "email", rule: `email ${e.email} is already the email of ${owner}` });
      emailAt.set(email, e.employee_id);
      if (e.shift_id !== null && !refs.shiftIds.has(e.shift_id))
        problems.push({ field: "shift_id", rule: `unknown shift id "${e.shift_id}"` });
      return problems;
    };
  },
};
