import { describe, expect, it } from "vitest";
import { employeeKind, importMappingSchema } from "../../src/domain/employee-import.js";
import type { EmployeeFixture } from "../../src/domain/fixture-schema.js";
import {
  columnsFor,
  formatProblem,
  type ImportColumns,
  type ImportMapping,
  mapRow,
  planImport,
  type SourceRow,
} from "../../src/domain/record-import.js";

const columnsOf = (names: string[], m: ImportMapping) => columnsFor(employeeKind, names, m);
const mapEmployeeRow = (row: SourceRow, m: ImportMapping, c: ImportColumns<string>) => mapRow(employeeKind, row, m, c);
const planEmployeeImport = (
  rows: SourceRow[],
  m: ImportMapping,
  c: ImportColumns<string>,
  stored: Map<string, EmployeeFixture>,
  shiftIds: Set<string>,
) => planImport(employeeKind, rows, m, c, stored, { shiftIds, employeeIds: new Set(), vanpools: new Map() });

const mapping = importMappingSchema.parse({
  columns: { employee_id: "Worker ID", home_state: "State", home_zip: "ZIP", pto_dates: "PTO" },
  values: { home_state: "us_state_name", status: { Terminated: "terminated" } },
  date_format: "MM/DD/YYYY",
});
const header = [
  "Worker ID",
  "first_name",
  "last_name",
  "email",
  "work_site",
  "home_address",
  "home_city",
  "State",
  "ZIP",
  "time_type",
  "shift_id",
  "PTO",
  "home_lat",
  "home_lng",
];
const columns = columnsOf(header, mapping);
const source = (line: number, values: Record<string, string> = {}): SourceRow => ({
  at: `line ${line}`,
  values: {
    "Worker ID": `EMP-${1000 + line}`,
    first_name: "Ana",
    last_name: "Lopez",
    email: `ana${line}@example.com`,
    work_site: "HQ",
    home_address: "1 Main St",
    home_city: "San Jose",
    State: "California",
    ZIP: "95112",
    time_type: "full_time",
    shift_id: "SHIFT_DAY",
    PTO: "",
    home_lat: "",
    home_lng: "",
    ...values,
  },
});
const problemsOf = (row: SourceRow) => {
  const mapped = mapEmployeeRow(row, mapping, columns);
  return "problems" in mapped ? mapped.problems.map((p) => formatProblem("hr.csv", p)) : [];
};

describe("mapping a source row", () => {
  it("maps column names, state names and dates onto the employee fields", () => {
    const mapped = mapEmployeeRow(source(2, { PTO: "2/3/2026; 12/24/2026" }), mapping, columns);
    expect(mapped).toMatchObject({
      record: {
        employee_id: "EMP-1002",
        home_state: "CA",
        pto_dates: ["2026-02-03", "2026-12-24"],
        status: "active",
      },
    });
  });

  it("names the line, the source column and the rule broken", () => {
    expect(problemsOf(source(7, { ZIP: "9511" }))).toEqual([
      'hr.csv: line 7, column "ZIP" (home_zip): must be a 5-digit ZIP, got "9511"',
    ]);
    expect(problemsOf(source(3, { PTO: "02/30/2026" }))).toEqual([
      'hr.csv: line 3, column "PTO" (pto_dates): is not a day of the calendar, got "2026-02-30"',
    ]);
    expect(problemsOf(source(4, { home_lat: "97.1", home_lng: "-121.9" }))).toEqual([
      'hr.csv: line 4, column "home_lat": latitude must be between -90 and 90',
    ]);
    expect(problemsOf(source(5, { home_lat: "north", home_lng: "-121.9" }))).toEqual([
      'hr.csv: line 5, column "home_lat": must be a number, got "north"',
    ]);
  });

  it("refuses a header without a required column", () => {
    expect(
      columnsOf(
        header.filter((h) => h !== "ZIP"),
        mapping,
      ).problems.map((p) => formatProblem("hr.csv", p)),
    ).toEqual(['hr.csv: header, column "ZIP" (home_zip): no such column, and the field is required']);
  });
});

describe("planning an import", () => {
  const stored = (line: number, change: Partial<EmployeeFixture> = {}): [string, EmployeeFixture] => {
    const mapped = mapEmployeeRow(source(line), mapping, columns);
    if (!("record" in mapped)) throw new Error("bad fixture");
    return [mapped.record.employee_id, { ...mapped.record, ...change }];
  };
  const shifts = new Set(["SHIFT_DAY"]);

  it("sorts rows into added, changed field by field, unchanged and leaving (deactivated)", () => {
    const before = new Map([
      stored(2),
      stored(3, { home_city: "Salinas" }),
      stored(4),
      stored(5, { status: "terminated" }),
    ]);
    const plan = planEmployeeImport([source(2), source(3), source(6)], mapping, columns, before, shifts);
    expect(plan.added.map((e) => e.employee_id)).toEqual(["EMP-1006"]);
    expect(plan.changed).toEqual([
      {
        record: expect.objectContaining({ employee_id: "EMP-1003" }),
        changes: [{ field: "home_city", old: "Salinas", new: "San Jose" }],
      },
    ]);
    expect(plan.unchanged).toBe(1);
    // EMP-1005 is already terminated: it does not leave twice.
    expect(plan.leaving).toEqual([
      {
        record: expect.objectContaining({ employee_id: "EMP-1004", status: "terminated" }),
        changes: [{ field: "status", old: "active", new: "terminated" }],
      },
    ]);
  });

  it("keeps a field the file has no column for as stored", () => {
    const narrow = columnsOf(
      header.filter((h) => h !== "shift_id"),
      mapping,
    );
    const before = new Map([stored(2, { shift_id: "SHIFT_NIGHT" })]);
    const plan = planEmployeeImport([source(2)], mapping, narrow, before, shifts);
    expect(plan.unchanged).toBe(1);
  });

  it("rejects duplicate ids, an unknown shift and someone else's email; a rejected row does not leave", () => {
    const before = new Map([stored(2), stored(9)]);
    const plan = planEmployeeImport(
      [
        source(2, { ZIP: "1" }),
        source(3, { shift_id: "SHIFT_LUNAR" }),
        source(4),
        source(5, { "Worker ID": "EMP-1004", email: "other@example.com" }),
        source(6, { email: "ana9@example.com" }),
      ],
      mapping,
      columns,
      before,
      shifts,
    );
    expect(plan.rejected.flatMap((r) => r.problems.map((p) => formatProblem("hr.csv", p)))).toEqual([
      'hr.csv: line 2, column "ZIP" (home_zip): must be a 5-digit ZIP, got "1"',
      'hr.csv: line 3, column "shift_id": unknown shift id "SHIFT_LUNAR"',
      'hr.csv: line 5, column "Worker ID" (employee_id): duplicate id EMP-1004 (also on line 4)',
      'hr.csv: line 6, column "email": email ana9@example.com is already the email of EMP-1009',
    ]);
    expect(plan.leaving.map((l) => l.record.employee_id)).toEqual(["EMP-1009"]);
  });
});
