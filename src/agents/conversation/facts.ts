// Stored facts in plain words, each with the sources it was read from. Read-only:
// nothing here audits, sends or decides. A closed case answers from the evidence it
// was decided on, never from a later audit of its vanpool.
import { type ApprovalRecord, listApprovals } from "../../data/approval-repository.js";
import { eventsFor } from "../../data/audit-log.js";
import { type CaseRecord, countCasesByStatus, findCase, listCases } from "../../data/case-repository.js";
import { findThreadForCase, type MessageRecord } from "../../data/email-repository.js";
import { findExceptionsOn } from "../../data/exception-repository.js";
import { findPeople, findPeopleNamed, findRiderIds, type Person } from "../../data/people-repository.js";
import type { PrismaClient } from "../../data/prisma.js";
import { programFigures } from "../../data/program-figures.js";
import { findEarlierCasesOfRiders, listCasesOfRider } from "../../data/rider-history-repository.js";
import { findVanpoolSnapshot, findVanpoolsNameContaining } from "../../data/vanpool-repository.js";
import {
  findCaseEvidence,
  findLatestResults,
  type LatestResults,
  type StoredResult,
} from "../../data/verification-repository.js";
import { type AnswerTable, tableMarkdown } from "../../domain/answer-table.js";
import { CASE_STATUSES, isClosed, MAX_RE_AUDITS, replyDeadline, statusInWords } from "../../domain/case-lifecycle.js";
import { dateInWords, dayAndTimeInWords } from "../../domain/dates.js";
import { keptInWords, type RiderException } from "../../domain/exceptions.js";
import { distanceBand } from "../../domain/geo.js";
import { EXACT_DISTANCE_WHERE, redactFinding, redactPersonalDetails, zip3 } from "../../domain/redaction.js";
import { describeSchedule } from "../../domain/schedule.js";
import { CHECK_ICONS, CHECK_TITLES, type CheckKind, plural } from "../../domain/specialist-result.js";
import { AppError } from "../../errors.js";
import { earlierCaseLines } from "../../slack/blocks/rider-history.js";
import { actorWords, mentionSlackIds } from "../../slack/blocks/trail.js";
import { loadPolicy, type PolicySection } from "../outreach/policy.js";
import { findPolicySections, relevantSentences } from "./policy-search.js";
import {
  COMPARES,
  namedSubject,
  nameSearchWords,
  nameStub,
  type RosterEntry,
  riderName,
  type VanpoolName,
  vanpoolsComparedIn,
  vanpoolsNamedIn,
} from "./understand.js";

export interface FactsDeps {
  prisma: PrismaClient;
  timeZone: string;
  now(): Date;
}

export interface Facts {
  text: string;
  sources: string[];
}

export interface CaseFacts extends Facts {
  case_id: string;
  vanpool_id: string;
  roster: RosterEntry[];
}

export const REASON_WORDS: Record<string, string> = {
  location_mismatch: "the location check failed (home too far from the pickup)",
  shift_mismatch: "the shift check failed (shift does not match the van's hours)",
  both: "both the location and the shift checks failed",
  inconclusive: "a check could not decide (data missing)",
};

export function day(deps: Pick<FactsDeps, "timeZone">, date: Date): string {
  return dateInWords(date, deps.timeZone);
}

function dayAndTime(deps: Pick<FactsDeps, "timeZone" | "now">, date: Date): string {
  return dayAndTimeInWords(date, deps.timeZone, deps.now());
}

const notFoundCase = (caseId: string): Facts => ({
  text: `I found no case ${caseId}. Case ids look like CASE-1A2B3C4D.`,
  sources: ["case records"],
});

async function roster(prisma: PrismaClient, record: CaseRecord): Promise<{ people: Person[]; roster: RosterEntry[] }> {
  const ids = [...new Set([...record.flagged, ...(await findRiderIds(prisma, record.vanpool_id))])];
  const people = await findPeople(prisma, ids);
  return {
    people,
    roster: people.map((p) => ({
      employee_id: p.employee_id,
      first_name: p.first_name,
      last_name: p.last_name,
      flagged: record.flagged.includes(p.employee_id),
      traits: [p.home_city, ...(p.shift_name ? [p.shift_name] : [])],
    })),
  };
}

const nameOf = (people: Person[], id: string) => {
  const p = people.find((x) => x.employee_id === id);
  return p ? riderName(p) : id;
};

export async function caseOverview(deps: FactsDeps, caseId: string): Promise<CaseFacts | Facts> {
  const record = await findCase(deps.prisma, caseId);
  if (!record) return notFoundCase(caseId);
  // Read side by side: an answer's first words wait on these.
  const [{ people, roster: entries }, van, thread, events] = await Promise.all([
    roster(deps.prisma, record),
    findVanpoolSnapshot(deps.prisma, record.vanpool_id),
    findThreadForCase(deps.prisma, caseId),
    eventsFor(deps.prisma, [caseId]),
  ]);
  const timeline: [Date, string][] = [[record.created_at, `case opened: ${REASON_WORDS[record.reason]}`]];
  for (const m of thread?.messages ?? [])
    timeline.push([
      m.at,
      m.direction === "outbound"
        ? `email sent to ${recipients(people, m)}`
        : `reply from ${senderName(people, m)}${m.bucket ? ` (read as ${m.bucket})` : ""}`,
    ]);
  for (const e of events) {
    const line = eventWords(e.action, e.details, e.actor, people);
    if (line) timeline.push([e.at, line]);
  }
  if (record.resolved_at && !events.some((e) => e.details.to === record.status))
    timeline.push([record.resolved_at, `case ${record.status}`]);
  timeline.sort((a, b) => a[0].getTime() - b[0].getTime());
  const flaggedNames = record.flagged.map((id) => nameOf(people, id));
  const text = [
    `*${caseId}* (${van?.name ? `${van.name}, ` : ""}${record.vanpool_id}) is ${statusInWords(record.status)}${record.outcome ? ` (outcome: ${record.outcome})` : ""}.`,
    `Opened ${day(deps, record.created_at)} because ${REASON_WORDS[record.reason]}.`,
    ...(isClosed(record.status) && typeof record.meta.resolution === "string"
      ? [`How it ended: ${redactFinding(record.meta.resolution)}`]
      : []),
    flaggedNames.length ? `Flagged: ${flaggedNames.join(", ")}.` : "No rider is flagged.",
    `Re-audits so far: ${record.re_audit_count} of ${MAX_RE_AUDITS}.`,
    ...replyWindowLine(deps, record),
    ...(isClosed(record.status)
      ? []
      : ["While the case is open every rider keeps their seat: no one is removed unless an approver approves it."]),
    "Timeline:",
    ...timeline.map(([at, what]) => `• ${day(deps, at)}: ${what}`),
  ].join("\n");
  return {
    text,
    sources: [`case record ${caseId}`, "audit trail", ...(thread ? ["the case's email thread"] : [])],
    case_id: caseId,
    vanpool_id: record.vanpool_id,
    roster: entries,
  };
}

