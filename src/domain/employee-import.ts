// `poolpatrol import employees`: a source's rows (an HRIS export, with its own column names and
// value formats) mapped onto Pool Patrol's employee fields, validated with the same schema as
// `db seed --from`, and compared with what is stored. Pure: the caller reads the file and the
// database. docs/import.md describes the mapping file.
import { z } from "zod";
import { type EmployeeFixture, employeeFixture } from "./fixture-schema.js";

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
] as const;
export type EmployeeField = (typeof EMPLOYEE_FIELDS)[number];

/** Fields every file must carry; the others, when the file has no column for them, stay as stored. */
const REQUIRED: readonly EmployeeField[] = [
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
];

const DATE_FORMATS = ["YYYY-MM-DD", "MM/DD/YYYY", "DD/MM/YYYY"] as const;

export const importMappingSchema = z
  .object({
    /** Pool Patrol field -> the source's column name. A field not named here is read from a column of its own name. */
    columns: z.partialRecord(z.enum(EMPLOYEE_FIELDS), z.string().min(1)).default({}),
    /** Pool Patrol field -> "us_state_name" (state names to their two-letter code) or a table of source value -> value. */
    values: z
      .partialRecord(z.enum(EMPLOYEE_FIELDS), z.union([z.literal("us_state_name"), z.record(z.string(), z.string())]))
      .default({}),
    /** How the source writes dates (PTO days). */
    date_format: z.enum(DATE_FORMATS).default("YYYY-MM-DD"),
    /** What separates the PTO days in one cell. */
    list_separator: z.string().min(1).default(";"),
  })
  .strict();
export type ImportMapping = z.infer<typeof importMappingSchema>;
export const DEFAULT_MAPPING: ImportMapping = importMappingSchema.parse({});

/** Where a problem is: "line 7" of a CSV file or "record #3" of a JSON one, and the source's column. */
export interface ImportProblem {
  at: string;
  column?: string;
  /** The Pool Patrol field the column holds, when its name differs. */
  field?: EmployeeField;
  rule: string;
}

export interface SourceRow {
  /** "line 7" or "record #3". */
  at: string;
  values: Record<string, string>;
}

export const formatProblem = (file: string, p: ImportProblem) =>
  `${file}: ${p.at}${p.column ? `, column "${p.column}"${p.field && p.field !== p.column ? ` (${p.field})` : ""}` : ""}: ${p.rule}`;

/** The source column of each field, and which fields the file carries. Problems when a required column is missing. */
export function columnsOf(
  header: readonly string[],
  mapping: ImportMapping,
): { column: Record<EmployeeField, string>; carried: Set<EmployeeField>; problems: ImportProblem[] } {
  const column = Object.fromEntries(EMPLOYEE_FIELDS.map((f) => [f, mapping.columns[f] ?? f])) as Record<
    EmployeeField,
    string
  >;
  const present = new Set(header);
  const carried = new Set(EMPLOYEE_FIELDS.filter((f) => present.has(column[f])));
  const problems: ImportProblem[] = [];
  for (const field of REQUIRED)
    if (!carried.has(field))
      problems.push({ at: "header", column: column[field], field, rule: "no such column, and the field is required" });
  if (carried.has("home_lat") !== carried.has("home_lng"))
    problems.push({
      at: "header",
      rule: `home_lat and home_lng come together ("${column.home_lat}", "${column.home_lng}")`,
    });
  return { column, carried, problems };
}

