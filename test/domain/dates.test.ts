import { describe, expect, it } from "vitest";
import { day } from "../../src/agents/conversation/facts.js";
import { dateInWords, dateTimeInWords, dayInWords } from "../../src/domain/dates.js";
import { whenIn } from "../../src/http/web/page.js";

// 03:30 UTC on Dec 5 is the evening of Dec 4 in California.
const LATE_EVENING = new Date("2026-12-05T03:30:00Z");

describe("dates in the program's time zone", () => {
  it("names the same day on the pages, in the Case Manager's answers and in the terminal", () => {
    const timeZone = "America/Los_Angeles";
    expect(whenIn(timeZone)(LATE_EVENING)).toBe("Dec 4, 2026, 7:30 PM PST");
    expect(day({ timeZone }, LATE_EVENING)).toBe("Dec 4, 2026");
    expect(dayInWords(LATE_EVENING, timeZone, new Date("2026-11-01T00:00:00Z"))).toBe("Dec 4");
  });

  it("follows the configured zone, not the machine's", () => {
    expect(dateInWords(LATE_EVENING, "UTC")).toBe("Dec 5, 2026");
    expect(dateTimeInWords(LATE_EVENING, "America/New_York")).toBe("Dec 4, 2026, 10:30 PM EST");
    expect(dayInWords(LATE_EVENING, "UTC", new Date("2025-06-01T00:00:00Z"))).toBe("Dec 5, 2026");
  });
});
