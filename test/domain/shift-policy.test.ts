import { describe, expect, it } from "vitest";
import type { Schedule, Weekday } from "../../src/domain/schedule.js";
import { evaluateShift, type ShiftRiderInput } from "../../src/domain/shift-policy.js";

const policy = { toleranceMinutes: 60, minCompatibleDayRatio: 0.8 };
const weekdays: Weekday[] = ["Mon", "Tue", "Wed", "Thu", "Fri"];
const schedule = (start: string, end: string, days: Weekday[] = weekdays): Schedule =>
  days.map((day) => ({ day, start_time: start, end_time: end }));
const rider = (id: string, s: Schedule | null, pto: string[] = []): ShiftRiderInput => ({
  employee_id: id,
  shift: s ? { name: `${id} shift`, schedule: s } : null,
  pto_dates: pto,
});
const AS_OF = "2026-11-23"; // a Monday
const van = (riders: ShiftRiderInput[], vanSchedule?: Schedule) =>
  evaluateShift({ vanpool: { vanpool_id: "VP-1", schedule: vanSchedule }, riders, as_of: AS_OF }, policy);

describe("shift policy", () => {
  it("passes riders exactly 60 minutes off and fails at 61", () => {
    const day = schedule("07:00", "15:30");
    expect(van([rider("A", day), rider("B", day), rider("C", schedule("08:00", "16:30"))]).verdict).toBe("pass");
    const result = van([rider("A", day), rider("B", day), rider("C", schedule("08:01", "16:30"))]);
    expect(result.verdict).toBe("fail");
    expect(result.flagged).toEqual(["C"]);
  });

  it("measures the end time on its own as well as the start", () => {
    const day = schedule("07:00", "15:30");
    expect(van([rider("A", day), rider("B", day), rider("C", schedule("07:00", "16:31"))]).flagged).toEqual(["C"]);
  });

  it("needs 80% of operating days: 4 of 5 passes, 3 of 5 fails", () => {
    const day = schedule("07:00", "15:30");
    const fourDays = schedule("07:00", "15:30", ["Mon", "Tue", "Wed", "Thu"]);
    const threeDays = schedule("07:00", "15:30", ["Mon", "Tue", "Wed"]);
    expect(van([rider("A", day), rider("B", day), rider("C", fourDays)]).verdict).toBe("pass");
    const result = van([rider("A", day), rider("B", day), rider("C", threeDays)]);
    expect(result.flagged).toEqual(["C"]);
    const evidence = result.evidence.find((e) => e.employee_id === "C")!;
    expect(evidence).toMatchObject({ compatible_days: 3, operating_days: 5, compatible_day_ratio: 0.6 });
  });

  it("compares overnight shifts on a circular clock", () => {
    const night = schedule("22:00", "06:30");
    const result = van([rider("A", night), rider("B", night), rider("C", schedule("23:00", "07:30"))]);
    expect(result.verdict).toBe("pass");
    const day = van([rider("A", night), rider("B", night), rider("C", schedule("07:00", "15:30"))]);
    expect(day.flagged).toEqual(["C"]);
  });

  it("keeps the seeds' overlap as evidence without letting it decide", () => {
    const day = schedule("07:00", "16:00");
    const result = van([rider("A", day), rider("B", day), rider("C", schedule("14:00", "22:30"))]);
    expect(result.flagged).toEqual(["C"]);
    const days = result.evidence.find((e) => e.employee_id === "C")!.days as { overlap_minutes: number }[];
    expect(days[0]!.overlap_minutes).toBe(120);
  });

  it("counts PTO inside the audit week and ignores it outside", () => {
    const day = schedule("07:00", "15:30");
    const threeDays = schedule("07:00", "15:30", ["Mon", "Tue", "Wed"]);
    const inWeek = van([rider("A", day), rider("B", day), rider("C", threeDays, ["2026-11-26"])]);
    expect(inWeek.verdict).toBe("pass");
    expect(inWeek.evidence.find((e) => e.employee_id === "C")!.pto_days_used).toEqual(["2026-11-26"]);
    expect(van([rider("A", day), rider("B", day), rider("C", threeDays, ["2026-11-19"])]).verdict).toBe("fail");
  });

  it("is inconclusive on a tie for the largest schedule group", () => {
    const result = van([
      rider("A", schedule("07:00", "15:30")),
      rider("B", schedule("07:00", "15:30")),
      rider("C", schedule("22:00", "06:30")),
      rider("D", schedule("22:00", "06:30")),
    ]);
    expect(result.verdict).toBe("inconclusive");
    expect(result.flagged).toEqual([]);
  });

  it("is inconclusive for a rider without shift data, but a failing rider still fails the van", () => {
    const day = schedule("07:00", "15:30");
    expect(van([rider("A", day), rider("B", day), rider("C", null)]).verdict).toBe("inconclusive");
    const both = van([rider("A", day), rider("B", day), rider("C", null), rider("D", schedule("22:00", "06:30"))]);
    expect(both.verdict).toBe("fail");
    expect(both.flagged).toEqual(["D"]);
  });

  it("prefers the van's own schedule over the plurality", () => {
    const swing = schedule("14:00", "22:30");
    const result = van(
      [rider("A", swing), rider("B", swing), rider("C", schedule("07:00", "15:30"))],
      schedule("07:00", "15:30"),
    );
    expect(result.flagged.sort()).toEqual(["A", "B"]);
    expect(result.evidence[0]).toMatchObject({ type: "shift_reference", source: "vanpool_schedule" });
    expect(result.confidence).toBe(5);
  });

  it("records the thresholds it decided with", () => {
    expect(van([rider("A", schedule("07:00", "15:30"))]).policy).toEqual({
      tolerance_minutes: 60,
      min_compatible_day_ratio: 0.8,
    });
  });
});
