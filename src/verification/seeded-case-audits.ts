// Seeded cases arrive with a recorded finding but without the specialists' stored results
// that a real audit leaves behind. Seeding audits their vanpools the way a sweep does (the
// same engines, the same storage), so a seeded case shows the same evidence as an audited one.

import { findLatestResultsOf } from "../data/verification-repository.js";
import { isClosed } from "../domain/case-lifecycle.js";
import type { CaseFixture } from "../domain/fixture-schema.js";
import { CHECK_KINDS } from "../domain/specialist-result.js";
import { type AuditServiceDeps, auditAndStore } from "./audit-service.js";

/** The verification-run trigger of the audits seeding stores. */
export const SEED_TRIGGER = "seed";

/**
 * Audits, once, the vanpool of every open seeded case that has no stored result of every check,
 * and stores the results; returns the vanpools audited. Closed cases are left alone: their
 * evidence is what they were decided on, which today's data cannot recompute.
 */
export async function auditSeededCases(
  deps: AuditServiceDeps,
  cases: Pick<CaseFixture, "vanpool_id" | "status">[],
): Promise<string[]> {
  const vanpoolIds = [...new Set(cases.filter((c) => !isClosed(c.status)).map((c) => c.vanpool_id))];
  const stored = await findLatestResultsOf(deps.pool, vanpoolIds);
  const missing = vanpoolIds.filter((id) => CHECK_KINDS.some((check) => !stored.get(id)?.[check]));
  const { audits, errors } = await auditAndStore(deps, missing, SEED_TRIGGER);
  if (errors.length > 0) throw new Error(errors.map((e) => e.message).join("\n"));
  return audits.map((a) => a.vanpool_id);
}
