// `poolpatrol import KIND FILE`: one pipeline for every kind of record (employees, shifts, vanpools,
// riders). A source's rows, with its own column names and value formats, are mapped onto Pool
// Patrol's fields, validated with the schema `db seed --from` uses, checked across rows and against
// what is stored, and compared with the stored records. Pure: the caller reads the files and the
// database. docs/import.md describes the mapping file; each kind is described by an ImportKind.
import { z } from "zod";
import { WEEKDAYS, type Weekday } from "./schedule.js";

export const IMPORT_KINDS = ["employees", "shifts", "vanpools", "riders"] as const;
export type ImportKindName = (typeof IMPORT_KINDS)[number];

const DATE_FORMATS = ["YYYY-MM-DD", "MM/DD/YYYY", "DD/MM/YYYY"] as const;

/** The mapping file's schema for a kind's fields. */
export function mappingSchemaFor<F extends string>(fields: readonly [F, ...F[]]) {
  return z
    .object({
      /** Pool Patrol field -> the source's column name. A field not named here is read from a column of its own name. */
      columns: z.partialRecord(z.enum(fields), z.string().min(1)).default({}),
      /** Pool Patrol field -> "us_state_name" (state names to their two-letter code) or a table of source value -> value. */
      values: z
        .partialRecord(z.enum(fields), z.union([z.literal("us_state_name"), z.record(z.string(), z.string())]))
        .default({}),
      /** How the source writes dates. */
      date_format: z.enum(DATE_FORMATS).default("YYYY-MM-DD"),
      /** What separates the items of a list in one cell (PTO days, weekdays). */
      list_separator: z.string().min(1).default(";"),
    })
    .strict();
}
export interface ImportMapping<F extends string = string> {
  columns: Partial<Record<F, string>>;
  values: Partial<Record<F, "us_state_name" | Record<string, string>>>;
  date_format: (typeof DATE_FORMATS)[number];
  list_separator: string;
}

/** Where a problem is: "line 7" of a CSV file or "record #3" of a JSON one, and the source's column. */
export interface ImportProblem {
  at: string;
  /** The file, when an import reads several. */
  file?: string;
  column?: string;
  /** The Pool Patrol field the column holds, when its name differs. */
  field?: string;
  rule: string;
}

export interface SourceRow {
  /** "line 7" or "record #3". */
  at: string;
  /** The file it comes from, when an import reads several. */
  file?: string;
  values: Record<string, string>;
}

export const formatProblem = (file: string, p: ImportProblem) =>
  `${p.file ?? file}: ${p.at}${p.column ? `, column "${p.column}"${p.field && p.field !== p.column ? ` (${p.field})` : ""}` : ""}: ${p.rule}`;

export interface FieldChange<F extends string = string> {
  field: F;
  old: string | null;
  new: string | null;
}

/** Reads one row's fields through the mapping; bad numbers and times are noted as problems. */
export interface RowReader<F extends string> {
  /** The cell's text, trimmed, with the mapping's value table applied. */
  raw(field: F): string;
  /** The text, or null when the file has no column for the field or the cell is empty. */
  optional(field: F): string | null;
  number(field: F): number | null;
  /** A list cell split on the mapping's separator. */
  list(field: F): string[] | null;
  /** A date as YYYY-MM-DD (not yet checked against the calendar). */
  day(text: string): string;
  /** "7:30 AM", "7:30pm" or "19:30" as HH:MM; anything else as it is, for the schema to refuse. */
  time(field: F): string | null;
  /** "Mon-Fri", "Mon;Wed;Fri" or "Monday, Tuesday" as weekdays; a problem otherwise. */
  days(field: F): Weekday[] | null;
}

export interface ImportKind<R, F extends string> {
  name: ImportKindName;
  /** One record, in words: "employee". */
  noun: string;
  fields: readonly F[];
  required: readonly F[];
  idField: F;
  /**
   * The fields a check reads (src/domain/snapshot.ts, the specialists' tools): a change to one re-checks the
   * vanpools it concerns, case or not. A name or an email re-checks nothing.
   */
  checked: readonly F[];
  /** Fields whose columns come together (a latitude and its longitude). */
  together?: readonly (readonly [F, F])[];
  /** The record a row describes, before the schema checks it. */
  build(read: RowReader<F>): Record<string, unknown>;
  schema: z.ZodType<R, unknown>;
  /** The field a schema issue's path names. */
  fieldOf(path: readonly PropertyKey[]): F | undefined;
  /** Every field as text (null when empty), as compared and kept in the history. */
  text(record: R): Record<F, string | null>;
  /** The incoming record, with what the file has no column for kept as stored. */
  merge(incoming: R, before: R, carried: ReadonlySet<F>): R;
  /** The stored record deactivated, or null when it already is: a record absent from the file leaves. */
  leave(before: R): R | null;
  /** Cross-row and reference rules: a checker for one import, called once per valid row in file order. */
  checker?(stored: ReadonlyMap<string, R>, refs: ImportRefs): (record: R) => { field: F; rule: string }[];
  /** The references its checker reads: only these are loaded (the others are empty). */
  refs?: readonly (keyof ImportRefs)[];
}

