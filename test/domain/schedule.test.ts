import { describe, expect, it } from "vitest";
import { auditWeekDates, circularMinutes, describeSchedule, overlapMinutes } from "../../src/domain/schedule.js";

describe("schedule arithmetic", () => {
  it("measures time of day on a 24-hour circle", () => {
    expect(circularMinutes("23:30", "00:15")).toBe(45);
    expect(circularMinutes("07:00", "19:00")).toBe(720);
  });

  it("finds overlap across midnight and across the week's end", () => {
    expect(
      overlapMinutes(
        { day: "Mon", start_time: "22:00", end_time: "06:00" },
        { day: "Tue", start_time: "05:00", end_time: "13:00" },
      ),
    ).toBe(60);
    expect(
      overlapMinutes(
        { day: "Sun", start_time: "22:00", end_time: "06:00" },
        { day: "Mon", start_time: "05:00", end_time: "09:00" },
      ),
    ).toBe(60);
  });

  it("maps the audit week's weekdays to dates", () => {
    const week = auditWeekDates("2026-11-25"); // Wednesday
    expect(week.get("Wed")).toBe("2026-11-25");
    expect(week.get("Tue")).toBe("2026-12-01");
    expect(() => auditWeekDates("2026-02-30")).toThrow(/calendar date/);
  });

  it("describes schedules the way people write them", () => {
    expect(
      describeSchedule(
        ["Mon", "Tue", "Wed", "Thu", "Fri"].map((day) => ({
          day: day as "Mon",
          start_time: "07:00",
          end_time: "15:30",
        })),
      ),
    ).toBe("Mon-Fri 07:00-15:30");
  });
});