/** A case waiting for replies says when they are due: a bare "status?" is asked as often as "when's the deadline?". */
function replyWindowLine(deps: FactsDeps, record: CaseRecord): string[] {
  if (record.status !== "pending_reply" || !record.last_outbound_at) return [];
  const deadline = replyDeadline(record.last_outbound_at);
  const passed = deadline.getTime() <= deps.now().getTime();
  return [`Replies ${passed ? "were" : "are"} due by *${day(deps, deadline)}*${passed ? " (passed)" : ""}.`];
}

function eventWords(
  action: string,
  details: Record<string, unknown>,
  actor: string,
  people: Person[],
): string | undefined {
  const who = actorWords(actor);
  switch (action) {
    case "case.status_changed":
      return `now ${statusInWords(String(details.to))}${details.why ? ` (${mentionSlackIds(redactPersonalDetails(String(details.why)))})` : ""}`;
    case "approval.approved":
    case "approval.edited":
    case "approval.rejected":
      return `${String(details.kind ?? "request").replace("_", " ")} ${action.split(".")[1]}${who ? ` by ${who}` : ""}`;
    case "approval.expired":
      return "a waiting approval request expired";
    case "rider.removed":
      return `${nameOf(people, String(details.employee_id))} removed from the vanpool`;
    default:
      return undefined;
  }
}

/** Open cases show the vanpool's newest evidence; closed ones the evidence they were decided on. */
async function evidenceFor(prisma: PrismaClient, record: CaseRecord): Promise<LatestResults> {
  if (!isClosed(record.status)) return findLatestResults(prisma, record.vanpool_id);
  const [linked, before] = await Promise.all([
    findCaseEvidence(prisma, record.case_id),
    findLatestResults(prisma, record.vanpool_id, { finishedBy: record.resolved_at ?? undefined }),
  ]);
  return { location: linked.location ?? before.location, shift: linked.shift ?? before.shift };
}

/** The checks of a case, or of a vanpool that has no case (its latest audit). */
export type ChecksSubject = { case_id: string } | { vanpool_id: string };

export async function checkResults(
  deps: FactsDeps,
  subject: ChecksSubject,
  options: {
    check?: CheckKind;
    employee_ids?: string[];
    only_failing?: boolean;
    /** The asker wants the exact distance: say where it is shown. */
    exact?: boolean;
    /** Someone says a rider's facts changed: say what is on record and what would change the result. */
    what_would_change?: boolean;
    /** Two or more riders compared: their facts as a table, a column each, instead of a line each. */
    side_by_side?: boolean;
    /** Exceptions are asked about: say when no rider is kept by one. */
    kept?: boolean;
  } = {},
): Promise<Facts> {
  // A vanpool named by id answers from its latest case when it has one (its own audit may be older than the case).
  const caseId =
    "case_id" in subject
      ? subject.case_id
      : (await listCases(deps.prisma, { vanpoolId: subject.vanpool_id }))[0]?.case_id;
  const record = caseId ? await findCase(deps.prisma, caseId) : undefined;
  if (caseId && !record) return notFoundCase(caseId);
  const vanpoolId = record?.vanpool_id ?? (subject as { vanpool_id: string }).vanpool_id;
  const [van, people, results, kept] = await Promise.all([
    findVanpoolSnapshot(deps.prisma, vanpoolId),
    record
      ? roster(deps.prisma, record).then((r) => r.people)
      : findRiderIds(deps.prisma, vanpoolId).then((ids) => findPeople(deps.prisma, ids)),
    record ? evidenceFor(deps.prisma, record) : findLatestResults(deps.prisma, vanpoolId),
    findExceptionsOn(deps.prisma, [vanpoolId]),
  ]);
  if (!van) return noVanpool(vanpoolId);
  const failedChecks = record?.failed_checks ?? [];
  const flagged = record?.flagged ?? [];
  const publicAddresses = [van.work_site_address, van.pickup_address];
  const failing = (["location", "shift"] as const).filter(
    (c) => results[c]?.verdict === "fail" || (!results[c] && failedChecks.includes(c)),
  );
  const checks = options.check
    ? [options.check]
    : options.only_failing && failing.length
      ? failing
      : (["location", "shift"] as const);
  const asked = options.employee_ids?.length ? options.employee_ids : undefined;
  const exceptions = kept.filter((e) => !e.revoked_at && e.expires_at > deps.now());
  const parts: string[] = [];
  const sources: string[] = [];
  const compared = options.side_by_side && asked && asked.length > 1 ? asked : undefined;
  for (const check of checks) {
    const result = results[check];
    if (!result) {
      const recorded =
        record && failedChecks.includes(check)
          ? ` The case recorded this finding when it opened: ${redactFinding(recordedFor(record.details, check), publicAddresses)}`
          : failedChecks.length
            ? ` The case was opened on the ${failedChecks.join(" and ")} check only.`
            : "";
      const who = failedChecks.includes(check)
        ? ` Flagged on this case: ${(asked ?? flagged).map((id) => nameOf(people, id)).join(", ")}.`
        : "";
      parts.push(`*${label(check)}:* no ${check} check of ${vanpoolId} is on record.${who}${recorded}`);
      if (options.what_would_change && record && failedChecks.includes(check))
        for (const id of asked ?? flagged) {
          const person = people.find((p) => p.employee_id === id);
          if (person && recordedFor(record.details, check).includes(person.first_name))
            parts.push(
              stillOnRecord(check, person, Number(/limit (?:is |of )?(\d+)/.exec(record.details)?.[1]) || undefined),
            );
        }
      sources.push(caseId ? `case record ${caseId}` : `vanpool record ${vanpoolId}`);
      continue;
    }
    const riders = (asked ?? (result.flagged.length ? result.flagged : failingRiders(result))).flatMap((id) => {
      const line = riderLine(check, result, id, people);
      const kept = exceptions.find((e) => e.employee_id === id && e.check === check);
      const change = options.what_would_change ? whatWouldChange(check, result, id, people) : undefined;
      return [line, ...(kept ? [`  ${keptLine(deps, kept)}`] : []), ...(change ? [`  ${change}`] : [])];
    });
    const closedNote = record && isClosed(record.status) ? " (the evidence the case was decided on)" : "";
    const reference = check === "shift" ? shiftReference(result) : pickup(result);
    parts.push(
      [
        `*${label(check)}: ${result.verdict}* (confidence ${result.confidence}/5), checked ${day(deps, result.finished_at)}${closedNote}.${reference}`,
        ...(compared ? [] : riders.length ? riders : [`• ${redactFinding(result.reasoning, publicAddresses)}`]),
      ].join("\n"),
    );
    sources.push(`the ${check} check of ${day(deps, result.finished_at)}`);
  }
  if (checks.length > 1 && failing.length > 1) parts.unshift("Both checks failed: location and shift.");
  // "Is this a location problem?" on a shift case: say what the case is about.
  const elsewhere = failing.filter((c) => !checks.includes(c));
  if (elsewhere.length && checks.every((c) => results[c]?.verdict === "pass"))
    parts.push(`What failed ${caseId ? "on this case" : `on ${vanpoolId}`}: the ${elsewhere.join(" and ")} check.`);
  if (compared)
    parts.push(
      `${compared.map((id) => nameOf(people, id)).join(" and ")} side by side:\n\n${tableMarkdown(sideBySide(checks, results, compared, people))}`,
    );
  if (options.exact && checks.includes("location")) parts.push(EXACT_DISTANCE_WHERE);
  const keptHere = exceptions.filter((e) => !asked || asked.includes(e.employee_id));
  if (options.kept && keptHere.length === 0)
    parts.unshift(
      `No rider ${asked ? `asked about ` : ""}on ${van.name ?? vanpoolId} (${vanpoolId}) is kept by an exception now: a failing check opens or keeps a case for them. An approver keeps a rider (an exception with an end date) from the cancellation card.`,
    );
  return { text: parts.join("\n\n"), sources };
}

