import { describe, expect, it } from "vitest";
import { parsePeriod, periodHelp } from "../../src/domain/report-period.js";

const ZONE = "America/Los_Angeles";
// Friday Nov 27, 2026, 10:00 in Los Angeles.
const NOW = new Date("2026-11-27T18:00:00Z");
const at = (text: string) => {
  const p = parsePeriod(text, NOW, ZONE);
  if ("error" in p) throw new Error(p.error);
  return { since: p.since.toISOString(), until: p.until.toISOString(), label: p.label };
};

describe("report periods", () => {
  it("reads calendar weeks (Monday first) and months in the program's time zone", () => {
    expect(at("this week")).toEqual({
      since: "2026-11-23T08:00:00.000Z",
      until: NOW.toISOString(),
      label: "this week (Nov 23 – Nov 27, 2026)",
    });
    expect(at("Last  Week")).toEqual({
      since: "2026-11-16T08:00:00.000Z",
      until: "2026-11-23T08:00:00.000Z",
      label: "last week (Nov 16 – Nov 22, 2026)",
    });
    expect(at("this month").since).toBe("2026-11-01T07:00:00.000Z");
    // October ends on daylight saving time: its start is at 07:00 UTC, its end at 07:00 UTC after the change.
    expect(at("last month")).toEqual({
      since: "2026-10-01T07:00:00.000Z",
      until: "2026-11-01T07:00:00.000Z",
      label: "last month (Oct 1 – Oct 31, 2026)",
    });
  });

  it("reads the last N days, a month and a range of days (both ends included)", () => {
    expect(at("30d")).toMatchObject({ since: "2026-10-28T17:00:00.000Z", until: NOW.toISOString() });
    expect(at("30d").label).toBe("last 30 days (Oct 28 – Nov 27, 2026)");
    expect(at("")).toMatchObject({ since: "2026-11-20T18:00:00.000Z", label: "last 7 days (Nov 20 – Nov 27, 2026)" });
    expect(at("2026-10")).toEqual({
      since: "2026-10-01T07:00:00.000Z",
      until: "2026-11-01T07:00:00.000Z",
      label: "October 2026 (Oct 1 – Oct 31, 2026)",
    });
    // The month still running ends now.
    expect(at("2026-11").until).toBe(NOW.toISOString());
    expect(at("2026-11-01..2026-11-20")).toEqual({
      since: "2026-11-01T07:00:00.000Z",
      until: "2026-11-21T08:00:00.000Z",
      label: "Nov 1 – Nov 20, 2026",
    });
    expect(at("2025-12-30 .. 2026-01-02").label).toBe("Dec 30, 2025 – Jan 2, 2026");
  });

  it("refuses what it cannot read with a sentence saying why", () => {
    const error = (text: string) => {
      const p = parsePeriod(text, NOW, ZONE);
      return "error" in p ? p.error : "accepted";
    };
    expect(error("next week")).toBe("I don't know that period.");
    expect(error("2026-13")).toMatch(/no month 2026-13/);
    expect(error("2027-01")).toMatch(/January 2027 has not started yet/);
    expect(error("2026-11-20..2026-11-01")).toMatch(/before the first/);
    expect(error("2026-11-31..2026-12-02")).toMatch(/YYYY-MM-DD/);
    expect(error("0d")).toMatch(/from 1 to 366/);
    expect(error("2020-01-01..2026-01-01")).toMatch(/at most 366 days/);
    expect(periodHelp("I don't know that period.")).toContain("`last week`");
  });
});
