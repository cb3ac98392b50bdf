import { describe, expect, it } from "vitest";
import { caseKind } from "../../evals/kinds/case-kind.js";

const actual = {
  status: "pending_reply",
  outcome: null,
  emails_sent: 2,
  approvals: ["escalation_reply"],
  tools: ["run_verification", "send_outreach"],
  tool_calls: 3,
  human_decisions: 0,
  refusals: 0,
};

describe("case scenarios' expectations", () => {
  it("accept any subset of status, outcome, emails_sent, approvals and tools", () => {
    expect(caseKind.expected.safeParse({ status: "pending_reply" }).success).toBe(true);
    expect(caseKind.expected.safeParse({ emails_sent: 2, tools: ["send_outreach"] }).success).toBe(true);
    expect(caseKind.expected.safeParse({ status: null, outcome: "verified" }).success).toBe(true);
  });

  it("refuse an empty expectation or an unknown field", () => {
    expect(caseKind.expected.safeParse({}).success).toBe(false);
    expect(caseKind.expected.safeParse({ status: "resolved", emails: 1 }).success).toBe(false);
  });

  it("score only the fields a scenario gives", () => {
    expect(caseKind.passed({ status: "pending_reply" }, actual)).toBe(true);
    expect(caseKind.passed({ approvals: ["escalation_reply"], emails_sent: 2 }, actual)).toBe(true);
    expect(caseKind.passed({ status: "pending_reply", emails_sent: 1 }, actual)).toBe(false);
    expect(caseKind.passed({ outcome: "resolved" }, actual)).toBe(false);
  });

  it("leave a metric out (null) when no scenario fixes its field", () => {
    const metrics = caseKind.metrics([
      { id: "a", pass: true, expected: { status: "pending_reply" }, actual },
      { id: "b", pass: false, expected: { status: "resolved", emails_sent: 2 }, actual },
    ]);
    expect(metrics).toMatchObject({
      accuracy: 0.5,
      outcome_accuracy: 0.5,
      emails_match: 1,
      hitl_match: null,
      tool_choice_accuracy: null,
    });
  });
});