/** What stored records of other kinds a file may refer to. */
export interface ImportRefs {
  shiftIds: ReadonlySet<string>;
  employeeIds: ReadonlySet<string>;
  /** Vanpool id -> whether it runs (status active). */
  vanpools: ReadonlyMap<string, boolean>;
}

export interface ImportColumns<F extends string> {
  column: Record<F, string>;
  carried: Set<F>;
  problems: ImportProblem[];
}

/** The source column of each field, and which fields the file carries. Problems when a required column is missing. */
export function columnsFor<R, F extends string>(
  kind: ImportKind<R, F>,
  header: readonly string[],
  mapping: ImportMapping<F>,
): ImportColumns<F> {
  const column = Object.fromEntries(kind.fields.map((f) => [f, mapping.columns[f] ?? f])) as Record<F, string>;
  const present = new Set(header);
  const carried = new Set(kind.fields.filter((f) => present.has(column[f])));
  const problems: ImportProblem[] = [];
  for (const field of kind.required)
    if (!carried.has(field))
      problems.push({ at: "header", column: column[field], field, rule: "no such column, and the field is required" });
  for (const [a, b] of kind.together ?? [])
    if (carried.has(a) !== carried.has(b))
      problems.push({ at: "header", rule: `${a} and ${b} come together ("${column[a]}", "${column[b]}")` });
  return { column, carried, problems };
}

/** One source row as a record, or what is wrong with it (named by the source's columns). */
export function mapRow<R, F extends string>(
  kind: ImportKind<R, F>,
  row: SourceRow,
  mapping: ImportMapping<F>,
  columns: ImportColumns<F>,
): { record: R } | { problems: ImportProblem[] } {
  return rowMapper(kind, mapping, columns)(row);
}

/**
 * mapRow for the rows of one import: its reader and the mapping's value tables are made once, not
 * once a row (100,000 rows made that a large part of an import's time).
 */
export function rowMapper<R, F extends string>(
  kind: ImportKind<R, F>,
  mapping: ImportMapping<F>,
  columns: ImportColumns<F>,
): (row: SourceRow) => { record: R } | { problems: ImportProblem[] } {
  const cell = cellReader(kind, mapping, columns);
  let row: SourceRow;
  let problems: ImportProblem[] = [];
  const where = (field: F) => ({
    at: row.at,
    ...(row.file ? { file: row.file } : {}),
    column: columns.column[field],
    field,
  });
  const raw = (field: F) => cell(row.values, field);
  const optional = (field: F) => {
    if (!columns.carried.has(field)) return null;
    const text = raw(field);
    return text === "" ? null : text;
  };
  const read: RowReader<F> = {
    raw,
    optional,
    number(field) {
      const text = optional(field);
      if (text === null) return null;
      const value = Number(text);
      if (!Number.isFinite(value)) problems.push({ ...where(field), rule: `must be a number, got "${text}"` });
      return value;
    },
    list: (field) =>
      optional(field)
        ?.split(mapping.list_separator)
        .map((d) => d.trim()) ?? null,
    day: (text) => isoDay(text, mapping.date_format),
    time: (field) => {
      const text = optional(field);
      return text === null ? null : hhmm(text);
    },
    days(field) {
      const text = optional(field);
      if (text === null) return null;
      const days = weekdays(text);
      if (!days)
        problems.push({ ...where(field), rule: `must be weekdays like "Mon-Fri" or "Mon;Wed;Fri", got "${text}"` });
      return days ?? [];
    },
  };
  return (next) => {
    row = next;
    problems = [];
    const record = kind.build(read);
    if (problems.length > 0) return { problems };
    const parsed = kind.schema.safeParse(record);
    if (parsed.success) return { record: parsed.data };
    const seen = new Set<string>();
    return {
      problems: parsed.error.issues.flatMap((issue) => {
        const field = kind.fieldOf(issue.path);
        const list = record[issue.path[0] as string];
        const item = typeof issue.path[1] === "number" && Array.isArray(list) ? list[issue.path[1]] : undefined;
        const got = typeof item === "string" ? item : field && !/_(lat|lng)$/.test(field) ? raw(field) : undefined;
        const rule =
          issue.code === "invalid_type" && issue.input === undefined
            ? "is missing"
            : `${issue.message}${got === undefined ? "" : `, got "${got}"`}`;
        // A rule broken on every day of a schedule is told once.
        const key = `${field}:${rule}`;
        if (seen.has(key)) return [];
        seen.add(key);
        return [field ? where(field) : { at: row.at, ...(row.file ? { file: row.file } : {}) }].map((w) => ({
          ...w,
          rule,
        }));
      }),
    };
  };
}

