import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { type RegisterEntry, registerCsv, registerSlackUsers } from "../../src/domain/case-register.js";

const entry = (over: Partial<RegisterEntry>): RegisterEntry => ({
  case_id: "CASE-1",
  vanpool_id: "VP-111",
  status: "cancelled",
  case_reason: "location_mismatch",
  employee_id: "EMP-1028",
  first_name: "Wendell",
  last_name: "Ortiz",
  checks: ["location"],
  opened_at: new Date("2026-11-02T17:30:00Z"),
  closed_at: new Date("2026-11-12T01:15:00Z"),
  rider_decision: null,
  decided_by: null,
  exception_reason: null,
  decision_reason: null,
  close_note: null,
  ...over,
});

describe("the case register file", () => {
  const names = new Map([["U0ALICE", "Alex Rivera"]]);
  const rows = (entries: RegisterEntry[]) =>
    parse(registerCsv(entries, { timeZone: "America/Los_Angeles", names }), { columns: true }) as Record<
      string,
      string
    >[];

  it("says each rider's outcome, who decided by name and why, with times in the program's zone", () => {
    const [removed, kept, reinstated, silent, open] = rows([
      entry({ rider_decision: "removed", decided_by: "U0ALICE", decision_reason: "moved away, confirmed by U0ALICE" }),
      entry({ employee_id: "EMP-1083", rider_decision: "kept", decided_by: "U0BOB", exception_reason: "medical" }),
      entry({ rider_decision: "reinstated", decided_by: "alice", decision_reason: "wrong address on file" }),
      entry({ status: "resolved", close_note: "re-audit passed" }),
      entry({ status: "hitl_review", closed_at: null, checks: ["location", "shift"] }),
    ]);
    expect(removed).toEqual({
      case: "CASE-1",
      vanpool: "VP-111",
      "rider id": "EMP-1028",
      "rider name": "Wendell Ortiz",
      check: "location",
      opened: "2026-11-02 09:30",
      closed: "2026-11-11 17:15",
      outcome: "removed from the vanpool",
      "decided by": "Alex Rivera",
      reason: "moved away, confirmed by Alex Rivera",
    });
    // A Slack user whose name could not be had is never shown by id.
    expect(kept).toMatchObject({
      outcome: "kept",
      "decided by": "a Slack user",
      reason: "exception: medical or accommodation",
    });
    expect(reinstated).toMatchObject({ outcome: "reinstated (removal undone)", "decided by": "alice" });
    expect(silent).toMatchObject({ outcome: "resolved", "decided by": "Pool Patrol", reason: "re-audit passed" });
    expect(open).toMatchObject({
      outcome: "open: needs a person",
      closed: "",
      "decided by": "",
      check: "location and shift",
    });
  });

  it("lists the Slack users to look up, once each", () => {
    expect(
      registerSlackUsers([
        entry({ decided_by: "U0ALICE", decision_reason: "second approval by U0BOB" }),
        entry({ decided_by: "U0ALICE", close_note: "cancellation approved by U0ALICE" }),
        entry({ decided_by: "cli-user" }),
      ]).sort(),
    ).toEqual(["U0ALICE", "U0BOB"]);
  });
});
