import { straightLineDistance } from "../../src/integrations/distance/straight-line.js";
import type { AuditServiceDeps } from "../../src/verification/audit-service.js";
import type { TestDatabase } from "./database.js";

/** The product's defaults, with the clock fixed on Monday 2026-11-23 (Pacific). */
export function testAuditDeps(db: TestDatabase, overrides: Partial<AuditServiceDeps> = {}): AuditServiceDeps {
  return {
    prisma: db.prisma,
    pool: db.pool,
    distance: straightLineDistance,
    policy: { maxDistanceMiles: 50, shiftToleranceMinutes: 60, minCompatibleDayRatio: 0.8 },
    now: () => new Date("2026-11-23T16:00:00Z"),
    defaultTimeZone: "America/Los_Angeles",
    ...overrides,
  };
}
