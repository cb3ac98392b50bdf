import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findLatestRun } from "../../src/data/verification-repository.js";
import { type AuditServiceDeps, auditAllVanpools, latestAudit } from "../../src/verification/audit-service.js";
import { testAuditDeps } from "../support/audit-deps.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";

let db: TestDatabase;
let deps: AuditServiceDeps;
beforeAll(async () => {
  db = await createTestDatabase({ mockData: true });
  deps = testAuditDeps(db);
});
afterAll(async () => {
  await db.drop();
});

describe("auditing the mock employer", () => {
  it("finds the planted failures: location only, shift only, both, and inconclusive", async () => {
    const summary = await auditAllVanpools(deps, { trigger: "test" });
    const byId = new Map(summary.attention.map((a) => [a.vanpool_id, a]));
    const locationOnly = summary.attention.filter((a) => a.failed_checks.join() === "location");
    const shiftOnly = summary.attention.filter((a) => a.failed_checks.join() === "shift");
    const both = summary.attention.filter((a) => a.failed_checks.length === 2);
    expect(locationOnly.length).toBeGreaterThanOrEqual(3);
    expect(shiftOnly.length).toBeGreaterThanOrEqual(3);
    expect(both).toHaveLength(1);
    expect(summary.byVerdict.inconclusive).toBeGreaterThanOrEqual(1);
    expect(summary.byVerdict.pass).toBeGreaterThan(0);
    expect(byId.get("VP-118")).toBeUndefined(); // inactive vanpools are not audited
    expect(await db.prisma.verificationRun.count({ where: { trigger: "test" } })).toBe(summary.total);
  });

  it("stores each audit with its evidence and the thresholds it used", async () => {
    await auditAllVanpools(deps, { trigger: "test_one" });
    const stored = await findLatestRun(db.prisma, "VP-115");
    expect(stored?.verdict).toBe("fail");
    expect(stored?.results.map((r) => r.check).sort()).toEqual(["employment", "location", "shift"]);
    expect(stored?.results.find((r) => r.check === "location")?.flagged).toEqual(["EMP-1088"]);
    const latest = await latestAudit(db.prisma, "VP-115");
    expect(latest.run_id).toBe(stored?.run_id);
    expect(latest.shift.flagged).toEqual(["EMP-1024"]);
    expect(stored?.results[0]?.policy).toEqual({
      max_distance_miles: 50,
      tolerance_minutes: 60,
      min_compatible_day_ratio: 0.8,
    });
    expect(stored?.as_of).toBe("2026-11-23");
    expect(stored?.finished_at.toISOString()).toBe("2026-11-23T16:00:00.000Z");
  });

  it("reads a page of vanpools in a fixed number of queries, not one per rider", async () => {
    const queries: string[] = [];
    const counting = db.prisma.$extends({
      query: {
        $allOperations: async ({ args, query, model, operation }) => {
          queries.push(`${model}.${operation}`);
          return query(args);
        },
      },
    });
    await auditAllVanpools({ ...deps, prisma: counting as unknown as typeof deps.prisma }, { trigger: "count" });
    const reads = queries.filter((q) => q.endsWith("findMany") || q.endsWith("count"));
    expect(reads.length).toBeLessThanOrEqual(3); // count + one page + the empty page that ends the loop
  });
});
