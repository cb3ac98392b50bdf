// Just before riders are removed, their checks run again on today's data (the same
// audit as any other, not stored: the case keeps the evidence it was decided on).
// A rider no longer failing any check is not removed.
import type { AgentDeps } from "../agents/deps.js";
import { recordEvent } from "../data/audit-log.js";
import { findVanpoolSnapshot } from "../data/vanpool-repository.js";
import { CHECK_KINDS } from "../domain/specialist-result.js";
import { auditVanpool } from "../verification/audit.js";

export async function ridersStillFailing(
  deps: Pick<AgentDeps, "defaultTimeZone" | "distance" | "now" | "policy" | "prisma">,
  input: { caseId: string; vanpoolId: string; employeeIds: readonly string[] },
): Promise<Set<string>> {
  if (input.employeeIds.length === 0) return new Set();
  const snapshot = await findVanpoolSnapshot(deps.prisma, input.vanpoolId);
  if (!snapshot) return new Set(input.employeeIds);
  const audit = await auditVanpool(snapshot, deps);
  const failing = new Set(
    CHECK_KINDS.flatMap((check) => (audit[check].verdict === "fail" ? audit[check].flagged : [])),
  );
  const still = new Set(input.employeeIds.filter((id) => failing.has(id)));
  for (const employeeId of input.employeeIds)
    await recordEvent(deps.prisma, {
      actor: "system",
      action: "rider.rechecked",
      subjectType: "case",
      subjectId: input.caseId,
      at: deps.now(),
      details: { employee_id: employeeId, still_fails: still.has(employeeId), as_of: audit.as_of },
    });
  return still;
}
