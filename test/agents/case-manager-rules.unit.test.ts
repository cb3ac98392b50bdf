// The Case Manager's rules, no model and no database: what it writes on a case.
import { describe, expect, it } from "vitest";
import { caseManagerRules } from "../../src/agents/case-manager/agent.js";
import { decisionBy } from "../../src/data/approval-repository.js";

describe("a cancellation a reviewer rejected", () => {
  const rejected = { status: "rejected", decided_by: "U0ALICE", decision_reason: "she still rides every day" } as const;
  const turn = (message: string) => ({
    task: { task: "resume", case: { case_id: "CASE-1A2B3C4D5E6F7A8B" } },
    results: [{ name: "cancel_membership", content: message, rejected: true }],
    called: ["cancel_membership"],
  });

  it("closes the case in the same words as when the workflow closes it itself", () => {
    // What the agent reads (the workflow's reject message) and what the workflow writes when it finishes alone.
    const plan = caseManagerRules(turn(`R${decisionBy(rejected).slice(1)}`));
    expect(plan).toEqual([
      {
        name: "close_case",
        args: {
          case_id: "CASE-1A2B3C4D5E6F7A8B",
          reason: "Cancellation rejected by U0ALICE: she still rides every day",
        },
      },
    ]);
    expect(`Cancellation ${decisionBy(rejected)}`).toBe("Cancellation rejected by U0ALICE: she still rides every day");
  });

  it("keeps a message that is not a person's rejection as it is", () => {
    const why = "No rider was removed: every rider to remove passes the checks now.";
    expect(caseManagerRules(turn(why))).toEqual([
      { name: "close_case", args: { case_id: "CASE-1A2B3C4D5E6F7A8B", reason: why } },
    ]);
  });
});
