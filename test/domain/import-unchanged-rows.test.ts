// A row that reads as its stored record changes nothing, so the import does not validate its values
// again (that is most of a weekly re-import's rows). These tests pin what makes that safe: such a row
// maps to exactly the stored record, and the rules over the whole file still see it.
import { describe, expect, it } from "vitest";
import { readFixtureDir } from "../../src/data/fixtures.js";
import { employeeKind, importMappingSchema } from "../../src/domain/employee-import.js";
import type { EmployeeFixture } from "../../src/domain/fixture-schema.js";
import { IMPORTABLE } from "../../src/domain/import-kinds.js";
import { IMPORT_KINDS, type ImportKind, mapRow, planImport, type SourceRow } from "../../src/domain/record-import.js";

const mock = readFixtureDir("mock");
const recordsOf: Record<(typeof IMPORT_KINDS)[number], unknown[]> = {
  employees: mock.employees,
  shifts: mock.shifts,
  vanpools: mock.vanpools,
  riders: mock.vanpools.flatMap((v) =>
    v.riders.map((r) => ({
      participant_id: r.participant_id,
      vanpool_id: v.vanpool_id,
      employee_id: r.employee_id,
      status: "active",
    })),
  ),
};

/** The row an export would have for the record: each field's text in the column of its own name. */
const rowOf = <R, F extends string>(kind: ImportKind<R, F>, record: R, at: string): SourceRow => {
  const text = kind.text(record);
  return { at, values: Object.fromEntries(kind.fields.map((f) => [f, text[f] ?? ""])) };
};

describe("an unchanged row", () => {
  it.each(IMPORT_KINDS)("of %s maps to the very record whose text it is, for every mock record", (name) => {
    const { kind, mapping } = IMPORTABLE[name];
    const plain = mapping.safeParse({});
    if (!plain.success) throw new Error("the empty mapping is valid");
    const columns = { column: Object.fromEntries(kind.fields.map((f) => [f, f])), carried: new Set(kind.fields) };
    const records = recordsOf[name];
    expect(records.length).toBeGreaterThan(0);
    for (const [i, record] of records.entries()) {
      const mapped = mapRow(kind, rowOf(kind, record, `line ${i + 2}`), plain.data, { ...columns, problems: [] });
      expect(mapped).toHaveProperty("record");
      if ("record" in mapped) expect(kind.text(mapped.record)).toEqual(kind.text(record));
    }
  });

  const stored = new Map(mock.employees.map((e) => [e.employee_id, e]));
  const plainMapping = importMappingSchema.parse({});
  const allColumns = {
    column: Object.fromEntries(employeeKind.fields.map((f) => [f, f])) as Record<string, string>,
    carried: new Set<string>(employeeKind.fields),
    problems: [],
  };
  const plan = (rows: SourceRow[], mapping = plainMapping) =>
    planImport(employeeKind, rows, mapping, allColumns, stored, {
      shiftIds: new Set(mock.shifts.map((s) => s.id)),
      employeeIds: new Set(),
      vanpools: new Map(),
    });
  const rows = mock.employees.map((e, i) => rowOf(employeeKind, e, `line ${i + 2}`));

  it("is counted unchanged, and a stored record that differs from its row is still a change", () => {
    const moved: EmployeeFixture = { ...mock.employees[3]!, home_zip: "95999" };
    const result = plan(rows.map((r, i) => (i === 3 ? rowOf(employeeKind, moved, r.at) : r)));
    expect(result.rejected).toEqual([]);
    expect(result.unchanged).toBe(mock.employees.length - 1);
    expect(result.changed.map((c) => c.changes)).toEqual([
      [{ field: "home_zip", old: mock.employees[3]!.home_zip, new: "95999" }],
    ]);
  });

  it("is still refused as a duplicate id, and for an email another row of the file claims", () => {
    const [first, second] = mock.employees;
    const claimsSecondsEmail = rowOf(employeeKind, { ...first!, email: second!.email }, "line 2");
    const result = plan([claimsSecondsEmail, rows[1]!, { ...rows[1]!, at: "line 104" }, ...rows.slice(2)]);
    expect(result.rejected.map((r) => [r.row.at, r.problems.map((p) => p.rule)])).toEqual([
      ["line 2", [`email ${second!.email} is already the email of ${second!.employee_id}`]],
      ["line 3", [`email ${second!.email} is also ${first!.employee_id}'s`]],
      ["line 104", [`duplicate id ${second!.employee_id} (also on line 3)`]],
    ]);
  });

  it("is validated again when the mapping splits lists on another separator than the stored text's", () => {
    const withTwoDays = mock.employees.findIndex((e) => e.pto_dates.length > 1);
    expect(withTwoDays).toBeGreaterThanOrEqual(0);
    const result = plan([rows[withTwoDays]!], importMappingSchema.parse({ list_separator: "," }));
    expect(result.unchanged).toBe(0);
    expect(result.rejected[0]?.problems[0]?.column).toBe("pto_dates");
  });
});
