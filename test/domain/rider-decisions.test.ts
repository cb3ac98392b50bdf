import { describe, expect, it } from "vitest";
import { castVote, everyRiderDecided } from "../../src/domain/rider-decisions.js";

const none = { decision: null, first_approver: null, decided_by: null };

describe("per-rider cancellation decisions", () => {
  it("decides with one click when one approval is enough, and keeping always takes one", () => {
    expect(castVote(undefined, { choice: "remove", actor: "A" }, 1)).toEqual({ kind: "decided", decision: "remove" });
    expect(castVote(undefined, { choice: "keep", actor: "A" }, 2)).toEqual({ kind: "decided", decision: "keep" });
  });

  it("needs two different approvers to remove under the two-person rule", () => {
    expect(castVote(undefined, { choice: "remove", actor: "A" }, 2)).toEqual({ kind: "first_of_two" });
    const first = { ...none, first_approver: "A" };
    expect(castVote(first, { choice: "remove", actor: "A" }, 2)).toEqual({ kind: "same_approver" });
    expect(castVote(first, { choice: "remove", actor: "B" }, 2)).toEqual({ kind: "decided", decision: "remove" });
    expect(castVote(first, { choice: "keep", actor: "A" }, 2)).toEqual({ kind: "decided", decision: "keep" });
  });

  it("never changes a decided rider", () => {
    const decided = { decision: "keep" as const, first_approver: null, decided_by: "B" };
    expect(castVote(decided, { choice: "remove", actor: "A" }, 1)).toEqual({
      kind: "already_decided",
      decision: "keep",
      by: "B",
    });
  });

  it("is complete only when every flagged rider has a decision", () => {
    const rows = [
      { employee_id: "E1", decision: "keep" as const },
      { employee_id: "E2", decision: null },
    ];
    expect(everyRiderDecided(["E1", "E2"], rows)).toBe(false);
    expect(everyRiderDecided(["E1"], rows)).toBe(true);
  });
});
