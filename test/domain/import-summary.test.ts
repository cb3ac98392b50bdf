// A re-check's outcome counts only what its own re-audit did: the case it found open when it started (under the
// vanpool's lease) against the case it left. A case another import's re-check opened in between is still failing.
import { describe, expect, it } from "vitest";
import { recheckOutcome } from "../../src/domain/import-summary.js";

describe("recheckOutcome", () => {
  it("no case before or after: passes", () => {
    expect(recheckOutcome(null, { case_id: null, status: null })).toEqual({ outcome: "passes", caseId: null });
  });

  it("a case this re-audit opened is its new case", () => {
    expect(recheckOutcome(null, { case_id: "CASE-1", status: "pending_reply" })).toEqual({
      outcome: "new_case",
      caseId: "CASE-1",
    });
  });

  it("a case open before that its re-audit closed is resolved; one it left open is still failing", () => {
    expect(recheckOutcome("CASE-1", { case_id: "CASE-1", status: "resolved" })).toEqual({
      outcome: "resolved",
      caseId: "CASE-1",
    });
    expect(recheckOutcome("CASE-1", { case_id: "CASE-1", status: "pre_cancel" })).toEqual({
      outcome: "still_open",
      caseId: "CASE-1",
    });
  });

  it("a case another import's re-check opened before this one started is still failing here, not a second new case", () => {
    // The import was applied before that case existed: only the re-audit's own view tells.
    expect(recheckOutcome("CASE-2", { case_id: "CASE-2", status: "pre_cancel" }).outcome).toBe("still_open");
  });

  it("a retry whose first attempt opened the case still counts it as its new case", () => {
    expect(recheckOutcome("CASE-3", { case_id: "CASE-3", status: "pending_reply" }, true)).toEqual({
      outcome: "new_case",
      caseId: "CASE-3",
    });
  });

  it("an old closed case the audit read back is no case: passes", () => {
    expect(recheckOutcome(null, { case_id: "CASE-4", status: "resolved" })).toEqual({
      outcome: "passes",
      caseId: null,
    });
  });
});
