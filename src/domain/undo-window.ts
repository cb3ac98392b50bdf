// How long a person has to undo a cancellation that removed riders (POOLPATROL_UNDO_MINUTES).

/** Until when a carried-out cancellation can be undone; null when it cannot (not a removal, not carried out). */
export function undoUntil(
  approval: { kind: string; status: string; applied_at: Date | null },
  minutes: number,
): Date | null {
  if (approval.kind !== "cancellation" || approval.status !== "approved" || !approval.applied_at) return null;
  return new Date(approval.applied_at.getTime() + minutes * 60_000);
}
