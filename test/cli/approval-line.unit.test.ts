import { describe, expect, it } from "vitest";
import { formatApprovalLine } from "../../src/cli/case-commands.js";
import type { ApprovalRecord } from "../../src/data/approval-repository.js";

const opened = new Date("2026-12-03T09:00:00Z");
const approval: ApprovalRecord = {
  approval_id: "APR-0123456789ABCDEF",
  kind: "cancellation",
  case_id: "CASE-0123456789ABCDEF",
  payload: { employee_ids: ["EMP-1028", "EMP-1083"], reason: "no reply" },
  status: "pending",
  graph_thread_id: null,
  interrupt_id: null,
  decided_by: null,
  decided_at: null,
  decision_reason: null,
  edited_body: null,
  applied_at: null,
  result_note: null,
  created_at: opened,
};

describe("poolpatrol approvals", () => {
  it("says how long a request has waited and since when", () => {
    expect(formatApprovalLine(approval, new Date("2026-12-03T14:10:00Z"))).toMatch(
      /remove EMP-1028, EMP-1083 {2}\(waiting 5 h, since 2026-12-03 09:00\)$/,
    );
  });

  it("never shows a negative wait for a request opened by `tick --now` in the future", () => {
    const line = formatApprovalLine(approval, new Date("2026-11-24T08:00:00Z"));
    expect(line).toMatch(/\(waiting since 2026-12-03 09:00\)$/);
    expect(line).not.toMatch(/-\d+ h/);
  });
});