/** One source row as an employee record, or what is wrong with it (named by the source's columns). */
export function mapEmployeeRow(
  row: SourceRow,
  mapping: ImportMapping,
  columns: ReturnType<typeof columnsOf>,
): { employee: EmployeeFixture } | { problems: ImportProblem[] } {
  const problems: ImportProblem[] = [];
  const raw = (field: EmployeeField) => {
    const text = (row.values[columns.column[field]] ?? "").trim();
    const table = mapping.values[field];
    if (table === "us_state_name") return STATE_CODES[text.toUpperCase()] ?? text;
    if (table) {
      const hit = Object.entries(table).find(([from]) => from.toLowerCase() === text.toLowerCase());
      if (hit) return hit[1];
    }
    return text;
  };
  const optional = (field: EmployeeField) => (columns.carried.has(field) && raw(field) !== "" ? raw(field) : null);
  const number = (field: EmployeeField) => {
    const text = optional(field);
    if (text === null) return null;
    const value = Number(text);
    if (!Number.isFinite(value))
      problems.push({ at: row.at, column: columns.column[field], field, rule: `must be a number, got "${text}"` });
    return value;
  };
  const lat = number("home_lat");
  const lng = number("home_lng");
  const pto = optional("pto_dates");
  const record = {
    employee_id: raw("employee_id"),
    first_name: raw("first_name"),
    last_name: raw("last_name"),
    email: raw("email"),
    work_site: raw("work_site"),
    home_address: raw("home_address"),
    home_city: raw("home_city"),
    home_state: raw("home_state"),
    home_zip: raw("home_zip"),
    home_coords: lat === null && lng === null ? null : { lat, lng },
    shift_id: optional("shift_id"),
    pto_dates: pto === null ? [] : pto.split(mapping.list_separator).map((d) => isoDay(d.trim(), mapping.date_format)),
    time_type: raw("time_type"),
    supervisor: optional("supervisor"),
    status: optional("status") ?? "active",
  };
  if (problems.length > 0) return { problems };
  const parsed = employeeFixture.safeParse(record);
  if (parsed.success) return { employee: parsed.data };
  return {
    problems: parsed.error.issues.map((issue) => {
      const [top, index, part] = issue.path;
      const field = (top === "home_coords" ? (part === "lng" || index === "lng" ? "home_lng" : "home_lat") : top) as
        | EmployeeField
        | undefined;
      const column = field ? columns.column[field] : undefined;
      const got = field === "pto_dates" && typeof index === "number" ? record.pto_dates[index] : undefined;
      const value = field && field !== "pto_dates" && !field.startsWith("home_l") ? raw(field) : got;
      const rule =
        issue.code === "invalid_type" && issue.input === undefined
          ? "is missing"
          : `${issue.message}${value === undefined ? "" : `, got "${value}"`}`;
      return { at: row.at, ...(column ? { column, field } : {}), rule };
    }),
  };
}

/** A source date as YYYY-MM-DD (not yet checked against the calendar). */
function isoDay(text: string, format: ImportMapping["date_format"]): string {
  if (format === "YYYY-MM-DD") return text;
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  if (!m) return text;
  const [month, day] = format === "MM/DD/YYYY" ? [m[1], m[2]] : [m[2], m[1]];
  return `${m[3]}-${month!.padStart(2, "0")}-${day!.padStart(2, "0")}`;
}

/** An employee as compared field by field: every field as text (null when empty). */
export function employeeFields(e: EmployeeFixture): Record<EmployeeField, string | null> {
  return {
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
  };
}

export interface FieldChange {
  field: EmployeeField;
  old: string | null;
  new: string | null;
}

export interface EmployeeImportPlan {
  added: EmployeeFixture[];
  changed: { employee: EmployeeFixture; changes: FieldChange[] }[];
  unchanged: number;
  /** Stored, not terminated, and absent from the file: deactivated (status terminated), never deleted. */
  leaving: { employee: EmployeeFixture; changes: FieldChange[] }[];
  rejected: { row: SourceRow; problems: ImportProblem[] }[];
}

/**
 * Compares the file's rows with the stored employees. Cross-row rules (duplicate ids, an email of
 * someone else, an unknown shift) reject a row like a bad value does.
 */
