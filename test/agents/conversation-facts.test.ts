// Facts the Case Manager reads across cases and records. "When did Diego's address change?": from the import history, with the
// date in words, who imported it, and never the street address an import wrote.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openCases } from "../../src/agents/conversation/open-cases.js";
import { recordChanges } from "../../src/agents/conversation/record-changes.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase({ mockData: true });
  const at = new Date("2026-11-20T18:00:00Z");
  const change = (field: string, oldValue: string, newValue: string) => ({
    entity: "employee",
    entityId: "EMP-1083",
    field,
    oldValue,
    newValue,
    sourceFile: "workday-2026-11-20.csv",
    actor: "cli:alice",
    createdAt: at,
  });
  await db.prisma.changeHistory.createMany({
    data: [
      change("home_address", "7260 Foothill Blvd, Apt 19B", "455 Mission Blvd"),
      change("home_zip", "93906", "94541"),
      change("home_city", "Salinas", "Hayward"),
    ],
  });
});
afterAll(async () => {
  await db.drop();
});

const deps = () => ({
  prisma: db.prisma,
  timeZone: "America/Los_Angeles",
  now: () => new Date("2026-11-24T16:00:00Z"),
});

describe("a rider's record changes", () => {
  it("names each change an import made, its date and who imported it, without the street address", async () => {
    const facts = await recordChanges(deps(), ["EMP-1083"]);
    expect(facts.text).toContain("Imports changed the record of Diego Fuentes (EMP-1083):");
    expect(facts.text).toContain("Nov 20, 2026: home address changed (from workday-2026-11-20.csv, imported by alice)");
    expect(facts.text).toContain("home ZIP changed from 939xx to 945xx");
    expect(facts.text).toContain("home town changed from Salinas to Hayward");
    expect(facts.text).not.toMatch(/Foothill|Mission Blvd|93906|94541/);
    expect(facts.sources).toContain("import change history");
  });

  it("says when no import has changed a rider's record, with the home and shift it holds", async () => {
    const facts = await recordChanges(deps(), ["EMP-1028"]);
    expect(facts.text).toBe(
      "No import has changed the record of Wendell Ashby (EMP-1028) since it was loaded: home in Oakdale (953xx), on Night Shift.",
    );
  });
});

describe("open cases across the program", () => {
  it("lists each open case with its vanpool, where it stands and its flagged riders by name", async () => {
    const facts = await openCases(deps());
    const open = await db.prisma.case.count({ where: { status: { notIn: ["resolved", "cancelled"] } } });
    expect(facts.text.split("\n")).toHaveLength(open + 1);
    expect(facts.text).toMatch(/^\d+ open cases, and who each flagged:/);
    expect(facts.text).toMatch(/• CASE-48F81374 \(VP-102\), waiting for the riders' replies: Maribel Quintero/);
    expect(facts.text).not.toMatch(/EMP-|@/);
  });
});
