// The case register of a window: every case opened or closed in it, one entry per case and flagged
// rider, with what was decided for the rider, by whom and why (as recorded: people by their ids).
import type { RegisterEntry } from "../domain/case-register.js";
import type { CaseRecord } from "./case-repository.js";
import { listCasesClosedSince, listCasesOpenedBetween } from "./case-repository.js";
import type { PrismaClient } from "./prisma.js";

export async function caseRegister(prisma: PrismaClient, since: Date, until?: Date): Promise<RegisterEntry[]> {
  const [opened, closed] = await Promise.all([
    listCasesOpenedBetween(prisma, since, until),
    listCasesClosedSince(prisma, since, until),
  ]);
  const cases = [...new Map([...opened, ...closed].map((c) => [c.case_id, c])).values()].sort(
    (a, b) => a.created_at.getTime() - b.created_at.getTime() || a.case_id.localeCompare(b.case_id),
  );
  const caseIds = cases.map((c) => c.case_id);
  const [employees, results, approvals, exceptions, closings] = await Promise.all([
    prisma.employee.findMany({
      where: { id: { in: [...new Set(cases.flatMap((c) => c.flagged))] } },
      select: { id: true, firstName: true, lastName: true },
    }),
    prisma.specialistResult.findMany({
      where: { run: { caseId: { in: caseIds } }, verdict: { not: "pass" } },
      select: { check: true, flagged: true, run: { select: { caseId: true } } },
    }),
    prisma.approvalRequest.findMany({
      where: { caseId: { in: caseIds }, status: { in: ["approved", "edited", "rejected"] } },
      include: { riders: true },
      orderBy: { decidedAt: "asc" },
    }),
    prisma.riderException.findMany({ where: { caseId: { in: caseIds } }, orderBy: { grantedAt: "asc" } }),
    prisma.auditEvent.findMany({
      where: { subjectType: "case", subjectId: { in: caseIds }, action: "case.status_changed" },
      orderBy: { id: "asc" },
    }),
  ]);
  const names = new Map(employees.map((e) => [e.id, e]));
  const checksOf = (caseId: string, employeeId: string) =>
    [
      ...new Set(
        results.filter((r) => r.run.caseId === caseId && r.flagged.includes(employeeId)).map((r) => r.check as string),
      ),
    ].sort();
  const closeNote = (record: CaseRecord) => {
    const event = closings
      .filter((e) => e.subjectId === record.case_id && (e.details as { to?: string }).to === record.status)
      .at(-1);
    const why = (event?.details as { why?: unknown } | undefined)?.why;
    return typeof why === "string" ? why : null;
  };

  return cases.flatMap((record) => {
    const own = approvals.filter((a) => a.caseId === record.case_id);
    /** A person's decision on the case as a whole (an escalation reply, a rejected cancellation), the latest. */
    const caseDecision = own.at(-1);
    const riders = record.flagged.length ? record.flagged : [null];
    return riders.map((employeeId): RegisterEntry => {
      const person = employeeId ? names.get(employeeId) : undefined;
      const decision = employeeId
        ? own
            .flatMap((a) => a.riders.filter((r) => r.employeeId === employeeId).map((r) => ({ a, r })))
            .filter(({ r }) => r.decision)
            .at(-1)
        : undefined;
      const exception = exceptions.filter((x) => x.employeeId === employeeId && x.caseId === record.case_id).at(-1);
      const riderDecision = decision
        ? decision.r.outcome === "reinstated"
          ? "reinstated"
          : decision.r.decision === "remove"
            ? "removed"
            : "kept"
        : null;
      return {
        case_id: record.case_id,
        vanpool_id: record.vanpool_id,
        status: record.status,
        case_reason: record.reason,
        employee_id: employeeId,
        first_name: person?.firstName ?? null,
        last_name: person?.lastName ?? null,
        checks: employeeId
          ? checksOf(record.case_id, employeeId).length
            ? checksOf(record.case_id, employeeId)
            : record.failed_checks
          : record.failed_checks,
        opened_at: record.created_at,
        closed_at: record.resolved_at,
        rider_decision: riderDecision,
        decided_by:
          riderDecision === "reinstated"
            ? (decision?.r.undoneBy ?? null)
            : (decision?.r.decidedBy ?? exception?.grantedBy ?? caseDecision?.decidedBy ?? null),
        exception_reason: riderDecision === "kept" || !decision ? (exception?.reason ?? null) : null,
        decision_reason: decision?.a.decisionReason ?? (decision ? null : (caseDecision?.decisionReason ?? null)),
        close_note: closeNote(record),
      };
    });
  });
}
