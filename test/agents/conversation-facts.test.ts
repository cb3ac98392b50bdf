// Facts the Case Manager reads across cases and records. "When did Diego's address change?": from the import history, with the
// date in words, who imported it, and never the street address an import wrote.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openCases } from "../../src/agents/conversation/open-cases.js";
import { recordChanges } from "../../src/agents/conversation/record-changes.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";
import { markdownTableRows } from "../support/markdown-table.js";

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

describe("open cases across the program, as a table", () => {
  it("lists each open case with its vanpool, where it stands, its flagged riders by name and its deadline", async () => {
    const facts = await openCases(deps());
    const open = await db.prisma.case.count({ where: { status: { notIn: ["resolved", "cancelled"] } } });
    const [header, ...rows] = markdownTableRows(facts.text);
    expect(header).toEqual(["Case", "Vanpool", "Where it stands", "Flagged", "Opened", "Deadline"]);
    expect(rows).toHaveLength(open);
    // The first line says the gist for a notification or a client that shows no table.
    const flagged = new Set(rows.flatMap((row) => row[3]!.split(", "))).size;
    expect(facts.text.split("\n")[0]).toMatch(
      new RegExp(`^${open} open cases, ${flagged} riders? flagged in all: \\d+ waiting for`),
    );
    const maribel = rows.find((row) => row[0] === "CASE-48F81374")!;
    expect(maribel.slice(1, 5)).toEqual(["VP-102", "Waiting for riders", "Maribel Quintero", "Nov 4, 2026"]);
    expect(maribel[5]).toMatch(/^replies due [A-Z][a-z]{2} \d{1,2}, \d{4}( \(passed\))?$|^reply window not started$/);
    expect(facts.text).not.toMatch(/EMP-|@|_/);
  });

  it("for 'who is flagged?': a row per flagged rider with the vanpool, the check, a band or shift and since when", async () => {
    const facts = await openCases(deps(), "riders");
    const [header, ...rows] = markdownTableRows(facts.text);
    expect(header).toEqual(["Rider", "Vanpool", "Check", "Distance or shift", "Flagged since", "Case"]);
    const cases = await db.prisma.case.findMany({ where: { status: { notIn: ["resolved", "cancelled"] } } });
    const flagged = cases.flatMap((c) => ((c.meta as { flagged?: string[] }).flagged ?? []).map(() => c.id));
    expect(rows.map((row) => row[5]).sort()).toEqual(flagged.sort());
    for (const row of rows) {
      expect(row[0]).toMatch(/^[A-Z][a-z]+ [A-Z]/);
      // Bands or a shift, never exact miles.
      expect(row[3]).not.toMatch(/\d+\.\d+|^\d+ mi/);
      expect(row[4]).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
    }
    expect(facts.text.split("\n")[0]).toMatch(/^\d+ riders are flagged on \d+ open cases: [A-Z]/);
    expect(facts.text).not.toMatch(/EMP-|@/);
  });

  it("for 'which cases need me?': only the cases waiting for a person, since when, with no deadline to chase", async () => {
    const facts = await openCases(deps(), "waiting");
    const waiting = await db.prisma.case.findMany({ where: { status: { in: ["hitl_review", "pre_cancel"] } } });
    const [header, ...rows] = markdownTableRows(facts.text);
    expect(header).toEqual(["Case", "Vanpool", "Where it stands", "Waiting since", "Flagged", "Deadline"]);
    expect(rows.map((row) => row[0]).sort()).toEqual(waiting.map((c) => c.id).sort());
    for (const row of rows) {
      expect(["Needs a person", "Cancellation pending"]).toContain(row[2]);
      expect(row[5]).toBe("none: a person decides");
    }
    expect(facts.text.split("\n")[0]).toMatch(new RegExp(`^${waiting.length} cases? waits? for a person: CASE-`));
  });
});
