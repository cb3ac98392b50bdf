// The mock program tells a story in fixed dates. Loaded as written, it ages: a week later every case
// waiting for riders is overdue. Loaded "as of now", every date moves by one offset, so the story keeps
// its order and its gaps and its latest moment falls on the day it is loaded.
import type { CaseFixture, EmailThreadFixture } from "./fixture-schema.js";

type Dated = { cases: CaseFixture[]; emailThreads: EmailThreadFixture[] };

/** The story's latest moment: its last case change or email. */
export function latestMoment(fixtures: Dated): Date | undefined {
  const moments = [
    ...fixtures.cases.flatMap((c) => [c.created_at, c.updated_at, c.resolved_at]),
    ...fixtures.emailThreads.flatMap((t) => t.messages.map((m) => m.sent_at)),
  ].flatMap((at) => (at ? [Date.parse(at)] : []));
  return moments.length ? new Date(Math.max(...moments)) : undefined;
}

const DAY_MS = 86_400_000;

/**
 * How far the story moves so that its latest moment falls within the day before `at`: whole days, so
 * every email keeps its time of day.
 */
export function offsetTo(fixtures: Dated, at: Date): number {
  const latest = latestMoment(fixtures);
  return latest ? Math.floor((at.getTime() - latest.getTime()) / DAY_MS) * DAY_MS : 0;
}

/** Every date of the cases and their emails moved by `offsetMs`. */
export function shiftDates<T extends Dated>(fixtures: T, offsetMs: number): T {
  if (offsetMs === 0) return fixtures;
  const move = (at: string) => new Date(Date.parse(at) + offsetMs).toISOString();
  return {
    ...fixtures,
    cases: fixtures.cases.map((c) => ({
      ...c,
      created_at: move(c.created_at),
      updated_at: move(c.updated_at),
      resolved_at: c.resolved_at && move(c.resolved_at),
    })),
    emailThreads: fixtures.emailThreads.map((t) => ({
      ...t,
      messages: t.messages.map((m) => ({ ...m, sent_at: move(m.sent_at) })),
    })),
  };
}
