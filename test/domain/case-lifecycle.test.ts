import { describe, expect, it } from "vitest";
import {
  assertTransition,
  CASE_STATUSES,
  checksToReAudit,
  decideAfterAudit,
  decideAfterReAudit,
  isReplyOverdue,
  outreachTemplate,
  replyDeadline,
  STATUS_LABEL,
  statusInWords,
} from "../../src/domain/case-lifecycle.js";

describe("case lifecycle", () => {
  it("opens no case when everything passes, and a review-only case when data is missing", () => {
    expect(decideAfterAudit({ location: "pass", shift: "pass" })).toEqual({ kind: "no_case", outcome: "verified" });
    expect(decideAfterAudit({ location: "inconclusive", shift: "pass" })).toMatchObject({
      kind: "open_case",
      status: "hitl_review",
      email: false,
    });
    expect(decideAfterAudit({ location: "fail", shift: "inconclusive" })).toMatchObject({
      status: "pending_reply",
      reason: "location_mismatch",
      email: true,
    });
    expect(decideAfterAudit({ location: "fail", shift: "fail" })).toMatchObject({ reason: "both" });
  });

  it("never lets a rider's word override failing data, and caps re-audits at three", () => {
    expect(decideAfterReAudit("acknowledgment", false, 1)).toMatchObject({ status: "hitl_review", email: null });
    expect(decideAfterReAudit("update", false, 1)).toMatchObject({ status: "pending_reply", email: "follow_up" });
    expect(decideAfterReAudit("update", false, 3)).toMatchObject({
      status: "pre_cancel",
      requestCancellation: true,
      email: null,
    });
    expect(decideAfterReAudit("update", true, 2)).toMatchObject({ status: "resolved", email: "confirmation" });
    expect(decideAfterReAudit("timeout", true, 1)).toMatchObject({ status: "resolved", email: null });
    expect(decideAfterReAudit("timeout", false, 1)).toMatchObject({ status: "pre_cancel", requestCancellation: true });
  });

  it("times out seven days after the last email, by the injected clock", () => {
    const sent = new Date("2026-11-23T16:00:00Z");
    expect(replyDeadline(sent).toISOString()).toBe("2026-11-30T16:00:00.000Z");
    expect(isReplyOverdue("pending_reply", sent, new Date("2026-11-30T15:59:59Z"))).toBe(false);
    expect(isReplyOverdue("pending_reply", sent, new Date("2026-11-30T16:00:00Z"))).toBe(true);
    expect(isReplyOverdue("hitl_review", sent, new Date("2026-12-30T16:00:00Z"))).toBe(false);
  });

  it("refuses transitions the lifecycle forbids, and never reopens a closed case", () => {
    expect(() => assertTransition("pending_reply", "cancelled")).toThrow(/cannot go from pending_reply to cancelled/);
    expect(() => assertTransition("resolved", "pending_reply")).toThrow(/resolved is closed/);
    expect(() => assertTransition("pre_cancel", "cancelled")).not.toThrow();
  });

  it("chooses the email template and the checks to repeat from what failed", () => {
    expect(outreachTemplate(["shift"])).toBe("shift_mismatch");
    expect(outreachTemplate(["location", "shift"])).toBe("both_mismatch");
    expect(checksToReAudit(["location", "shift"], "location")).toEqual(["location"]);
    expect(checksToReAudit(["shift"])).toEqual(["shift"]);
  });
});

describe("status wording", () => {
  it("gives every status a label and sentence words, and never a snake_case name", () => {
    for (const status of CASE_STATUSES) {
      expect(STATUS_LABEL[status]).toMatch(/^[A-Z][a-z' -]+$/);
      expect(statusInWords(status)).toMatch(/^[a-z' -]+$/);
    }
    expect(`CASE-1 is ${statusInWords("hitl_review")}`).toBe("CASE-1 is waiting for a person to review it");
    expect(STATUS_LABEL.hitl_review).toBe("Needs a person");
    expect(statusInWords("some_new_status")).toBe("some new status");
  });
});