export function planEmployeeImport(
  rows: readonly SourceRow[],
  mapping: ImportMapping,
  columns: ReturnType<typeof columnsOf>,
  stored: ReadonlyMap<string, EmployeeFixture>,
  shiftIds: ReadonlySet<string>,
): EmployeeImportPlan {
  const plan: EmployeeImportPlan = { added: [], changed: [], unchanged: 0, leaving: [], rejected: [] };
  const inFile = new Set<string>();
  const firstAt = new Map<string, string>();
  const emailAt = new Map<string, { id: string; at: string }>();
  const emailOwner = new Map([...stored.values()].map((e) => [e.email.toLowerCase(), e.employee_id]));
  for (const row of rows) {
    const id = (row.values[columns.column.employee_id] ?? "").trim();
    if (id) inFile.add(id);
    const mapped = mapEmployeeRow(row, mapping, columns);
    if ("problems" in mapped) {
      plan.rejected.push({ row, problems: mapped.problems });
      continue;
    }
    const incoming = mapped.employee;
    const problems: ImportProblem[] = [];
    const earlier = firstAt.get(id);
    if (earlier)
      problems.push({
        at: row.at,
        column: columns.column.employee_id,
        field: "employee_id",
        rule: `duplicate id ${id} (also on ${earlier})`,
      });
    else firstAt.set(id, row.at);
    const email = incoming.email.toLowerCase();
    const owner = emailOwner.get(email);
    const sameFile = emailAt.get(email);
    if (sameFile && sameFile.id !== id)
      problems.push({
        at: row.at,
        column: columns.column.email,
        field: "email",
        rule: `email ${incoming.email} is also ${sameFile.id}'s (${sameFile.at})`,
      });
    else if (owner && owner !== id && !sameFile)
      problems.push({
        at: row.at,
        column: columns.column.email,
        field: "email",
        rule: `email ${incoming.email} is already the email of ${owner}`,
      });
    emailAt.set(email, { id, at: row.at });
    if (incoming.shift_id !== null && !shiftIds.has(incoming.shift_id))
      problems.push({
        at: row.at,
        column: columns.column.shift_id,
        field: "shift_id",
        rule: `unknown shift id "${incoming.shift_id}"`,
      });
    if (problems.length > 0) {
      plan.rejected.push({ row, problems });
      continue;
    }
    const before = stored.get(id);
    if (!before) {
      plan.added.push(incoming);
      continue;
    }
    // A field the file has no column for stays as stored.
    const merged: EmployeeFixture = {
      ...incoming,
      home_coords: columns.carried.has("home_lat") ? incoming.home_coords : before.home_coords,
      shift_id: columns.carried.has("shift_id") ? incoming.shift_id : before.shift_id,
      pto_dates: columns.carried.has("pto_dates") ? incoming.pto_dates : before.pto_dates,
      supervisor: columns.carried.has("supervisor") ? incoming.supervisor : before.supervisor,
      status: columns.carried.has("status") ? incoming.status : before.status,
    };
    const changes = diffFields(before, merged);
    if (changes.length === 0) plan.unchanged++;
    else plan.changed.push({ employee: merged, changes });
  }
  for (const before of stored.values()) {
    if (inFile.has(before.employee_id) || before.status === "terminated") continue;
    const after: EmployeeFixture = { ...before, status: "terminated" };
    plan.leaving.push({ employee: after, changes: diffFields(before, after) });
  }
  return plan;
}

function diffFields(before: EmployeeFixture, after: EmployeeFixture): FieldChange[] {
  const a = employeeFields(before);
  const b = employeeFields(after);
  return EMPLOYEE_FIELDS.filter((f) => a[f] !== b[f]).map((field) => ({ field, old: a[field], new: b[field] }));
}

/** US state and territory names -> their postal code ("California" -> "CA"). */
const STATE_CODES: Record<string, string> = Object.fromEntries(
  (
    "AL Alabama|AK Alaska|AZ Arizona|AR Arkansas|CA California|CO Colorado|CT Connecticut|DE Delaware|" +
    "DC District of Columbia|FL Florida|GA Georgia|HI Hawaii|ID Idaho|IL Illinois|IN Indiana|IA Iowa|KS Kansas|" +
    "KY Kentucky|LA Louisiana|ME Maine|MD Maryland|MA Massachusetts|MI Michigan|MN Minnesota|MS Mississippi|" +
    "MO Missouri|MT Montana|NE Nebraska|NV Nevada|NH New Hampshire|NJ New Jersey|NM New Mexico|NY New York|" +
    "NC North Carolina|ND North Dakota|OH Ohio|OK Oklahoma|OR Oregon|PA Pennsylvania|RI Rhode Island|" +
    "SC South Carolina|SD South Dakota|TN Tennessee|TX Texas|UT Utah|VT Vermont|VA Virginia|WA Washington|" +
    "WV West Virginia|WI Wisconsin|WY Wyoming|PR Puerto Rico|GU Guam|VI U.S. Virgin Islands|AS American Samoa|" +
    "MP Northern Mariana Islands"
  )
    .split("|")
    .map((entry) => [entry.slice(3).toUpperCase(), entry.slice(0, 2)]),
);