/** Riders compared: a row per fact of the checks asked, a column per rider; bands, never exact miles. */
function sideBySide(
  checks: readonly CheckKind[],
  results: LatestResults,
  ids: string[],
  people: Person[],
): AnswerTable {
  const evidence = (check: CheckKind, type: string, id: string) =>
    results[check]?.evidence.find((e) => e.type === type && e.employee_id === id);
  const row = (field: string, value: (id: string) => string) => [field, ...ids.map(value)];
  const rows: string[][] = [];
  if (checks.includes("location"))
    rows.push(
      row("Home", (id) => {
        const person = people.find((p) => p.employee_id === id);
        return person ? `${person.home_city} (${zip3(person.home_zip)})` : "not on file";
      }),
      row("Distance from the pickup", (id) => {
        const miles = evidence("location", "distance_check", id)?.distance_miles;
        return typeof miles === "number" ? distanceBand(miles) : "unknown";
      }),
      row("Location check", (id) => verdictWord(evidence("location", "distance_check", id)?.verdict)),
    );
  if (checks.includes("shift"))
    rows.push(
      row("Shift", (id) => {
        const shift = evidence("shift", "employee_shift", id);
        return shift?.shift_name
          ? `${shift.shift_name}${shift.schedule ? ` (${shift.schedule})` : ""}`
          : "no shift on file";
      }),
      row("Compatible days", (id) => {
        const shift = evidence("shift", "employee_shift", id);
        return shift?.compatible_days !== undefined ? `${shift.compatible_days} of ${shift.operating_days}` : "unknown";
      }),
      row("Shift check", (id) => verdictWord(evidence("shift", "employee_shift", id)?.verdict)),
    );
  const header = (id: string) => {
    const person = people.find((p) => p.employee_id === id);
    return person ? `${person.first_name} ${person.last_name}` : "a rider no longer on file";
  };
  return { columns: ["", ...ids.map(header)], rows };
}

const noVanpool = (vanpoolId: string): Facts => ({
  text: `I found no vanpool ${vanpoolId}. Vanpool ids look like VP-101.`,
  sources: ["vanpool records"],
});

/** A finding recorded for both checks ("Location: … Shift: …"), narrowed to one. */
export function recordedFor(details: string, check: CheckKind): string {
  const part = new RegExp(
    `${check === "location" ? "Location" : "Shift"}:\\s*(.*?)(?=\\s(?:Location|Shift):|$)`,
    "s",
  ).exec(details);
  return part?.[1] ?? details;
}

/**
 * Riders a result names without flagging them: those a check could not decide (no home location,
 * no shift), or those who fail but are kept by a person's exception (no case opens for them).
 */
function failingRiders(result: StoredResult): string[] {
  const type = result.check === "location" ? "distance_check" : "employee_shift";
  const wanted =
    result.verdict === "inconclusive" ? (v: unknown) => v !== "pass" && v !== "fail" : (v: unknown) => v === "fail";
  return result.evidence.filter((e) => e.type === type && wanted(e.verdict)).map((e) => String(e.employee_id));
}

/** A rider kept by a person: by whom, until when, and why, so a failing check opens no case. */
function keptLine(deps: FactsDeps, kept: RiderException): string {
  const why = kept.note.trim() ? `: “${redactFinding(kept.note.trim())}”` : "";
  return `↳ ${keptInWords(kept, actorWords(kept.granted_by), day(deps, kept.expires_at))}${why}. While this exception holds, a failing ${kept.check} check opens no case for them.`;
}

