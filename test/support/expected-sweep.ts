// What a sweep must do, worked out by auditing each active vanpool directly: the vanpools that get
// a case, each with the addresses its first email goes to (none when the policy sends no email).
import type { AgentDeps } from "../../src/agents/deps.js";
import type { PrismaClient } from "../../src/data/prisma.js";
import { findVanpoolSnapshot } from "../../src/data/vanpool-repository.js";
import { decideAfterAudit } from "../../src/domain/case-lifecycle.js";
import { auditVanpool } from "../../src/verification/audit.js";

export async function expectedSweepCases(prisma: PrismaClient, deps: AgentDeps): Promise<Map<string, string[]>> {
  const expected = new Map<string, string[]>();
  for (const { id } of await prisma.vanpool.findMany({ where: { status: "active" }, select: { id: true } })) {
    const audit = await auditVanpool((await findVanpoolSnapshot(prisma, id))!, deps);
    const decision = decideAfterAudit({ location: audit.location.verdict, shift: audit.shift.verdict });
    if (decision.kind !== "open_case") continue;
    const flagged = [audit.location, audit.shift].filter((r) => r.verdict === "fail").flatMap((r) => r.flagged);
    const riders = await prisma.employee.findMany({ where: { id: { in: flagged } }, select: { email: true } });
    expected.set(id, decision.email ? riders.map((r) => r.email).sort() : []);
  }
  return expected;
}