/** A cell as the import reads it: trimmed, with the mapping's value table for its field applied. */
function cellReader<R, F extends string>(
  kind: ImportKind<R, F>,
  mapping: ImportMapping<F>,
  columns: ImportColumns<F>,
): (values: Record<string, string>, field: F) => string {
  // A value table with its source values in lower case: matched without regard to case.
  const tables = new Map<F, "us_state_name" | Map<string, string>>();
  for (const field of kind.fields) {
    const table = mapping.values[field];
    if (table === "us_state_name") tables.set(field, table);
    else if (table) {
      const lower = new Map<string, string>();
      for (const [from, to] of Object.entries(table))
        if (!lower.has(from.toLowerCase())) lower.set(from.toLowerCase(), to);
      tables.set(field, lower);
    }
  }
  return (values, field) => {
    const text = (values[columns.column[field]] ?? "").trim();
    const table = tables.get(field);
    if (table === undefined) return text;
    if (table === "us_state_name") return STATE_CODES[text.toUpperCase()] ?? text;
    return table.get(text.toLowerCase()) ?? text;
  };
}

export interface ImportPlan<R, F extends string = string> {
  added: R[];
  changed: { record: R; changes: FieldChange<F>[] }[];
  unchanged: number;
  /** Stored, active, and absent from the file: deactivated, never deleted. */
  leaving: { record: R; changes: FieldChange<F>[] }[];
  rejected: { row: SourceRow; problems: ImportProblem[] }[];
}

/**
 * Compares the file's rows with the stored records. Cross-row rules (duplicate ids, and the kind's
 * own: someone else's email, an unknown shift, a rider on two vans) reject a row like a bad value does.
 */
export function planImport<R, F extends string>(
  kind: ImportKind<R, F>,
  rows: readonly SourceRow[],
  mapping: ImportMapping<F>,
  columns: ImportColumns<F>,
  stored: ReadonlyMap<string, R>,
  refs: ImportRefs,
): ImportPlan<R, F> {
  const planner = importPlanner(kind, mapping, columns, stored, refs);
  for (const row of rows) planner.add(row);
  return planner.finish();
}

/**
 * planImport a row at a time, for rows streamed from a file: a row is not kept once compared (unless
 * rejected). `onAdded` is told each added record as soon as it is known: no later row undoes an
 * addition (a cross-row rule refuses the later row, never the earlier one).
 */
export function importPlanner<R, F extends string>(
  kind: ImportKind<R, F>,
  mapping: ImportMapping<F>,
  columns: ImportColumns<F>,
  stored: ReadonlyMap<string, R>,
  refs: ImportRefs,
  onAdded?: (record: R) => void,
): { add(row: SourceRow): void; finish(): ImportPlan<R, F> } {
  const plan: ImportPlan<R, F> = { added: [], changed: [], unchanged: 0, leaving: [], rejected: [] };
  const inFile = new Set<string>();
  const firstAt = new Map<string, { at: string; file?: string }>();
  const check = kind.checker?.(stored, refs);
  const map = rowMapper(kind, mapping, columns);
  const cell = cellReader(kind, mapping, columns);
  // A row whose every cell reads as its stored record's text (the form the import reads back; lists
  // joined with ";") maps to that record and changes nothing: its values are not validated again,
  // only the rules over the whole file (duplicate ids, the kind's checker) are applied to it.
  const readsAsStored =
    mapping.list_separator === ";"
      ? (row: SourceRow, before: R) => {
          const text = kind.text(before);
          for (const field of kind.fields) if (cell(row.values, field) !== (text[field] ?? "")) return false;
          return true;
        }
      : () => false;
  /** Duplicate ids and the kind's cross-row rules: whether the row is rejected by them. */
  const where = (row: SourceRow, field: F) => ({
    at: row.at,
    ...(row.file ? { file: row.file } : {}),
    column: columns.column[field],
    field,
  });
  const rejectedAcrossRows = (row: SourceRow, id: string, record: R) => {
    const problems: ImportProblem[] = [];
    const earlier = firstAt.get(id);
    if (earlier)
      problems.push({
        ...where(row, kind.idField),
        rule: `duplicate id ${id} (also on ${earlier.at}${earlier.file && earlier.file !== row.file ? ` of ${earlier.file}` : ""})`,
      });
    else firstAt.set(id, { at: row.at, ...(row.file ? { file: row.file } : {}) });
    for (const p of check?.(record) ?? []) problems.push({ ...where(row, p.field), rule: p.rule });
    if (problems.length > 0) plan.rejected.push({ row, problems });
    return problems.length > 0;
  };
  const add = (row: SourceRow) => {
    const id = (row.values[columns.column[kind.idField]] ?? "").trim();
    if (id) inFile.add(id);
    const before = stored.get(id);
    if (before !== undefined && readsAsStored(row, before)) {
      if (!rejectedAcrossRows(row, id, before)) plan.unchanged++;
      return;
    }
    const mapped = map(row);
    if ("problems" in mapped) {
      plan.rejected.push({ row, problems: mapped.problems });
      return;
    }
    const incoming = mapped.record;
    if (rejectedAcrossRows(row, id, incoming)) return;
    if (!before) {
      plan.added.push(incoming);
      onAdded?.(incoming);
      return;
    }
    const merged = kind.merge(incoming, before, columns.carried);
    const changes = diff(kind, before, merged);
    if (changes.length === 0) plan.unchanged++;
    else plan.changed.push({ record: merged, changes });
  };
  const finish = () => {
    for (const [id, before] of stored) {
      if (inFile.has(id)) continue;
      const after = kind.leave(before);
      if (after) plan.leaving.push({ record: after, changes: diff(kind, before, after) });
    }
    return plan;
  };
  return { add, finish };
}

