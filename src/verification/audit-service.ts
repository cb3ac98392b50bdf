// Audits vanpools from the database and stores every result as a verification run.

import { setImmediate } from "node:timers/promises";
import type { DataClients } from "../data/prisma.js";
import { countVanpools, findActiveVanpoolSnapshots, findVanpoolSnapshots } from "../data/vanpool-repository.js";
import { findLatestResults, saveAudits } from "../data/verification-repository.js";
import type { VanpoolSnapshot } from "../domain/snapshot.js";
import {
  CHECK_KINDS,
  type CheckKind,
  combineVerdicts,
  failedChecks,
  type SpecialistResult,
  type VanpoolAudit,
  type Verdict,
} from "../domain/specialist-result.js";
import { notFound } from "../errors.js";
import { type AuditDeps, auditVanpool } from "./audit.js";

/** Vanpools read, checked and written per round trip. */
const PAGE_SIZE = 500;
/** Vanpools checked between two turns of the event loop in a sweep. */
const AUDIT_SLICE = 50;
/** Vanpools measured at once; matters only for a networked distance provider. */
const CONCURRENCY = 16;

export interface AuditServiceDeps extends AuditDeps, DataClients {}

export interface AuditSummary {
  total: number;
  byVerdict: Record<Verdict, number>;
  /** Failing and inconclusive vanpools with a one-line reason, in id order. */
  attention: { vanpool_id: string; verdict: Verdict; failed_checks: CheckKind[]; reason: string }[];
  /** Vanpools that could not be checked; the others are. */
  errors: AuditError[];
  elapsedMs: number;
}

export async function auditAllVanpools(
  deps: AuditServiceDeps,
  options: { trigger: string; onProgress?: (done: number, total: number) => void },
): Promise<AuditSummary> {
  const started = Date.now();
  const total = await countVanpools(deps.prisma, true);
  const summary: AuditSummary = {
    total,
    byVerdict: { pass: 0, fail: 0, inconclusive: 0 },
    attention: [],
    errors: [],
    elapsedMs: 0,
  };
  let afterId: string | undefined;
  let done = 0;
  // Page N is written while page N+1 is read and checked: PostgreSQL and Node each keep a core busy.
  let pendingSave: Promise<unknown> = Promise.resolve();
  options.onProgress?.(0, total);
  for (;;) {
    const page = await findVanpoolSnapshots(deps.prisma, { activeOnly: true, afterId, take: PAGE_SIZE });
    if (page.length === 0) break;
    const audits = await auditEach(page, deps, summary.errors);
    await pendingSave;
    pendingSave = saveAudits(deps.pool, audits, { trigger: options.trigger }).then(() => {
      done += audits.length;
      options.onProgress?.(done, total);
    });
    for (const audit of audits) addToSummary(summary, audit);
    afterId = page.at(-1)!.vanpool_id;
  }
  await pendingSave;
  summary.elapsedMs = Date.now() - started;
  return summary;
}

function addToSummary(summary: AuditSummary, audit: VanpoolAudit): void {
  summary.byVerdict[audit.verdict]++;
  if (audit.verdict === "pass") return;
  const reason = CHECK_KINDS.map((check) => audit[check])
    .filter((r) => r.verdict !== "pass")
    .map((r) => `${r.check}: ${riderNotes(r).join(", ")}`)
    .join("; ");
  summary.attention.push({
    vanpool_id: audit.vanpool_id,
    verdict: audit.verdict,
    failed_checks: failedChecks(audit),
    reason,
  });
}

/** The riders behind a failing or inconclusive check, each with the fact that decided it. */
function riderNotes(result: SpecialistResult): string[] {
  const notes = result.evidence.flatMap((e) => {
    if (e.verdict !== result.verdict) return [];
    if (e.type === "distance_check")
      return [
        e.distance_miles === null ? `${e.employee_id} cannot be located` : `${e.employee_id} ${e.distance_miles} mi`,
      ];
    if (e.type === "employee_shift")
      return [
        e.days ? `${e.employee_id} ${e.compatible_days}/${e.operating_days} days` : `${e.employee_id} has no shift`,
      ];
    return [];
  });
  if (notes.length > 0) return notes;
  const reference = result.evidence.find((e) => e.type === "shift_reference");
  return [reference?.tied_groups ? "riders split evenly between schedules" : "nothing to compare"];
}

/** Audits each snapshot; one whose checks throw is left out and added to `errors`. */
async function auditEach(snapshots: VanpoolSnapshot[], deps: AuditDeps, errors: AuditError[]): Promise<VanpoolAudit[]> {
  const audits: VanpoolAudit[] = [];
  await mapWithConcurrency(snapshots, CONCURRENCY, async (snapshot) => {
    try {
      audits.push(await auditVanpool(snapshot, deps));
    } catch (error) {
      errors.push(notChecked(snapshot.vanpool_id, (error as Error).message));
    }
  });
  return audits;
}

export async function mapWithConcurrency<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!);
    }
  });
  await Promise.all(workers);
  return results;
}

/** A vanpool whose checks could not run (bad data, say an unknown time zone): "VP-102 could not be checked: …". */
export interface AuditError {
  vanpool_id: string;
  message: string;
}

export const notChecked = (vanpoolId: string, why: string): AuditError => ({
  vanpool_id: vanpoolId,
  message: `${vanpoolId} could not be checked: ${why}`,
});

/**
 * Audits the given active vanpools (a page of a sweep) and stores the results under `trigger`:
 * read in one go, checked a slice at a time with the event loop let go between slices (the
 * checks are CPU work and the bot answers Slack on the same loop), each slice written while
 * the next is checked. A vanpool whose checks throw is left out and returned among `errors`,
 * so one bad record does not stop the others.
 */
export async function auditAndStore(
  deps: AuditServiceDeps,
  ids: string[],
  trigger: string,
): Promise<{ audits: VanpoolAudit[]; errors: AuditError[] }> {
  const snapshots = await findActiveVanpoolSnapshots(deps.pool, ids);
  const audits: VanpoolAudit[] = [];
  const errors: AuditError[] = [];
  let pendingSave: Promise<unknown> = Promise.resolve();
  for (let at = 0; at < snapshots.length; at += AUDIT_SLICE) {
    const slice = await auditEach(snapshots.slice(at, at + AUDIT_SLICE), deps, errors);
    audits.push(...slice);
    await pendingSave;
    pendingSave = saveAudits(deps.pool, slice, { trigger });
    await setImmediate();
  }
  await pendingSave;
  return { audits, errors };
}

/** The newest result of each check, as one audit (the specialists may have run at different times). */
export async function latestAudit(
  prisma: DataClients["prisma"],
  vanpoolId: string,
): Promise<VanpoolAudit & { run_id: string }> {
  const latest = await findLatestResults(prisma, vanpoolId);
  const { location, shift, employment } = latest;
  if (!location || !shift || !employment) throw notFound(`${vanpoolId} has not been audited yet.`);
  const newest = [location, shift, employment].reduce((a, b) => (b.finished_at > a.finished_at ? b : a));
  return {
    vanpool_id: vanpoolId,
    as_of: newest.as_of,
    verdict: combineVerdicts([location.verdict, shift.verdict, employment.verdict]),
    location,
    shift,
    employment,
    started_at: newest.finished_at,
    finished_at: newest.finished_at,
    run_id: newest.run_id,
  };
}
