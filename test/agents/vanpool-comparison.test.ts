// Vanpools compared as a table, read from the mock program's records: the gist in words first, then a row per
// fact and a column per vanpool, every cell as the channel may read it; unknown ids named.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compareVanpools, townOf, VANPOOLS_COMPARED } from "../../src/agents/conversation/vanpool-comparison.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";
import { markdownTableRows } from "../support/markdown-table.js";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase({ mockData: true });
});
afterAll(async () => {
  await db.drop();
});

const deps = () => ({
  prisma: db.prisma,
  timeZone: "America/Los_Angeles",
  now: () => new Date("2026-11-24T16:00:00Z"),
});

/** The table as fact -> the cells of each vanpool, in column order. */
const byFact = (text: string) => new Map(markdownTableRows(text).map(([fact, ...cells]) => [fact!, cells]));

describe("two vanpools side by side", () => {
  it("says the gist in words, then a row per fact with a column per vanpool", async () => {
    const facts = await compareVanpools(deps(), ["VP-115", "VP-104"]);
    const [gist] = facts.text.split("\n");
    expect(gist).not.toContain("|");
    expect(gist).toMatch(/^Roseville-Rocklin Riders \(VP-115\) has CASE-A35B2625 open since [A-Z][a-z]{2} \d+, 2026, /);
    expect(gist).toContain("2 riders flagged on the location and shift checks.");
    expect(gist).toMatch(/South County Park & Ride \(VP-104\) has no open case; no check of it is on record\./);
    const table = byFact(facts.text);
    expect(table.get("")).toEqual(["Roseville-Rocklin Riders (VP-115)", "South County Park & Ride (VP-104)"]);
    expect(table.get("Work site")).toEqual(["Rancho Cordova Distribution Center", "San Jose HQ"]);
    // The pickup's town, never its street.
    expect(table.get("Pickup")).toEqual(["Rancho Cordova (the work site)", "Morgan Hill"]);
    const riders = await db.prisma.rider.count({ where: { vanpoolId: "VP-115" } });
    expect(table.get("Riders")![0]).toBe(`${riders} of 9 seats`);
    expect(table.get("Open case")).toEqual(["CASE-A35B2625: Waiting for riders", "none"]);
    expect(table.get("Failing checks")![0]).toBe("location and shift");
    expect(table.get("Riders flagged")![0]).toMatch(/^Cody Rasmussen \(location: 50-75 mi\); Tamika Howard \(shift: /);
    expect(table.get("Riders flagged")![1]).toBe("none");
    expect(table.get("Open since")![1]).toBe("no open case");
    expect(table.get("Deadline")![0]).toMatch(
      /^replies due [A-Z][a-z]{2} \d{1,2}, \d{4}( \(passed\))?$|^reply window not started$/,
    );
    expect(facts.text).not.toMatch(/EMP-|@|\d+\.\d+ mi|\b\d{5}\b|Depot St|Gold Center|pending_reply/);
    expect(facts.sources).toEqual(
      expect.arrayContaining(["vanpool record VP-115", "vanpool record VP-104", "case records"]),
    );
  });

  it("says of a vanpool with no open case how its last case ended, and that no check is on record", async () => {
    const facts = await compareVanpools(deps(), ["VP-102", "VP-109"]);
    expect(facts.text.split("\n")[0]).toMatch(
      /Tri-Valley Vanpool \(VP-109\) has no open case \(CASE-46D5A7EB resolved [A-Z][a-z]{2} \d+, 2026\); no check of it is on record\.$/,
    );
    const table = byFact(facts.text);
    expect(table.get("Open case")![1]).toMatch(/^none \(CASE-46D5A7EB resolved [A-Z][a-z]{2} \d+, 2026\)$/);
    expect(table.get("Failing checks")).toEqual(["location", "no check on record"]);
  });

  it("sets the thread's case first when it is compared with another vanpool", async () => {
    const facts = await compareVanpools(deps(), ["VP-102"], "CASE-A35B2625");
    expect(markdownTableRows(facts.text)[0]).toEqual([
      "",
      "Roseville-Rocklin Riders (VP-115)",
      "Evergreen Commuter (VP-102)",
    ]);
    expect(byFact(facts.text).get("Riders flagged")![1]).toMatch(/^Maribel Quintero \(location: /);
  });
});

describe("vanpools that cannot be compared", () => {
  it("names an unknown id, and compares the others when two are left", async () => {
    const one = await compareVanpools(deps(), ["VP-111", "VP-199"]);
    expect(one.text).toBe(
      'I found no vanpool VP-199 (vanpool ids look like VP-101). Name another vanpool to set VP-111 beside ("compare VP-111 and VP-1…").',
    );
    const two = await compareVanpools(deps(), ["VP-111", "VP-199", "VP-113"]);
    expect(two.text.split("\n")[0]).toMatch(/^I found no vanpool VP-199 \(vanpool ids look like VP-101\)\. Bay Fair/);
    expect(markdownTableRows(two.text)[0]).toEqual(["", "Bay Fair Night Run (VP-111)", "Elk Grove Commuters (VP-113)"]);
  });

  it("names every unknown id, and an unknown case", async () => {
    expect((await compareVanpools(deps(), ["VP-198", "VP-199"])).text).toMatch(
      /^I found no vanpool VP-198 or VP-199 \(vanpool ids look like VP-101\)\. Name two vanpools/,
    );
    expect((await compareVanpools(deps(), ["VP-111"], "CASE-00000000")).text).toBe(
      "I found no case CASE-00000000. Case ids look like CASE-1A2B3C4D.",
    );
  });

  it(`sets at most ${VANPOOLS_COMPARED} side by side and says which it left out`, async () => {
    const ids = ["VP-101", "VP-102", "VP-103", "VP-104", "VP-105", "VP-106"];
    const facts = await compareVanpools(deps(), ids);
    expect(markdownTableRows(facts.text)[0]).toHaveLength(VANPOOLS_COMPARED + 1);
    expect(facts.text).toContain(`ask about ${ids.slice(VANPOOLS_COMPARED).join(", ")} apart.`);
  });
});

describe("the town of an address", () => {
  it("is the part before the state", () => {
    expect(townOf("Tracy Transit Station Park & Ride, 50 E 6th St, Tracy, CA 95376")).toBe("Tracy");
    expect(townOf("10850 Gold Center Dr, Rancho Cordova, CA 95670")).toBe("Rancho Cordova");
  });
});
