// Exceptions (docs/exceptions.md): a person kept a rider who fails a check. While the exception holds
// and the rider's facts for that check are the ones it was granted on, an audit that finds the rider
// failing that check opens no case and writes to no one. Pure rules, no I/O.
import type { LatLng } from "./geo.js";
import type { Schedule } from "./schedule.js";
import type { CheckKind } from "./specialist-result.js";

/** Why a person kept a failing rider: the short list a decider chooses from. */
export const EXCEPTION_REASONS = {
  moving_soon: { label: "moving soon", description: "The rider is moving closer, or changing shift, shortly." },
  medical: {
    label: "medical or accommodation",
    description: "A medical need or a workplace accommodation keeps the rider on this van.",
  },
  data_error: {
    label: "data error upstream",
    description: "The records are wrong and are being corrected where they come from.",
  },
  program_manager: {
    label: "program manager decision",
    description: "The program manager decided to keep the rider.",
  },
  other: { label: "other", description: "Another reason, written in the note." },
} as const;
export type ExceptionReason = keyof typeof EXCEPTION_REASONS;
export const EXCEPTION_REASON_KEYS = Object.keys(EXCEPTION_REASONS) as ExceptionReason[];

export function isExceptionReason(value: string): value is ExceptionReason {
  return Object.hasOwn(EXCEPTION_REASONS, value);
}

/** What the decider chose: a reason from the list, free text, and optionally fewer days than the maximum. */
export interface ExceptionChoice {
  reason: ExceptionReason;
  note: string;
  days?: number;
}

/** What a check read about a rider: their home for location, their shift for shift. */
export type CheckFacts =
  | { check: "location"; home_zip: string | null; home_coords: LatLng | null }
  | { check: "shift"; shift_id: string | null; schedule: Schedule | null }
  | { check: "employment"; status: string; separation_date: string | null };

export interface RiderFactsSource {
  home_zip: string | null;
  home_coords: LatLng | null;
  shift: { shift_id: string; schedule: Schedule } | null;
  employment: { status: string; separation_date: string | null };
}

export function checkFacts(check: CheckKind, rider: RiderFactsSource): CheckFacts {
  if (check === "location") return { check, home_zip: rider.home_zip, home_coords: rider.home_coords };
  if (check === "employment") return { check, ...rider.employment };
  return { check, shift_id: rider.shift?.shift_id ?? null, schedule: rider.shift?.schedule ?? null };
}

/** Same facts: the same home point, or the same shift with the same hours. */
export function sameFacts(a: CheckFacts, b: CheckFacts): boolean {
  if (a.check === "location" && b.check === "location")
    return (
      a.home_zip === b.home_zip &&
      a.home_coords?.lat === b.home_coords?.lat &&
      a.home_coords?.lng === b.home_coords?.lng
    );
  if (a.check === "shift" && b.check === "shift")
    return a.shift_id === b.shift_id && JSON.stringify(a.schedule ?? null) === JSON.stringify(b.schedule ?? null);
  if (a.check === "employment" && b.check === "employment")
    return a.status === b.status && a.separation_date === b.separation_date;
  return false;
}

export interface RiderException {
  exception_id: string;
  employee_id: string;
  vanpool_id: string;
  check: CheckKind;
  reason: ExceptionReason;
  note: string;
  granted_by: string;
  granted_at: Date;
  expires_at: Date;
  facts: CheckFacts;
  case_id: string | null;
  revoked_by: string | null;
  revoked_at: Date | null;
}

/**
 * Whether a person's exception covers a rider failing a check now:
 * - `covered`: it holds and the facts are the ones it was granted on: no case, no email;
 * - `expired` / `facts_changed` / `revoked`: the rider is audited normally, and the case shows the earlier exception;
 * - `none`: nobody kept this rider for this check.
 */
export type Coverage =
  | { kind: "covered" | "expired" | "facts_changed" | "revoked"; exception: RiderException }
  | { kind: "none" };

export function exceptionCoverage(
  exceptions: readonly RiderException[],
  rider: { employee_id: string; vanpool_id: string; facts: CheckFacts },
  now: Date,
): Coverage {
  const latest = exceptions
    .filter(
      (e) => e.employee_id === rider.employee_id && e.vanpool_id === rider.vanpool_id && e.check === rider.facts.check,
    )
    .sort((a, b) => b.granted_at.getTime() - a.granted_at.getTime())[0];
  if (!latest) return { kind: "none" };
  if (latest.revoked_at && latest.revoked_at <= now) return { kind: "revoked", exception: latest };
  if (now >= latest.expires_at) return { kind: "expired", exception: latest };
  if (!sameFacts(latest.facts, rider.facts)) return { kind: "facts_changed", exception: latest };
  return { kind: "covered", exception: latest };
}

/** When an exception granted now ends: `days` (the decider's choice), never more than `maxDays`. */
export function exceptionExpiry(grantedAt: Date, maxDays: number, days?: number): Date {
  const chosen = days === undefined ? maxDays : Math.min(Math.max(1, Math.floor(days)), maxDays);
  return new Date(grantedAt.getTime() + chosen * 86_400_000);
}

/** A live exception: not revoked and not expired at `now`. */
export function isLive(exception: Pick<RiderException, "expires_at" | "revoked_at">, now: Date): boolean {
  return !exception.revoked_at && now < exception.expires_at;
}

/**
 * "kept by Alex until May 26 (moving soon)". `who` is the decider and `until` the expiry as the reader sees them
 * (a Slack mention and date in Slack; the name and `dayInWords` in the terminal).
 */
export function keptInWords(exception: Pick<RiderException, "reason">, who: string, until: string): string {
  return `kept by ${who} until ${until} (${EXCEPTION_REASONS[exception.reason].label})`;
}

/** Why an earlier exception no longer covers the rider, in words. */
export function lapsedInWords(kind: Exclude<Coverage["kind"], "covered" | "none">, check: CheckKind): string {
  if (kind === "expired") return "it has expired";
  if (kind === "revoked") return "it was revoked";
  if (check === "employment") return "their HR record changed since";
  return check === "location" ? "their home changed since" : "their shift changed since";
}
