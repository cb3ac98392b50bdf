// Per-rider decisions on a cancellation: keeping a rider takes one approver; removing
// one takes `required` different approvers (the two-person rule). Pure rules, no I/O.

export type RiderChoice = "remove" | "keep";

export interface RiderDecisionState {
  decision: RiderChoice | null;
  first_approver: string | null;
  decided_by: string | null;
}

export type VoteResult =
  | { kind: "decided"; decision: RiderChoice }
  | { kind: "first_of_two" }
  | { kind: "already_decided"; decision: RiderChoice; by: string | null }
  | { kind: "same_approver" };

export function castVote(
  current: RiderDecisionState | undefined,
  vote: { choice: RiderChoice; actor: string },
  required: number,
): VoteResult {
  if (current?.decision) return { kind: "already_decided", decision: current.decision, by: current.decided_by };
  if (vote.choice === "keep" || required <= 1) return { kind: "decided", decision: vote.choice };
  if (!current?.first_approver) return { kind: "first_of_two" };
  if (current.first_approver === vote.actor) return { kind: "same_approver" };
  return { kind: "decided", decision: "remove" };
}

/** Every flagged rider has a final decision. */
export function everyRiderDecided(
  employeeIds: readonly string[],
  decisions: readonly ({ employee_id: string } & Pick<RiderDecisionState, "decision">)[],
): boolean {
  return employeeIds.every((id) => decisions.some((d) => d.employee_id === id && d.decision));
}
