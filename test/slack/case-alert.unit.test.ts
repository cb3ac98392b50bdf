// The case alert's title says what the case is about now: a closed case never asks for a person.
import { describe, expect, it } from "vitest";
import type { CaseRecord } from "../../src/data/case-repository.js";
import { caseAlert } from "../../src/slack/blocks/case-alert.js";

const at = new Date("2026-11-27T10:00:00Z");
const missingData = (over: Partial<CaseRecord>): CaseRecord => ({
  case_id: "CASE-1A2B3C4D5E6F7A8B",
  vanpool_id: "VP-103",
  status: "hitl_review",
  reason: "inconclusive",
  failed_checks: [],
  flagged: [],
  details: "Some riders could not be checked (missing data); a person should review.",
  meta: {},
  outcome: null,
  re_audit_count: 0,
  re_audit_counts_from: null,
  last_outbound_at: null,
  reply_extended_until: null,
  created_at: at,
  updated_at: at,
  resolved_at: null,
  ...over,
});
const title = (record: CaseRecord) =>
  (
    caseAlert({ record, vanpoolName: "North First Flyer", results: {} }).blocks[0] as {
      text: { text: string };
    }
  ).text.text;

describe("the title of a case opened on missing data", () => {
  it("asks for a person while it waits for one", () => {
    expect(title(missingData({}))).toBe("🚩 VP-103 North First Flyer: needs a person (data missing)");
  });

  it("once resolved, says what it was about and no longer that it needs a person", () => {
    const resolved = missingData({ status: "resolved", outcome: "resolved", resolved_at: at });
    expect(title(resolved)).toBe("✅ VP-103 North First Flyer: could not be checked (data missing)");
    const alert = caseAlert({
      record: resolved,
      vanpoolName: "North First Flyer",
      results: {},
    });
    expect(alert.text).not.toMatch(/needs a person/);
  });
});
