// The thread note that says what a person decided and what came of it, in words:
// "✅ <@U0ALICE> edited the drafted reply. Email … sent".
import type { ApprovalRecord } from "../../data/approval-repository.js";

const SLACK_USER = /^[UW][A-Z0-9]+$/;

export function decisionNote(approval: ApprovalRecord, outcome: string): string {
  const who = SLACK_USER.test(approval.decided_by ?? "")
    ? `<@${approval.decided_by}>`
    : (approval.decided_by ?? "Someone");
  const what = approval.kind === "cancellation" ? "cancellation" : "drafted reply";
  return `${approval.status === "rejected" ? "❌" : "✅"} ${who} ${approval.status} the ${what}. ${outcome}`;
}