function diff<R, F extends string>(kind: ImportKind<R, F>, before: R, after: R): FieldChange<F>[] {
  const a = kind.text(before);
  const b = kind.text(after);
  return kind.fields.filter((f) => a[f] !== b[f]).map((field) => ({ field, old: a[field], new: b[field] }));
}

/** A source date as YYYY-MM-DD (not yet checked against the calendar). */
function isoDay(text: string, format: ImportMapping["date_format"]): string {
  if (format === "YYYY-MM-DD") return text;
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  if (!m) return text;
  const [month, day] = format === "MM/DD/YYYY" ? [m[1], m[2]] : [m[2], m[1]];
  return `${m[3]}-${month!.padStart(2, "0")}-${day!.padStart(2, "0")}`;
}

/** "7:30 AM" -> "07:30", "7:30" -> "07:30"; other text as it is (the schema refuses "25:00"). */
export function hhmm(text: string): string {
  const m = /^(\d{1,2}):(\d{2})(?::00)?\s*([AaPp])\.?[Mm]\.?$/.exec(text);
  if (m) {
    const hour = Number(m[1]);
    if (hour < 1 || hour > 12) return text;
    const h24 = (hour % 12) + (m[3]!.toLowerCase() === "p" ? 12 : 0);
    return `${String(h24).padStart(2, "0")}:${m[2]}`;
  }
  const h = /^(\d):(\d{2})$/.exec(text);
  return h ? `0${text}` : text.replace(/^(\d{2}:\d{2}):00$/, "$1");
}

const DAY_NAMES: Record<string, Weekday> = Object.fromEntries(
  WEEKDAYS.flatMap((d) => [
    [d.toLowerCase(), d],
    [
      {
        Mon: "monday",
        Tue: "tuesday",
        Wed: "wednesday",
        Thu: "thursday",
        Fri: "friday",
        Sat: "saturday",
        Sun: "sunday",
      }[d],
      d,
    ],
  ]),
);

/** "Mon-Fri" (a range), "Mon;Wed;Fri" or "Monday, Tuesday" as weekdays, or null when it is none of those. */
export function weekdays(text: string): Weekday[] | null {
  const days: Weekday[] = [];
  for (const part of text
    .replace(/\s*-\s*/g, "-")
    .split(/[;,/\s]+/)
    .filter(Boolean)) {
    const range = /^(\w+)-(\w+)$/.exec(part);
    if (range) {
      const from = DAY_NAMES[range[1]!.toLowerCase()];
      const to = DAY_NAMES[range[2]!.toLowerCase()];
      if (!from || !to) return null;
      const start = WEEKDAYS.indexOf(from);
      const end = WEEKDAYS.indexOf(to);
      if (end < start) return null;
      days.push(...WEEKDAYS.slice(start, end + 1));
      continue;
    }
    const day = DAY_NAMES[part.toLowerCase()];
    if (!day) return null;
    days.push(day);
  }
  return days.length > 0 ? [...new Set(days)].sort((a, b) => WEEKDAYS.indexOf(a) - WEEKDAYS.indexOf(b)) : null;
}

/** Coordinates from two optional number columns: null when both are empty. */
export const coordsOf = (lat: number | null, lng: number | null) =>
  lat === null && lng === null ? null : { lat, lng };

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
