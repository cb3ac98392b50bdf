import { describe, expect, it } from "vitest";
import {
  countsTowardLimit,
  oneBusinessDayAfter,
  paceAfterCounted,
  reAuditBasis,
  replyReAuditKey,
} from "../../src/domain/re-audit-pacing.js";
import type { VanpoolSnapshot } from "../../src/domain/snapshot.js";

const LA = "America/Los_Angeles";
const at = (iso: string) => new Date(iso);

describe("one business day after", () => {
  it("is the same local time the next weekday, Friday and the weekend giving Monday", () => {
    // Tuesday 10:00 in Los Angeles -> Wednesday 10:00.
    expect(oneBusinessDayAfter(at("2026-12-01T18:00:00Z"), LA)).toEqual(at("2026-12-02T18:00:00Z"));
    // Friday 16:30 -> Monday 16:30; Saturday and Sunday -> Monday.
    expect(oneBusinessDayAfter(at("2026-12-05T00:30:00Z"), LA)).toEqual(at("2026-12-08T00:30:00Z"));
    expect(oneBusinessDayAfter(at("2026-12-05T18:00:00Z"), LA)).toEqual(at("2026-12-07T18:00:00Z"));
    expect(oneBusinessDayAfter(at("2026-12-06T18:00:00Z"), LA)).toEqual(at("2026-12-07T18:00:00Z"));
  });

  it("counts days where the program is: Friday evening in Los Angeles is Saturday in UTC", () => {
    // Friday 20:00 in Los Angeles is Saturday 04:00 UTC: the next business day is Monday there, not Tuesday.
    expect(oneBusinessDayAfter(at("2026-12-05T04:00:00Z"), LA)).toEqual(at("2026-12-08T04:00:00Z"));
    expect(oneBusinessDayAfter(at("2026-12-05T04:00:00Z"), "UTC")).toEqual(at("2026-12-07T04:00:00Z"));
  });

  it("keeps the local time across a daylight-saving change", () => {
    // Friday 2026-03-06 09:00 PST -> Monday 2026-03-09 09:00 PDT (one hour less in UTC).
    expect(oneBusinessDayAfter(at("2026-03-06T17:00:00Z"), LA)).toEqual(at("2026-03-09T16:00:00Z"));
  });
});

const snapshot = (over: Partial<VanpoolSnapshot["riders"][number]> = {}): VanpoolSnapshot => ({
  vanpool_id: "VP-111",
  name: "Valley",
  status: "active",
  work_site: "Modesto",
  work_site_address: "1 Main St",
  work_site_coords: { lat: 37.6, lng: -121 },
  pickup_address: null,
  pickup_coords: { lat: 37.7, lng: -121.1 },
  capacity: 8,
  coordinator_id: null,
  operating_schedule: null,
  time_zone: null,
  riders: [
    {
      employee_id: "EMP-1028",
      participant_id: "P-1",
      first_name: "Wendell",
      last_name: "Moss",
      email: "wendell@example.com",
      work_site: "Modesto",
      home_city: "Chico",
      home_state: "CA",
      home_zip: "95965",
      home_coords: null,
      shift: null,
      employment: { status: "active", separation_date: null, status_since: null },
      pto_dates: [],
      ...over,
    },
  ],
});

describe("the data a re-audit ran on", () => {
  it("changes with a rider's home or shift, not with their email or name", () => {
    const before = reAuditBasis(snapshot());
    expect(reAuditBasis(snapshot())).toBe(before);
    expect(reAuditBasis(snapshot({ email: "w.moss@example.com", first_name: "Wen" }))).toBe(before);
    expect(reAuditBasis(snapshot({ home_zip: "95354" }))).not.toBe(before);
    expect(reAuditBasis(snapshot({ home_coords: { lat: 37.64, lng: -120.99 } }))).not.toBe(before);
    const night = {
      shift_id: "SHIFT_NIGHT",
      name: "Night",
      schedule: [{ day: "Mon" as const, start_time: "22:00", end_time: "06:30" }],
    };
    expect(reAuditBasis(snapshot({ shift: night }))).not.toBe(before);
  });
});

describe("whether a re-audit counts toward the limit of three", () => {
  const first = at("2026-12-01T18:00:00Z"); // Tuesday 10:00 in Los Angeles
  const basis = reAuditBasis(snapshot());
  const pace = paceAfterCounted(first, basis, LA);
  const reply = replyReAuditKey("MSG-2");

  it("counts a reply's first re-audit", () => {
    expect(countsTowardLimit({ key: reply, at: first, basis, pace: { counts_from: null, basis: null } })).toBe(true);
  });

  it("does not count a reply's re-audit on the same data within a business day", () => {
    expect(countsTowardLimit({ key: reply, at: at("2026-12-01T18:10:00Z"), basis, pace })).toBe(false);
    expect(countsTowardLimit({ key: reply, at: at("2026-12-02T17:59:00Z"), basis, pace })).toBe(false);
  });

  it("counts it a business day later, or at once when the data changed", () => {
    expect(countsTowardLimit({ key: reply, at: at("2026-12-02T18:00:00Z"), basis, pace })).toBe(true);
    const moved = reAuditBasis(snapshot({ home_zip: "95354" }));
    expect(countsTowardLimit({ key: reply, at: at("2026-12-01T18:10:00Z"), basis: moved, pace })).toBe(true);
  });

  it("always counts a timeout's re-audit", () => {
    const timeout = "timeout:CASE-1:2026-12-01T17:00:00.000Z:2026-12-08T17:00:00.000Z";
    expect(countsTowardLimit({ key: timeout, at: at("2026-12-01T18:10:00Z"), basis, pace })).toBe(true);
  });
});