const label = (check: CheckKind) => `${CHECK_ICONS[check]} ${CHECK_TITLES[check]} check`;

function pickup(result: StoredResult): string {
  const limit = result.policy.max_distance_miles;
  return limit ? ` The limit is ${limit} mi from the van's pickup.` : "";
}

function shiftReference(result: StoredResult): string {
  const reference = result.evidence.find((e) => e.type === "shift_reference");
  if (!reference?.description) return "";
  const source =
    reference.source === "vanpool_schedule" ? "the van's operating schedule" : "the schedule most riders share";
  return ` The van's reference: ${reference.description} (${source}).`;
}

function riderLine(check: CheckKind, result: StoredResult, id: string, people: Person[]): string {
  const who = nameOf(people, id);
  if (check === "location") {
    const profile = result.evidence.find((e) => e.type === "employee_profile" && e.employee_id === id);
    const distance = result.evidence.find((e) => e.type === "distance_check" && e.employee_id === id);
    if (!profile || !distance) return `• ${who}: not part of this location check.`;
    const miles = distance.distance_miles as number | null;
    const zip = String(profile.home_zip ?? "");
    const home = `${profile.home_city ?? "unknown city"} (${zip3(zip)})`;
    // Why a home could not be measured is what the auditor needs to fix it.
    const where =
      miles === null
        ? "could not be located (no home coordinates on record and its ZIP code is not one the check knows), so its distance"
        : distanceBand(miles);
    return `• ${who}: ${verdictWord(distance.verdict)}. Home in ${home}, ${where}${miles === null ? " is unknown" : " from the pickup"} (limit ${distance.threshold_miles} mi).`;
  }
  const shift = result.evidence.find((e) => e.type === "employee_shift" && e.employee_id === id);
  if (!shift) return `• ${who}: not part of this shift check.`;
  const days =
    shift.compatible_days !== undefined
      ? ` Compatible on ${shift.compatible_days} of ${shift.operating_days} operating days (needs ${Math.round(Number(result.policy.min_compatible_day_ratio ?? 0.8) * 100)}%).`
      : "";
  if (!shift.shift_name) return `• ${who}: ${verdictWord(shift.verdict)}: no shift on file.`;
  return `• ${who}: ${verdictWord(shift.verdict)}. On ${shift.shift_name}${shift.schedule ? ` (${shift.schedule})` : ""}.${days}`;
}

/** A rider says their facts changed: what the record still says, and what would make the check pass. */
function whatWouldChange(check: CheckKind, result: StoredResult, id: string, people: Person[]): string | undefined {
  const person = people.find((p) => p.employee_id === id);
  if (check === "location") {
    const distance = result.evidence.find((e) => e.type === "distance_check" && e.employee_id === id);
    if (distance?.verdict !== "fail") return undefined;
    return stillOnRecord(
      check,
      person,
      Number(distance.threshold_miles ?? result.policy.max_distance_miles) || undefined,
    );
  }
  const shift = result.evidence.find((e) => e.type === "employee_shift" && e.employee_id === id);
  if (shift?.verdict !== "fail") return undefined;
  const reference = result.evidence.find((e) => e.type === "shift_reference")?.description;
  const tolerance = Number(result.policy.tolerance_minutes ?? 60);
  const share = Math.round(Number(result.policy.min_compatible_day_ratio ?? 0.8) * 100);
  const rule = `a shift that starts and ends within ${tolerance} minutes of the van's hours${reference ? ` (${reference})` : ""} on at least ${share}% of its operating days`;
  return stillOnRecord(check, person, undefined, shift.schedule ? String(shift.schedule) : undefined, rule);
}

function stillOnRecord(
  check: CheckKind,
  person: Person | undefined,
  limit?: number,
  schedule?: string,
  rule?: string,
): string {
  const who = person?.first_name ?? "The rider";
  if (check === "location")
    return `↳ ${who}'s home on record is still in ${person?.home_city ?? "the same place"} (${zip3(person?.home_zip)}), so the check still fails. It passes once the Employee Portal (My Profile > Home Address) shows a home within ${limit ? `${limit} mi of the pickup` : "the distance limit"} and the van is checked again.`;
  return `↳ ${who}'s shift on record is still ${person?.shift_name ?? "no shift"}${schedule ? ` (${schedule})` : ""}, so the check still fails. It passes once the new shift is recorded (the supervisor or HR updates it in the Employee Portal, My Schedule) and the van is checked again${rule ? `: it needs ${rule}` : ""}.`;
}

const verdictWord = (v: unknown) => (v === "fail" ? "fails" : v === "pass" ? "passes" : "could not be checked");

function recipients(people: Person[], m: MessageRecord): string {
  return m.to.map((address) => personByEmail(people, address)).join(", ");
}
function senderName(people: Person[], m: MessageRecord): string {
  return personByEmail(people, m.from);
}
function personByEmail(people: Person[], address: string): string {
  const p = people.find((x) => x.email.toLowerCase() === address.toLowerCase());
  return p ? `${p.first_name} ${p.last_name}` : "someone outside the case";
}

export async function riderReplies(deps: FactsDeps, caseId: string, employeeIds: string[] = []): Promise<Facts> {
  const record = await findCase(deps.prisma, caseId);
  if (!record) return notFoundCase(caseId);
  const { people } = await roster(deps.prisma, record);
  const thread = await findThreadForCase(deps.prisma, caseId);
  const ids = employeeIds.length ? employeeIds : record.flagged;
  const lines: string[] = [];
  const sources: string[] = [];
  for (const id of ids) {
    const person = people.find((p) => p.employee_id === id);
    const replies = (thread?.messages ?? []).filter(
      (m) => m.direction === "inbound" && person && m.from.toLowerCase() === person.email.toLowerCase(),
    );
    if (replies.length === 0) {
      lines.push(`${nameOf(people, id)} has not replied${thread ? "" : " (no email has been sent on this case)"}.`);
      continue;
    }
    for (const reply of replies) {
      const quoted = redactPersonalDetails(stripQuoted(reply.body))
        .split("\n")
        .map((l) => `> ${l}`)
        .join("\n");
      lines.push(
        `${nameOf(people, id)} replied on ${day(deps, reply.at)}${reply.bucket ? ` (read as ${reply.bucket})` : ""}:\n${quoted}`,
      );
      sources.push(`${person?.first_name ?? "the rider"}'s reply of ${day(deps, reply.at)}`);
    }
  }
  return { text: lines.join("\n\n"), sources: sources.length ? sources : ["the case's email thread"] };
}

