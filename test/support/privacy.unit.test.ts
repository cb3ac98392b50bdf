import { describe, expect, it } from "vitest";
import { exactDistancesIn } from "./privacy.js";

describe("exactDistancesIn", () => {
  it("finds exact distances, whole or not, in miles or mi", () => {
    expect(exactDistancesIn("Sam lives 62 mi away")).toEqual(["62 mi"]);
    expect(exactDistancesIn("Sam lives 62.4 mi away, Jo 80 miles")).toEqual(["62.4 mi", "80 miles"]);
    expect(exactDistancesIn('{"text":"EMP-1 (Fresno, 120mi)"}')).toEqual(["120mi"]);
  });

  it("lets bands and the program's limit through", () => {
    expect(exactDistancesIn("50-75 mi from the pickup (limit 50 mi); under 10 mi; over 100 mi")).toEqual([]);
    expect(exactDistancesIn("riders living within 50 miles")).toEqual([]);
    expect(exactDistancesIn("limit 62 mi")).toEqual(["62 mi"]);
    expect(exactDistancesIn("within 40 miles", 40)).toEqual([]);
  });
});
