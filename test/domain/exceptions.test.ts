import { describe, expect, it } from "vitest";
import {
  type CheckFacts,
  checkFacts,
  exceptionCoverage,
  exceptionExpiry,
  keptInWords,
  type RiderException,
  sameFacts,
} from "../../src/domain/exceptions.js";

const DAY = 86_400_000;
const granted = new Date("2026-11-27T10:00:00Z");
const home: CheckFacts = { check: "location", home_zip: "95361", home_coords: null };
const exception = (over: Partial<RiderException> = {}): RiderException => ({
  exception_id: "EXC-1",
  employee_id: "EMP-1028",
  vanpool_id: "VP-111",
  check: "location",
  reason: "moving_soon",
  note: "",
  granted_by: "alex",
  granted_at: granted,
  expires_at: new Date(granted.getTime() + 180 * DAY),
  facts: home,
  case_id: "CASE-1",
  revoked_by: null,
  revoked_at: null,
  ...over,
});
const rider = (facts: CheckFacts = home) => ({ employee_id: "EMP-1028", vanpool_id: "VP-111", facts });
const later = new Date(granted.getTime() + 7 * DAY);

describe("exception coverage", () => {
  it("covers the same rider, check and facts while it holds", () => {
    expect(exceptionCoverage([exception()], rider(), later).kind).toBe("covered");
  });

  it("does not cover another rider, another vanpool or another check", () => {
    expect(exceptionCoverage([exception()], { ...rider(), employee_id: "EMP-1083" }, later).kind).toBe("none");
    expect(exceptionCoverage([exception()], { ...rider(), vanpool_id: "VP-102" }, later).kind).toBe("none");
    const shift: CheckFacts = { check: "shift", shift_id: "SHIFT_NIGHT", schedule: null };
    expect(exceptionCoverage([exception()], rider(shift), later).kind).toBe("none");
  });

  it("lapses when the facts change, when it expires, or when it is revoked", () => {
    expect(exceptionCoverage([exception()], rider({ ...home, home_zip: "95380" }), later).kind).toBe("facts_changed");
    expect(
      exceptionCoverage([exception()], rider({ ...home, home_coords: { lat: 37.6, lng: -120.9 } }), later).kind,
    ).toBe("facts_changed");
    expect(exceptionCoverage([exception()], rider(), new Date(granted.getTime() + 180 * DAY)).kind).toBe("expired");
    expect(exceptionCoverage([exception({ revoked_at: granted, revoked_by: "sam" })], rider(), later).kind).toBe(
      "revoked",
    );
  });

  it("reads the latest exception granted for that rider and check", () => {
    const older = exception({ exception_id: "EXC-0", granted_at: new Date(granted.getTime() - DAY) });
    const newer = exception({ facts: { ...home, home_zip: "95380" } });
    const coverage = exceptionCoverage([older, newer], rider({ ...home, home_zip: "95380" }), later);
    expect(coverage).toMatchObject({ kind: "covered", exception: { exception_id: "EXC-1" } });
  });
});

describe("facts and expiry", () => {
  it("compares a shift by its id and its hours", () => {
    const night = {
      shift_id: "SHIFT_NIGHT",
      schedule: [{ day: "Mon" as const, start_time: "22:00", end_time: "06:00" }],
    };
    const a = checkFacts("shift", {
      home_zip: "1",
      home_coords: null,
      employment: { status: "active", separation_date: null },
      shift: night,
    });
    expect(
      sameFacts(
        a,
        checkFacts("shift", {
          home_zip: "2",
          home_coords: null,
          employment: { status: "active", separation_date: null },
          shift: night,
        }),
      ),
    ).toBe(true);
    const moved = { ...night, schedule: [{ day: "Mon" as const, start_time: "21:00", end_time: "06:00" }] };
    expect(
      sameFacts(
        a,
        checkFacts("shift", {
          home_zip: "1",
          home_coords: null,
          employment: { status: "active", separation_date: null },
          shift: moved,
        }),
      ),
    ).toBe(false);
  });

  it("lasts the maximum unless the decider chose fewer days, never more", () => {
    expect(exceptionExpiry(granted, 180).getTime() - granted.getTime()).toBe(180 * DAY);
    expect(exceptionExpiry(granted, 180, 30).getTime() - granted.getTime()).toBe(30 * DAY);
    expect(exceptionExpiry(granted, 180, 400).getTime() - granted.getTime()).toBe(180 * DAY);
  });

  it("says who kept the rider, until when and why", () => {
    expect(keptInWords(exception(), "Alex", "May 26")).toBe("kept by Alex until May 26 (moving soon)");
  });
});
