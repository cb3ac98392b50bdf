// A rider's earlier cases in words: how each ended for them, who kept them, whether they escalated, and their last
// reply redacted and short (no email address, no street address, no full ZIP in the channel).
import { describe, expect, it } from "vitest";
import type { CaseRecord } from "../../src/data/case-repository.js";
import type { EarlierCase } from "../../src/data/rider-history-repository.js";
import type { RiderException } from "../../src/domain/exceptions.js";
import { earlierCaseLines } from "../../src/slack/blocks/rider-history.js";

const record = (status: CaseRecord["status"]): CaseRecord => ({
  case_id: "CASE-1A2B3C4D5E6F7A8B",
  vanpool_id: "VP-111",
  status,
  reason: "location_mismatch",
  failed_checks: ["location"],
  flagged: ["EMP-1083"],
  details: "",
  meta: {},
  outcome: null,
  re_audit_count: 0,
  re_audit_counts_from: null,
  last_outbound_at: null,
  reply_extended_until: null,
  created_at: new Date("2026-10-03T16:00:00Z"),
  updated_at: new Date("2026-10-03T16:00:00Z"),
  resolved_at: null,
});

const exception: RiderException = {
  exception_id: "EXC-1A2B3C4D5E6F7A8B",
  employee_id: "EMP-1083",
  vanpool_id: "VP-111",
  check: "location",
  reason: "moving_soon",
  note: "",
  granted_by: "U0ALEX",
  granted_at: new Date("2026-10-10T16:00:00Z"),
  expires_at: new Date("2027-04-08T16:00:00Z"),
  facts: { check: "location", home_zip: "95965", home_lat: null, home_lng: null } as unknown as RiderException["facts"],
  case_id: "CASE-1A2B3C4D5E6F7A8B",
  revoked_by: null,
  revoked_at: null,
};

describe("earlierCaseLines", () => {
  it("says how the case ended for the rider, who kept them, the escalation and their last reply, redacted", () => {
    const earlier: EarlierCase = {
      record: record("resolved"),
      rider_outcome: "reinstated",
      exceptions: [exception],
      escalated: true,
      last_reply: {
        at: new Date("2026-10-05T16:00:00Z"),
        bucket: "escalation",
        text: "I want HR on this.\nWrite to diego@home.example or come to 12 Oak Street, Oroville 95965. ".repeat(3),
      },
    };
    const [line] = earlierCaseLines([earlier]);
    expect(line).toMatch(
      /^• CASE-1A2B3C4D5E6F7A8B on VP-111, opened <!date\^\d+\^\{date_short\}\|2026-10-03 16:00 UTC>: resolved; removed, then reinstated \(undone\); kept by <@U0ALEX> until <!date[^>]+> \(moving soon\); escalated to a person; last reply <!date[^>]+>, read as an escalation \(asks for a person\): “I want HR on this\. Write to \[email address\]/,
    );
    expect(line).not.toMatch(/diego@|Oak Street|95965/);
    expect(/“(.*)”/.exec(line!)![1]!.length).toBeLessThanOrEqual(140);
  });

  it("says no reply when the rider never wrote, and a revoked exception as revoked", () => {
    const [line] = earlierCaseLines([
      {
        record: record("cancelled"),
        rider_outcome: "removed",
        exceptions: [{ ...exception, revoked_at: new Date(), revoked_by: "U0ALEX" }],
        escalated: false,
        last_reply: null,
      },
    ]);
    expect(line).toMatch(/: cancelled; removed from the van; kept by .*\(moving soon\), since revoked; no reply$/);
  });

  it("says when a closed case closed, in the dates the caller writes", () => {
    const [line] = earlierCaseLines(
      [
        {
          record: { ...record("resolved"), resolved_at: new Date("2026-10-09T16:00:00Z") },
          rider_outcome: null,
          exceptions: [],
          escalated: false,
          last_reply: null,
        },
      ],
      (at) => at.toISOString().slice(0, 10),
    );
    expect(line).toBe("• CASE-1A2B3C4D5E6F7A8B on VP-111, opened 2026-10-03: resolved on 2026-10-09; no reply");
  });
});
