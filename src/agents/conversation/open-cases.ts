// Across the open cases, as a table: the cases ("list open cases"), the riders they flag ("who is flagged?":
// each rider's vanpool, failing check, distance band or shift, and since when), or the cases waiting for a
// person ("which cases need me?": where each stands, since when, and its deadline). The answer's first line
// says the gist in words, for a notification or a client that shows no table.
import { eventsFor } from "../../data/audit-log.js";
import { type CaseRecord, recentOpenCases } from "../../data/case-repository.js";
import { findPeople, type Person } from "../../data/people-repository.js";
import { findLatestResults, type LatestResults } from "../../data/verification-repository.js";
import { type AnswerTable, tableMarkdown } from "../../domain/answer-table.js";
import { replyDueAt, STATUS_LABEL, statusInWords } from "../../domain/case-lifecycle.js";
import { distanceBand } from "../../domain/geo.js";
import { redactFinding } from "../../domain/redaction.js";
import { plural } from "../../domain/specialist-result.js";
import { day, type Facts, type FactsDeps, recordedFor } from "./facts.js";

/** How many open cases an answer lists: a channel message, not a report (`/poolpatrol report` has them all). */
const OPEN_CASES_SHOWN = 15;

export const OPEN_CASES_VIEWS = ["cases", "riders", "waiting"] as const;
export type OpenCasesView = (typeof OPEN_CASES_VIEWS)[number];

const WAITING_FOR_A_PERSON = new Set(["hitl_review", "pre_cancel"]);

export async function openCases(deps: FactsDeps, view: OpenCasesView = "cases"): Promise<Facts> {
  const sources = ["case records"];
  const all = await recentOpenCases(deps.prisma, OPEN_CASES_SHOWN + 1);
  const cases = view === "waiting" ? all.filter((c) => WAITING_FOR_A_PERSON.has(c.status)) : all;
  if (cases.length === 0)
    return { text: view === "waiting" ? "No case is waiting for a person." : "No case is open.", sources };
  const shown = cases.slice(0, OPEN_CASES_SHOWN);
  const more = cases.length > OPEN_CASES_SHOWN ? ` (the ${OPEN_CASES_SHOWN} touched last)` : "";
  const people = await findPeople(deps.prisma, [...new Set(shown.flatMap((c) => c.flagged))]);
  const name = (id: string) => {
    const person = people.find((p) => p.employee_id === id);
    return person ? `${person.first_name} ${person.last_name}` : "a rider no longer on file";
  };
  let head: string;
  let table: AnswerTable;
  if (view === "riders") {
    const results = new Map(
      await Promise.all(
        [...new Set(shown.map((c) => c.vanpool_id))].map(
          async (id) => [id, await findLatestResults(deps.prisma, id)] as const,
        ),
      ),
    );
    const rows = shown.flatMap((c) =>
      c.flagged.map((id) => [
        name(id),
        c.vanpool_id,
        ...failing(c, id, results.get(c.vanpool_id) ?? {}, people),
        day(deps, c.created_at),
        c.case_id,
      ]),
    );
    const riders = [...new Set(shown.flatMap((c) => c.flagged))];
    head = `${plural(riders.length, "rider")} ${riders.length === 1 ? "is" : "are"} flagged on ${plural(shown.length, "open case")}${more}: ${riders.map(name).join(", ")}.`;
    table = { columns: ["Rider", "Vanpool", "Check", "Distance or shift", "Flagged since", "Case"], rows };
    sources.push("the latest checks of their vanpools");
  } else if (view === "waiting") {
    const events = await eventsFor(
      deps.prisma,
      shown.map((c) => c.case_id),
    );
    const since = (c: CaseRecord) =>
      events.findLast((e) => e.subject_id === c.case_id && e.details.to === c.status)?.at ?? c.created_at;
    head = `${plural(shown.length, "case")} ${shown.length === 1 ? "waits" : "wait"} for a person${more}: ${shown.map((c) => `${c.case_id} (${c.vanpool_id})`).join(", ")}.`;
    table = {
      columns: ["Case", "Vanpool", "Where it stands", "Waiting since", "Flagged", "Deadline"],
      rows: shown.map((c) => [
        c.case_id,
        c.vanpool_id,
        STATUS_LABEL[c.status] ?? statusInWords(c.status),
        day(deps, since(c)),
        c.flagged.map(name).join(", ") || "no rider flagged",
        caseDeadline(deps, c),
      ]),
    };
    sources.push("audit trail");
  } else {
    const counts = new Map<string, number>();
    for (const c of shown) counts.set(c.status, (counts.get(c.status) ?? 0) + 1);
    const flagged = new Set(shown.flatMap((c) => c.flagged)).size;
    head = `${plural(shown.length, "open case")}${more}, ${plural(flagged, "rider")} flagged in all: ${[...counts].map(([status, n]) => `${n} ${statusInWords(status)}`).join(", ")}.`;
    table = {
      columns: ["Case", "Vanpool", "Where it stands", "Flagged", "Opened", "Deadline"],
      rows: shown.map((c) => [
        c.case_id,
        c.vanpool_id,
        STATUS_LABEL[c.status] ?? statusInWords(c.status),
        c.flagged.map(name).join(", ") || "no rider flagged",
        day(deps, c.created_at),
        caseDeadline(deps, c),
      ]),
    };
  }
  return { text: `${head}\n\n${tableMarkdown(table)}`, sources };
}

/** An open case's deadline in words: when the riders' replies are due, or that a person decides. */
export function caseDeadline(deps: FactsDeps, c: CaseRecord): string {
  if (c.status !== "pending_reply") return "none: a person decides";
  if (!c.last_outbound_at) return "reply window not started";
  const due = replyDueAt(c.last_outbound_at, c.reply_extended_until);
  return `replies due ${day(deps, due)}${due <= deps.now() ? " (passed)" : ""}`;
}

/** A flagged rider's failing check and what fails it: a distance band (never exact miles) or a shift. */
export function failing(c: CaseRecord, id: string, results: LatestResults, people: Person[]): [string, string] {
  const distance = results.location?.evidence.find((e) => e.type === "distance_check" && e.employee_id === id);
  const shift = results.shift?.evidence.find((e) => e.type === "employee_shift" && e.employee_id === id);
  const person = people.find((p) => p.employee_id === id);
  const checks: string[] = [];
  const what: string[] = [];
  if (distance?.verdict === "fail") {
    checks.push("location");
    what.push(typeof distance.distance_miles === "number" ? distanceBand(distance.distance_miles) : "distance unknown");
  }
  if (shift?.verdict === "fail") {
    checks.push("shift");
    const name = shift.shift_name ?? person?.shift_name;
    what.push(name ? `${name}${shift.schedule ? ` (${shift.schedule})` : ""}` : "no shift on file");
  }
  // No check stored since the case opened (a case loaded from records): the finding it recorded, which names the
  // rider when the case flags several.
  if (checks.length === 0 && person)
    for (const check of c.failed_checks) {
      const finding = recordedFor(c.details, check);
      if (c.flagged.length > 1 && !finding.includes(person.first_name)) continue;
      checks.push(check);
      what.push(
        check === "location"
          ? (/\b(?:under|over) \d+ mi\b|\b\d+-\d+ mi\b/.exec(redactFinding(finding))?.[0] ?? "distance unknown")
          : (person.shift_name ?? "no shift on file"),
      );
    }
  if (checks.length === 0) return [c.failed_checks.join(" and ") || "could not be checked", "not on record"];
  return [checks.join(" and "), what.join("; ")];
}
