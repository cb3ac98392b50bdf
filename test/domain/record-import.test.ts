import { describe, expect, it } from "vitest";
import { hhmm, weekdays } from "../../src/domain/record-import.js";

describe("an export's times and days", () => {
  it("reads 12- and 24-hour times as HH:MM and leaves a time that is none as it is", () => {
    expect(["7:30 AM", "7:30pm", "12:00 AM", "12:15 PM", "7:30", "19:30", "19:30:00"].map(hhmm)).toEqual([
      "07:30",
      "19:30",
      "00:00",
      "12:15",
      "07:30",
      "19:30",
      "19:30",
    ]);
    expect(["25:00", "13:00 PM", "noon"].map(hhmm)).toEqual(["25:00", "13:00 PM", "noon"]);
  });

  it("reads day ranges and lists, in week order, and refuses what is not a weekday", () => {
    expect(weekdays("Mon-Fri")).toEqual(["Mon", "Tue", "Wed", "Thu", "Fri"]);
    expect(weekdays("Fri;Mon;Wed")).toEqual(["Mon", "Wed", "Fri"]);
    expect(weekdays("Monday, Tuesday")).toEqual(["Mon", "Tue"]);
    expect(weekdays("Sat - Sun")).toEqual(["Sat", "Sun"]);
    expect(weekdays("Mon-Fro")).toBeNull();
    expect(weekdays("Fri-Mon")).toBeNull();
  });
});
