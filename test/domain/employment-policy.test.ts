import { describe, expect, it } from "vitest";
import { decideAfterAudit } from "../../src/domain/case-lifecycle.js";
import { type EmploymentRiderInput, evaluateEmployment, isoDayInWords } from "../../src/domain/employment-policy.js";

const TODAY = "2026-11-28";
const rider = (over: Partial<EmploymentRiderInput> = {}): EmploymentRiderInput => ({
  employee_id: "EMP-1042",
  first_name: "Derek",
  last_name: "Lin",
  status: "active",
  separation_date: null,
  status_since: null,
  ...over,
});
const check = (riders: EmploymentRiderInput[], today = TODAY) =>
  evaluateEmployment({ vanpool: { vanpool_id: "VP-104" }, riders, today });

describe("employment policy", () => {
  it("passes riders who still work here, on leave included", () => {
    const result = check([rider(), rider({ employee_id: "EMP-1043", status: "on_leave" })]);
    expect(result).toMatchObject({ check: "employment", verdict: "pass", flagged: [] });
    expect(result.reasoning).toBe("All 2 riders still work here according to the HR records.");
  });

  it("fails a terminated rider, dated by the import that marked them (they left the HR export)", () => {
    const result = check([
      rider({ status: "terminated", status_since: { on: "2026-11-20", source: "workday-2026-11-20.csv" } }),
      rider({ employee_id: "EMP-1043" }),
    ]);
    expect(result.verdict).toBe("fail");
    expect(result.flagged).toEqual(["EMP-1042"]);
    expect(result.reasoning).toBe(
      "1 rider of 2 no longer works here: Derek Lin (EMP-1042), terminated on November 20.",
    );
    expect(result.evidence[0]).toMatchObject({
      type: "employment_status",
      status: "terminated",
      source_file: "workday-2026-11-20.csv",
      ended_on: "2026-11-20",
      verdict: "fail",
    });
  });

  it("prefers the HR export's separation date to the day the status changed", () => {
    const result = check([
      rider({
        status: "terminated",
        separation_date: "2026-11-13",
        status_since: { on: "2026-11-20", source: "a.csv" },
      }),
    ]);
    expect(result.reasoning).toContain("terminated on November 13");
  });

  it("fails an active rider once their separation date has passed, not on that day or before", () => {
    expect(check([rider({ separation_date: "2026-11-27" })]).verdict).toBe("fail");
    expect(check([rider({ separation_date: "2026-11-27" })]).reasoning).toContain("employment ended on November 27");
    expect(check([rider({ separation_date: TODAY })]).verdict).toBe("pass");
    expect(check([rider({ separation_date: "2026-12-31" })]).verdict).toBe("pass");
    // The same record, read a month later (the injected today): the date has passed.
    expect(check([rider({ separation_date: "2026-12-31" })], "2027-01-02").verdict).toBe("fail");
  });

  it("says the year of a date in another year", () => {
    expect(isoDayInWords("2025-12-31", TODAY)).toBe("December 31, 2025");
    expect(isoDayInWords("2026-11-20", TODAY)).toBe("November 20");
  });

  it("sends a failed employment check to an approver without email, whatever else fails", () => {
    expect(decideAfterAudit({ location: "fail", shift: "pass", employment: "fail" })).toEqual({
      kind: "open_case",
      status: "pre_cancel",
      reason: "employment_ended",
      email: false,
    });
    expect(decideAfterAudit({ location: "fail", shift: "pass", employment: "pass" })).toMatchObject({
      status: "pending_reply",
      email: true,
    });
  });
});
