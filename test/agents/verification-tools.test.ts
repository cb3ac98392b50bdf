import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createVerificationTools } from "../../src/agents/tools/verification-tools.js";
import { straightLineDistance } from "../../src/integrations/distance/straight-line.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";

let db: TestDatabase;
let tools: ReturnType<typeof createVerificationTools>;
beforeAll(async () => {
  db = await createTestDatabase({ mockData: true });
  tools = createVerificationTools({
    prisma: db.prisma,
    distance: straightLineDistance,
    policy: { maxDistanceMiles: 50, shiftToleranceMinutes: 60, minCompatibleDayRatio: 0.8 },
  });
});
afterAll(async () => {
  await db.drop();
});

const call = async (t: { invoke(input: unknown): Promise<unknown> }, input: unknown) =>
  JSON.parse(String(await t.invoke(input)));

describe("verification tools", () => {
  it("carry the seeds' names and argument schemas", () => {
    expect(
      Object.values(tools)
        .map((t) => t.name)
        .sort(),
    ).toEqual(["check_commute_distance", "get_employee_profile", "get_employee_shifts", "get_vanpool_roster"]);
  });

  it("get_employee_profile gives ZIP and city but never a street address", async () => {
    const employee = await db.prisma.employee.findFirstOrThrow({ orderBy: { id: "asc" } });
    const profile = await call(tools.getEmployeeProfile, { employee_id: employee.id });
    expect(profile).toMatchObject({
      employee_id: employee.id,
      home_zip: employee.homeZip,
      home_city: employee.homeCity,
    });
    expect(JSON.stringify(profile)).not.toContain(employee.homeAddress);
  });

  it("check_commute_distance agrees with the audit for a far and a near rider", async () => {
    const far = await call(tools.checkCommuteDistance, { employee_id: "EMP-1045", vanpool_id: "VP-113" });
    expect(far).toMatchObject({ verdict: "fail", method: "haversine", threshold_miles: 50 });
    expect(far.distance_miles).toBeGreaterThan(50);
    const neighbour = await db.prisma.rider.findFirstOrThrow({
      where: { vanpoolId: "VP-113", employeeId: { not: "EMP-1045" } },
    });
    const near = await call(tools.checkCommuteDistance, { employee_id: neighbour.employeeId, vanpool_id: "VP-113" });
    expect(near.verdict).toBe("pass");
    expect(near.distance_miles).toBeLessThanOrEqual(50);
  });

  it("get_employee_shifts and get_vanpool_roster describe schedules readably", async () => {
    const roster = await call(tools.getVanpoolRoster, { vanpool_id: "VP-103" });
    expect(roster.riders.length).toBeGreaterThan(3);
    const rider = roster.riders[0];
    const shifts = await call(tools.getEmployeeShifts, { employee_id: rider.employee_id });
    expect(shifts.description).toBe(rider.shift);
    expect(shifts.description).toMatch(/\d{2}:\d{2}-\d{2}:\d{2}/);
  });

  it("answer an unknown id with an error the model can read", async () => {
    expect(await call(tools.getVanpoolRoster, { vanpool_id: "VP-999" })).toEqual({ error: "No vanpool VP-999." });
    expect(await call(tools.getEmployeeShifts, { employee_id: "EMP-0" })).toEqual({ error: "No employee EMP-0." });
  });
});
