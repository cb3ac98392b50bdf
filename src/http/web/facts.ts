// What the pages say about a rider and who did what, by the reader's role (docs/redaction.md): a
// member reads a home as its city and ZIP3 and a distance as a band; an approver reads the street
// address, the full ZIP and exact miles. People are named, never by a raw Slack id or (to members)
// an email address.
import type { WebUser } from "../../data/web-session-repository.js";
import { distanceBand } from "../../domain/geo.js";
import { redactPersonalDetails, zip3 } from "../../domain/redaction.js";
import { actorWords } from "../../slack/blocks/trail.js";
import { seesPersonalData } from "./auth.js";
import type { WebDeps } from "./context.js";

export interface RiderLocation {
  verdict: string | null;
  miles: number | null;
  point: { lat: number; lng: number } | null;
  city: string | null;
  zip: string | null;
}

export interface DayCheck {
  day: string;
  reference: string;
  rider: string | null;
  compatible: boolean;
  via: "schedule" | "pto" | null;
}

export interface RiderShift {
  verdict: string | null;
  shiftName: string | null;
  days: DayCheck[];
  compatibleDays: number | null;
  operatingDays: number | null;
}

type Item = Record<string, unknown>;
/** The stored results of a vanpool's or a case's checks; only their evidence is read here. */
type Results = Partial<Record<"location" | "shift", { evidence: unknown }>>;
const items = (result: { evidence: unknown } | undefined): Item[] =>
  Array.isArray(result?.evidence) ? (result.evidence as Item[]) : [];

/** Each rider's location facts from the stored location result. */
export function locationsOf(results: Results): Map<string, RiderLocation> {
  const out = new Map<string, RiderLocation>();
  const entry = (id: string) => {
    const found = out.get(id) ?? { verdict: null, miles: null, point: null, city: null, zip: null };
    out.set(id, found);
    return found;
  };
  for (const item of items(results.location)) {
    const id = String(item.employee_id ?? "");
    if (item.type === "employee_profile") {
      entry(id).point = (item.home_coords as RiderLocation["point"]) ?? null;
      entry(id).city = (item.home_city as string) ?? null;
      entry(id).zip = (item.home_zip as string) ?? null;
    } else if (item.type === "distance_check") {
      entry(id).verdict = (item.verdict as string) ?? null;
      entry(id).miles = typeof item.distance_miles === "number" ? item.distance_miles : null;
    }
  }
  return out;
}

/** Each rider's shift facts (the days compared with the van's schedule) from the stored shift result. */
export function shiftsOf(results: Results): Map<string, RiderShift> {
  const out = new Map<string, RiderShift>();
  for (const item of items(results.shift)) {
    if (item.type !== "employee_shift") continue;
    out.set(String(item.employee_id), {
      verdict: (item.verdict as string) ?? null,
      shiftName: (item.shift_name as string) ?? null,
      days: Array.isArray(item.days) ? (item.days as DayCheck[]) : [],
      compatibleDays: typeof item.compatible_days === "number" ? item.compatible_days : null,
      operatingDays: typeof item.operating_days === "number" ? item.operating_days : null,
    });
  }
  return out;
}

/** The van's reference schedule the shift check compared with, in words, and where it came from. */
export function referenceOf(results: Results): { description: string; source: string } | undefined {
  const item = items(results.shift).find((i) => i.type === "shift_reference");
  if (!item?.description) return undefined;
  const source = item.source === "vanpool_schedule" ? "the van's operating schedule" : "the schedule most riders share";
  return { description: String(item.description), source };
}

export function homeWords(
  user: WebUser,
  home: { home_city: string | null; home_state?: string | null; home_zip: string | null; home_address?: string },
): string {
  const city = [home.home_city, home.home_state].filter(Boolean).join(", ");
  if (!seesPersonalData(user)) return `${city} (${zip3(home.home_zip)})`;
  return [home.home_address, `${city} ${home.home_zip ?? ""}`.trim()].filter(Boolean).join(", ");
}

export function distanceWords(user: WebUser, miles: number | null): string {
  if (miles === null) return "unknown";
  return seesPersonalData(user) ? `${miles.toFixed(1)} mi` : distanceBand(miles);
}

/** Names the actor of a recorded event: a Slack user by name, a rider's address only to approvers. */
export async function actorName(deps: WebDeps, user: WebUser, actor: string): Promise<string> {
  const [kind, ...rest] = actor.split(":");
  const id = rest.join(":");
  if (["slack", "person", "approved-by"].includes(kind!) && /^[UW][A-Z0-9]+$/.test(id))
    return deps.userName ? await deps.userName(id) : "a Slack user";
  if (kind === "person" && id) return actorName(deps, user, id);
  if (kind === "email") return seesPersonalData(user) ? `A rider (${id})` : "A rider";
  if (kind === "api") return `API token "${id}"`;
  const words = actorWords(actor);
  return seesPersonalData(user) ? words : redactPersonalDetails(words);
}