/** The rider's own words, without the quoted email under "On … wrote:". */
function stripQuoted(body: string): string {
  return body
    .split(/\n(?:On .+wrote:|-{2,} ?Original Message|>)/)[0]!
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** How much of an email's body an answer quotes. */
const QUOTED_EMAIL_CHARS = 700;

export async function emailsSent(
  deps: FactsDeps,
  caseId: string,
  employeeIds: string[] = [],
  options: { quote?: boolean } = {},
): Promise<Facts> {
  const record = await findCase(deps.prisma, caseId);
  if (!record) return notFoundCase(caseId);
  const [{ people }, thread, approvals] = await Promise.all([
    roster(deps.prisma, record),
    findThreadForCase(deps.prisma, caseId),
    listApprovals(deps.prisma, { caseId }),
  ]);
  const toAsked = (to: string[]) =>
    employeeIds.length === 0 ||
    people.some(
      (p) => employeeIds.includes(p.employee_id) && to.some((t) => t.toLowerCase() === p.email.toLowerCase()),
    );
  const wanted = (thread?.messages ?? []).filter((m) => m.direction === "outbound" && toAsked(m.to));
  const drafts = draftLines(deps, people, approvals, toAsked);
  if (wanted.length === 0)
    return {
      text: [
        `No email has been sent on ${caseId}${employeeIds.length ? " to that rider" : ""}. It is ${statusInWords(record.status)}; it opened because ${REASON_WORDS[record.reason]}.`,
        ...drafts,
      ].join("\n"),
      sources: [`case record ${caseId}`, ...(drafts.length ? [`approval requests of ${caseId}`] : [])],
    };
  const lines = wanted.map(
    (m) => `• ${day(deps, m.at)}: to ${recipients(people, m)}, "${redactPersonalDetails(m.subject)}" (${m.status})`,
  );
  const newest = wanted.at(-1)!;
  const body = redactPersonalDetails(stripQuoted(newest.body)).replace(/\n{2,}/g, "\n");
  const quoted = options.quote
    ? [
        `The newest, of ${day(deps, newest.at)}, says:`,
        ...(body.length > QUOTED_EMAIL_CHARS ? `${body.slice(0, QUOTED_EMAIL_CHARS)}…` : body)
          .split("\n")
          .map((l) => `> ${l}`),
      ]
    : [];
  return {
    text: [
      `${wanted.length} email${wanted.length === 1 ? "" : "s"} sent on ${caseId}:`,
      ...lines,
      ...drafts,
      ...quoted,
    ].join("\n"),
    sources: [
      ...new Set(wanted.map((m) => `the email of ${day(deps, m.at)}`)),
      ...(drafts.length ? [`approval requests of ${caseId}`] : []),
    ],
  };
}

/** What became of the replies drafted for a person to review: "we rejected that draft, so nothing went out?" */
function draftLines(
  deps: FactsDeps,
  people: Person[],
  approvals: ApprovalRecord[],
  toAsked: (to: string[]) => boolean,
): string[] {
  return approvals.flatMap((a) => {
    const to = [a.payload.to].flat().filter((t): t is string => typeof t === "string");
    if (a.kind !== "escalation_reply" || !toAsked(to)) return [];
    const draft = `the reply drafted to ${to.map((t) => personByEmail(people, t)).join(", ") || "the rider"}`;
    // "has the edited version gone yet?" while the draft still waits: it has not.
    if (a.status === "pending")
      return [`↳ ${draft} waits on its card in the case thread for an approver: it has not gone out yet.`];
    if (!a.decided_at) return [];
    const by = a.decided_by ? ` by ${actorWords(a.decided_by)}` : "";
    const why = a.decision_reason ? ` ("${redactPersonalDetails(a.decision_reason)}")` : "";
    if (a.status === "edited") return [`↳ ${day(deps, a.decided_at)}: ${draft} was edited${by} and sent as edited.`];
    if (a.status === "rejected" || a.status === "expired")
      return [
        `↳ ${day(deps, a.decided_at)}: ${draft} was ${a.status}${a.status === "rejected" ? by : ""}${why}: it was not sent.`,
      ];
    return [];
  });
}

export async function nextSteps(deps: FactsDeps, caseId: string, employeeIds: string[] = []): Promise<Facts> {
  const record = await findCase(deps.prisma, caseId);
  if (!record) return notFoundCase(caseId);
  const { people } = await roster(deps.prisma, record);
  const pending = await listApprovals(deps.prisma, { caseId, status: "pending" });
  const checks = record.failed_checks.length ? record.failed_checks.join(" and ") : "both";
  const sources = [`case record ${caseId}`, "case lifecycle rules"];
  let text: string;
  switch (record.status) {
    case "pending_reply": {
      const waitingOn = record.flagged.map((id) => nameOf(people, id)).join(", ");
      if (!record.last_outbound_at) {
        text = `${caseId} is waiting for replies from ${waitingOn}; no email is recorded yet, so the 7-day reply window has not started.`;
        break;
      }
      const deadline = replyDeadline(record.last_outbound_at);
      const passed = deadline.getTime() <= deps.now().getTime();
      const asked = employeeIds.filter((id) => record.flagged.includes(id)).map((id) => nameOf(people, id));
      text =
        (asked.length
          ? `${asked.join(" and ")}: reply deadline *${day(deps, deadline)}*${passed ? " (passed)" : ""}.\n`
          : "") +
        `${caseId} is waiting for replies from ${waitingOn}. The reply window ${passed ? "closed" : "closes"} on *${day(deps, deadline)}* (7 days after the last email, ${day(deps, record.last_outbound_at)}).` +
        `\nNext: a reply that says the data changed triggers a re-audit of the ${checks} check. With no reply by the deadline (it times out), the Case Manager re-audits the ${checks} check; if it still fails, the case moves to cancellation pending and an approver must approve any cancellation. Re-audits so far: ${record.re_audit_count} of ${MAX_RE_AUDITS}.` +
        (record.re_audit_counts_from && record.re_audit_counts_from > deps.now()
          ? ` A reply's re-audit counts toward the ${MAX_RE_AUDITS} again from *${dayAndTime(deps, record.re_audit_counts_from)}* (one business day after the last counted one, as the emails promise), or at once if the data changed; a reply before then is still re-checked and answered.`
          : "") +
        (pending.length
          ? `\nWaiting for an approver in the case thread: the ${pending.map((a) => cardWords(a.kind)).join(" and the ")}.`
          : "");
      break;
    }
    case "hitl_review": {
      const window = record.last_outbound_at
        ? ` The riders' reply window ${replyDeadline(record.last_outbound_at) <= deps.now() ? "closed" : "closes"} on *${day(deps, replyDeadline(record.last_outbound_at))}* (7 days after the last email).`
        : "";
      text = `${caseId} is waiting for a person to review ${record.flagged.map((id) => nameOf(people, id)).join(", ") || "it"}.${window} ${pending.length ? `Waiting: ${pending.map((a) => cardWords(a.kind)).join(", ")} in the case thread.` : "No approval card is waiting; an approver can re-check the data or decide how to proceed."} Nothing times out automatically while a person reviews it, and nothing is cancelled without an approver.`;
      break;
    }
    case "pre_cancel":
      text = `${caseId} is waiting for an approver to decide on cancellation. ${pending.length ? `The ${pending.map((a) => cardWords(a.kind)).join(", ")} is in the case thread: Approve or Reject there.` : "No card is waiting."} Nothing is cancelled without an approver.`;
      break;
    case "resolved":
    case "cancelled":
      text = `${caseId} was ${record.status} on ${day(deps, record.resolved_at ?? record.updated_at)}; nothing further happens on it. A later audit of ${record.vanpool_id} would open a new case.`;
      break;
    default:
      text = `${caseId} is ${statusInWords(record.status)}; the Case Manager moves it on as soon as that finishes.`;
  }
  return { text, sources };
}

const cardWords = (kind: string) => (kind === "cancellation" ? "cancellation card" : "drafted reply to review");

let policy: PolicySection[] | undefined;
export function policySections(question: string, headings: string[] = []): Facts {
  policy ??= loadPolicy();
  const named = policy.filter((s) => headings.includes(s.heading));
  const found = named.length ? named : findPolicySections(policy, question);
  if (found.length === 0)
    return { text: "The program policy says nothing I can match to that question.", sources: ["Program policy"] };
  return {
    text: found.map((s) => `*Policy, § ${s.heading}:* ${relevantSentences(s.text, question, 3)}`).join("\n"),
    sources: found.map((s) => `Program policy § ${s.heading}`),
  };
}

/**
 * The vanpools a question names by name rather than id ("the Night Owl vanpool"): one, several that fit equally, or
 * none. A comparison may name one by id and another by name ("the Night Owl van vs VP-113").
 */
export async function vanpoolsNamedByName(
  prisma: PrismaClient,
  question: string,
): Promise<{ named: VanpoolName[]; compared: { vanpool_id: string; at: number }[] }> {
  const subject = namedSubject(question);
  const compares = COMPARES.test(question.toLowerCase());
  if (subject.caseId || (subject.vanpoolId && !compares)) return { named: [], compared: [] };
  const candidates = await findVanpoolsNameContaining(prisma, nameSearchWords(question));
  return {
    named: vanpoolsNamedIn(question, candidates),
    compared: compares ? vanpoolsComparedIn(question, candidates) : [],
  };
}

/**
 * The latest case of the one person a question names, for a question asked outside any case ("was cody ever
 * flagged?"); when a first name fits several people and no last name tells them apart, who they are, to ask which.
 */
export async function caseOfRiderNamed(
  prisma: PrismaClient,
  question: string,
): Promise<{ caseId?: string; choices?: string[]; vanpoolId?: string }> {
  const words = nameSearchWords(question);
  const found = await findPeopleNamed(prisma, words, words.filter(nameStub));
  const named = (p: Person) => [p.first_name, p.last_name].some((n) => words.includes(n.toLowerCase()));
  // A whole name outranks the start of one: "marcus" is Marcus, not every "mar…".
  const people = found.some(named) ? found.filter(named) : found;
  const fullyNamed = people.filter((p) => [p.first_name, p.last_name].every((n) => words.includes(n.toLowerCase())));
  const sameFirst = people.filter((p) => words.includes(p.first_name.toLowerCase()));
  const person = fullyNamed.length === 1 ? fullyNamed[0] : people.length === 1 ? people[0] : undefined;
  if (!person) {
    const byFirstName = new Set(sameFirst.map((p) => p.first_name.toLowerCase()));
    const fits = sameFirst.length > 1 && byFirstName.size === 1 ? sameFirst : sameFirst.length ? [] : people;
    if (fits.length > 1 && fits.length <= RIDER_CHOICES_SHOWN)
      return {
        choices: fits.map((p) => `${riderName(p)}${p.vanpool_ids.length ? ` on ${p.vanpool_ids.join(", ")}` : ""}`),
      };
    return {};
  }
  const [latestCase] = await listCasesOfRider(prisma, person.employee_id);
  if (latestCase) return { caseId: latestCase.case_id };
  // On no case: their vanpool's latest audit answers for them.
  return person.vanpool_ids.length === 1 ? { vanpoolId: person.vanpool_ids[0] } : {};
}

/**
 * The riders a comparison names ("compare cody and maribel", "tamika vs derek"), in the order named, when each
 * name fits one person and they do not all ride one vanpool (riders of one case are compared on that case).
 */
export async function ridersComparedIn(prisma: PrismaClient, question: string): Promise<string[]> {
  if (!COMPARES.test(question.toLowerCase())) return [];
  const words = nameSearchWords(question);
  const found = await findPeopleNamed(prisma, words);
  const byWord = words.map((w) => found.filter((p) => [p.first_name, p.last_name].some((n) => n.toLowerCase() === w)));
  if (byWord.some((fits) => fits.length > 1)) return [];
  const ids = [...new Set(byWord.flatMap((fits) => fits.map((p) => p.employee_id)))];
  const vanpools = new Set(found.filter((p) => ids.includes(p.employee_id)).map((p) => p.vanpool_ids.join()));
  return ids.length >= 2 && vanpools.size > 1 ? ids : [];
}

/** How many people a clarifying question lists when a name fits several. */
const RIDER_CHOICES_SHOWN = 5;

export async function vanpoolOverview(deps: FactsDeps, vanpoolId: string): Promise<CaseFacts | Facts> {
  const van = await findVanpoolSnapshot(deps.prisma, vanpoolId);
  if (!van) return noVanpool(vanpoolId);
  const cases = await listCases(deps.prisma, { vanpoolId });
  const results = await findLatestResults(deps.prisma, vanpoolId);
  const open = cases.find((c) => !isClosed(c.status));
  const focus = open ?? cases[0];
  const checks = (["location", "shift"] as const)
    .map((c) => (results[c] ? `${c} ${results[c]!.verdict} (${day(deps, results[c]!.finished_at)})` : `${c} not run`))
    .join(", ");
  const text = [
    `*${van.name ?? vanpoolId}* (${vanpoolId}) at ${van.work_site}: ${van.riders.length} active riders of ${van.capacity} seats.`,
    `Riders: ${van.riders.map(riderName).join(", ") || "none"}.`,
    `Work site: ${van.work_site_address}. Pickup: ${van.pickup_address ?? "at the work site (no separate pickup point on file)"}.`,
    ...(van.operating_schedule ? [`The van runs ${describeSchedule(van.operating_schedule)}.`] : []),
    `Latest checks: ${checks}.`,
    cases.length
      ? `Cases: ${cases.map((c) => `${c.case_id} ${statusInWords(c.status)}`).join("; ")}.`
      : "No case has ever been opened on it.",
  ].join("\n");
  const sources = [`vanpool record ${vanpoolId}`, ...(cases.length ? ["case records"] : [])];
  if (!focus) return { text, sources };
  const { roster: entries } = await roster(deps.prisma, focus);
  return { text, sources, case_id: focus.case_id, vanpool_id: vanpoolId, roster: entries };
}

export async function programFacts(deps: FactsDeps): Promise<Facts> {
  const byStatus = await countCasesByStatus(deps.prisma);
  const pending = await listApprovals(deps.prisma, { status: "pending" });
  const since = new Date(deps.now().getTime() - 30 * 86_400_000);
  const figures = await programFigures(deps.prisma, since);
  const openStatuses = CASE_STATUSES.filter((status) => !isClosed(status) && byStatus[status]);
  const open = openStatuses.reduce((n, status) => n + (byStatus[status] ?? 0), 0);
  const waitingForPerson = (byStatus.hitl_review ?? 0) + (byStatus.pre_cancel ?? 0);
  const text = [
    `${plural(open, "open case")}: ${
      openStatuses.map((status) => `${byStatus[status]} ${statusInWords(status)}`).join(", ") || "none"
    }.`,
    `${waitingForPerson} case${waitingForPerson === 1 ? " waits" : "s wait"} for a person; ${pending.length} approval card${pending.length === 1 ? " is" : "s are"} pending.`,
    `Closed: ${byStatus.resolved ?? 0} resolved, ${byStatus.cancelled ?? 0} cancelled.`,
    `Last 30 days: ${figures.vanpoolChecks} vanpool checks, ${plural(figures.closedCases, "case")} closed${figures.automationRate === null ? "" : ` (${Math.round(figures.automationRate * 100)}% without a person)`}, about ${Math.round(figures.hoursSaved)} audit hours saved.`,
  ].join("\n");
  return { text, sources: ["case records", "approval requests", "verification runs (last 30 days)"] };
}

export async function approvalPointer(
  deps: FactsDeps,
  caseId: string,
  wanted: "cancel" | "approve",
  employeeIds: string[] = [],
): Promise<Facts> {
  const record = await findCase(deps.prisma, caseId);
  if (!record) return notFoundCase(caseId);
  const pending = await listApprovals(deps.prisma, { caseId, status: "pending" });
  const sources = [`approval requests of ${caseId}`];
  const people = employeeIds.length ? (await findPeople(deps.prisma, employeeIds)).map(riderName) : [];
  const never = `${people.length ? `You asked about ${people.join(" and ")}. ` : ""}I never cancel, approve or send from a conversation: decisions are made on the cards, by approvers.`;
  if (isClosed(record.status))
    return { text: `${caseId} is already ${record.status}; there is nothing left to decide. ${never}`, sources };
  if (pending.length)
    return {
      text: `Waiting in the case thread: the ${pending.map((a) => cardWords(a.kind)).join(" and the ")}. Use its buttons to decide. ${never}`,
      sources,
    };
  return {
    text: `No card is waiting on ${caseId}, so there is nothing to ${wanted} yet (it is ${statusInWords(record.status)}). A cancellation card opens only when the checks still fail after the reply deadline or after ${MAX_RE_AUDITS} re-audits. An approver can say _re-check_ to audit it again now. ${never}`,
    sources: [...sources, "case lifecycle rules"],
  };
}

/** Asks for a follow-up draft for a flagged rider of an open case, and says where the card is. */
/** Why an action asked for in conversation did not happen: a refusal in its own words, anything else in general. */
function whyNot(error: unknown): string {
  return error instanceof AppError ? error.message : "an error on Pool Patrol's side; ask again in a moment";
}

/** A re-check asked for in a case thread: its outcome, or that it did not finish (never left out of the answer). */
export async function recheckedCase(
  deps: FactsDeps,
  caseId: string,
  recheck: (caseId: string) => Promise<Facts>,
): Promise<Facts> {
  const record = await findCase(deps.prisma, caseId);
  if (!record) return notFoundCase(caseId);
  try {
    return await recheck(caseId);
  } catch (error) {
    return {
      text: `⚠️ The re-check of ${record.vanpool_id} did not finish (${whyNot(error)}).`,
      sources: [`case record ${caseId}`],
    };
  }
}

export async function draftedFollowUp(
  deps: FactsDeps,
  caseId: string,
  employeeId: string,
  draft: (employeeId: string) => Promise<{ approval_id: string; existing: boolean }>,
): Promise<Facts> {
  const record = await findCase(deps.prisma, caseId);
  if (!record) return notFoundCase(caseId);
  const { people } = await roster(deps.prisma, record);
  const sources = [`approval requests of ${caseId}`];
  if (isClosed(record.status))
    return {
      text: `${caseId} is already ${record.status}; there is no one to follow up. Nothing was drafted.`,
      sources,
    };
  if (!record.flagged.includes(employeeId))
    return {
      text: `${nameOf(people, employeeId)} is not flagged on ${caseId}: follow-ups go only to ${record.flagged.map((id) => nameOf(people, id)).join(", ")}. Nothing was drafted.`,
      sources,
    };
  let drafted: Awaited<ReturnType<typeof draft>>;
  try {
    drafted = await draft(employeeId);
  } catch (error) {
    return {
      text: `⚠️ The follow-up to ${nameOf(people, employeeId)} was not drafted (${whyNot(error)}).`,
      sources,
    };
  }
  if (drafted.existing)
    return {
      text: `A drafted email is already waiting for review in the case thread: approve, edit or reject it there first. Nothing new was drafted, and nothing is sent from a conversation.`,
      sources,
    };
  return {
    text: `✉️ Drafted a follow-up email to ${nameOf(people, employeeId)}. It waits as an approval card in the case thread: nothing is sent until an approver approves it (or edits it first).`,
    sources,
  };
}

/** Riders the question names who are not on this case: where they are instead (their vanpool and latest case). */
export async function ridersElsewhere(
  deps: FactsDeps,
  caseId: string | null,
  names: string[],
  sayUnknown = false,
): Promise<Facts> {
  const record = caseId ? await findCase(deps.prisma, caseId) : undefined;
  const onCase = record ? new Set((await roster(deps.prisma, record)).roster.map((r) => r.employee_id)) : new Set();
  const everyone = await findPeopleNamed(deps.prisma, names);
  const found = everyone.filter((p) => !onCase.has(p.employee_id));
  const unknown = sayUnknown ? await unknownNames(deps, names, everyone) : [];
  if (unknown.length) return { text: unknown.join("\n"), sources: ["employee records"] };
  if (found.length === 0) return { text: "", sources: [] };
  const here = record ? `${record.case_id} (${record.vanpool_id})` : "this thread's case";
  const lines = await Promise.all(
    found.map(async (p) => {
      const [latestCase] = await listCasesOfRider(deps.prisma, p.employee_id);
      const rides = p.vanpool_ids.length ? `rides ${p.vanpool_ids.join(", ")}` : "rides no vanpool";
      const their = latestCase
        ? ` and is on *${latestCase.case_id}* (${latestCase.vanpool_id}), ${statusInWords(latestCase.status)}`
        : " and is on no case";
      return `${riderName(p)} is not on ${here}: ${p.first_name} ${rides}${their}.`;
    }),
  );
  return {
    text: `${lines.join("\n")}\nNothing was done. Ask in that case's thread, or name its case or vanpool.`,
    sources: ["employee records", "case records"],
  };
}

/** How many close names an answer offers for a name that fits no rider. */
const CLOSE_NAMES_SHOWN = 3;

/** "I found no rider named Priya", with the riders whose first name starts the same way. */
async function unknownNames(deps: FactsDeps, names: string[], found: Person[]): Promise<string[]> {
  const fits = (name: string) =>
    found.some((p) => [p.first_name, p.last_name].some((n) => n.toLowerCase() === name.toLowerCase()));
  return Promise.all(
    names
      .filter((name) => !fits(name))
      .map(async (name) => {
        const shown = name.charAt(0).toUpperCase() + name.slice(1).toLowerCase();
        const close = (await findPeopleNamed(deps.prisma, [], [name.slice(0, 3)])).slice(0, CLOSE_NAMES_SHOWN);
        return `I found no rider named ${shown} in the program's records${
          close.length
            ? `; the closest names: ${close.map((p) => `${riderName(p)}${p.vanpool_ids.length ? ` on ${p.vanpool_ids.join(", ")}` : ""}`).join(", ")}`
            : ""
        }.`;
      }),
  );
}

/** How many of a rider's earlier cases an answer lists, newest first. */
const EARLIER_CASES_SHOWN = 5;

/** A rider's earlier cases: when, how each ended for them, exceptions granted, their last reply and escalations. */
export async function riderHistory(deps: FactsDeps, caseId: string | null, employeeIds: string[]): Promise<Facts> {
  const people = await findPeople(deps.prisma, employeeIds);
  // "Before" means before the case asked about, not before now: a later case is not an earlier one.
  const asked = caseId ? await findCase(deps.prisma, caseId) : undefined;
  const history = await findEarlierCasesOfRiders(
    deps.prisma,
    people.map((p) => p.employee_id),
    { ...(caseId ? { caseId } : {}), at: asked?.created_at ?? deps.now() },
    EARLIER_CASES_SHOWN,
  );
  const lines: string[] = [];
  const sources = new Set<string>(["case records"]);
  for (const person of people) {
    const earlier = history.get(person.employee_id) ?? [];
    if (earlier.length === 0) {
      lines.push(
        `${riderName(person)} has not been flagged on any ${caseId ? "earlier case: this is the first" : "case"}.`,
      );
      continue;
    }
    lines.push(
      caseId
        ? `${riderName(person)} was flagged before, on ${plural(earlier.length, "earlier case")}:`
        : `${riderName(person)} has been flagged on ${plural(earlier.length, "case")}:`,
      ...earlierCaseLines(earlier, (at) => day(deps, at)).flatMap((line, at) => [
        line,
        ...earlier[at]!.exceptions.filter((e) => e.note.trim()).map(
          (e) => `  ↳ why kept: “${redactFinding(e.note.trim())}”`,
        ),
      ]),
    );
    for (const { record } of earlier) sources.add(`case record ${record.case_id}`);
  }
  return { text: lines.join("\n"), sources: [...sources] };
}
