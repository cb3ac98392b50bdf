// Vanpools side by side ("compare VP-111 and VP-115", "VP-102 vs VP-109?"): a row per fact, a column per
// vanpool, after the gist in words (what a notification or a client without tables shows). Cells read as the
// channel may, for everyone who can ask: the work site's name and the pickup's town (no street), distance
// bands (never exact miles), names (never emails).
import { type CaseRecord, findCase, listCases } from "../../data/case-repository.js";
import { findPeople, type Person } from "../../data/people-repository.js";
import { findVanpoolSnapshot } from "../../data/vanpool-repository.js";
import { findLatestResults, type LatestResults } from "../../data/verification-repository.js";
import { type AnswerTable, tableMarkdown } from "../../domain/answer-table.js";
import { isClosed, STATUS_LABEL, statusInWords } from "../../domain/case-lifecycle.js";
import { redactFinding } from "../../domain/redaction.js";
import type { VanpoolSnapshot } from "../../domain/snapshot.js";
import { plural } from "../../domain/specialist-result.js";
import { day, type Facts, type FactsDeps } from "./facts.js";
import { caseDeadline, failing } from "./open-cases.js";

/** How many vanpools one table compares: columns a phone still reads. */
export const VANPOOLS_COMPARED = 4;

interface Compared {
  van: VanpoolSnapshot;
  /** Its open case, if any. */
  open?: CaseRecord;
  /** Its case closed last, if any. */
  closed?: CaseRecord;
  results: LatestResults;
  people: Person[];
}

const CHECKS = ["location", "shift"] as const;

/**
 * The vanpools `vanpoolIds` names (after the vanpool of `caseId`, the thread's case, when given) side by side.
 * An id that names no vanpool is said by name; with fewer than two vanpools found there is nothing to compare.
 */
export async function compareVanpools(deps: FactsDeps, vanpoolIds: string[], caseId?: string): Promise<Facts> {
  const own = caseId ? await findCase(deps.prisma, caseId) : undefined;
  if (caseId && !own)
    return { text: `I found no case ${caseId}. Case ids look like CASE-1A2B3C4D.`, sources: ["case records"] };
  const ids = [...new Set([...(own ? [own.vanpool_id] : []), ...vanpoolIds.map((id) => id.trim().toUpperCase())])];
  const found = await Promise.all(ids.map((id) => read(deps, id)));
  const known = found.filter((v): v is Compared => v !== undefined);
  const unknown = ids.filter((_, i) => !found[i]);
  const missing = unknown.length
    ? `I found no vanpool ${unknown.join(" or ")} (vanpool ids look like VP-101).`
    : undefined;
  if (known.length < 2)
    return {
      text: [
        missing,
        known.length
          ? `Name another vanpool to set ${known[0]!.van.vanpool_id} beside ("compare ${known[0]!.van.vanpool_id} and VP-1…").`
          : 'Name two vanpools to compare, by id: "compare VP-111 and VP-115".',
      ]
        .filter(Boolean)
        .join(" "),
      sources: ["vanpool records"],
    };
  const shown = known.slice(0, VANPOOLS_COMPARED);
  const more =
    known.length > VANPOOLS_COMPARED
      ? ` Only the first ${VANPOOLS_COMPARED} named are set side by side; ask about ${known
          .slice(VANPOOLS_COMPARED)
          .map((v) => v.van.vanpool_id)
          .join(", ")} apart.`
      : "";
  const gist = shown.map((v) => gistOf(deps, v)).join(" ");
  return {
    text: `${[missing, gist].filter(Boolean).join(" ")}${more}\n\n${tableMarkdown(comparison(deps, shown))}`,
    sources: [
      ...shown.map((v) => `vanpool record ${v.van.vanpool_id}`),
      "case records",
      ...(shown.some((v) => v.results.location || v.results.shift) ? ["the latest checks of these vanpools"] : []),
    ],
  };
}

async function read(deps: FactsDeps, vanpoolId: string): Promise<Compared | undefined> {
  const [van, cases, results] = await Promise.all([
    findVanpoolSnapshot(deps.prisma, vanpoolId),
    listCases(deps.prisma, { vanpoolId }),
    findLatestResults(deps.prisma, vanpoolId),
  ]);
  if (!van) return undefined;
  const open = cases.find((c) => !isClosed(c.status));
  const closed = cases.find((c) => isClosed(c.status));
  const people = open ? await findPeople(deps.prisma, open.flagged) : [];
  return { van, open, closed, results, people };
}

const title = (van: VanpoolSnapshot) => `${van.name ?? van.vanpool_id} (${van.vanpool_id})`;

/** The checks that fail now: the latest result, else what the open case recorded when no check is stored. */
function failingChecks(v: Compared): string[] {
  return CHECKS.filter((c) => v.results[c]?.verdict === "fail" || (!v.results[c] && v.open?.failed_checks.includes(c)));
}

function checksInWords(v: Compared): string {
  const failed = failingChecks(v);
  const undecided = CHECKS.filter((c) => v.results[c] && !["pass", "fail"].includes(v.results[c]!.verdict));
  const notRun = CHECKS.filter((c) => !v.results[c] && !failed.includes(c));
  if (notRun.length === CHECKS.length) return "no check on record";
  const undecidedWords = undecided.length ? [`${undecided.join(" and ")} could not decide`] : [];
  if (failed.length) return [failed.join(" and "), ...undecidedWords].join("; ");
  return ["none", ...undecidedWords, ...(notRun.length ? [`no ${notRun.join(" or ")} check on record`] : [])].join(
    "; ",
  );
}

/** The case closed last, for a vanpool with none open: "CASE-… resolved Nov 9, 2026". */
const closedInWords = (deps: FactsDeps, c: CaseRecord) =>
  `${c.case_id} ${statusInWords(c.status)} ${day(deps, c.resolved_at ?? c.updated_at)}`;

function gistOf(deps: FactsDeps, v: Compared): string {
  const failed = failingChecks(v);
  if (v.open) {
    const flagged = v.open.flagged.length;
    return `${title(v.van)} has ${v.open.case_id} open since ${day(deps, v.open.created_at)}, ${statusInWords(v.open.status)}: ${plural(flagged, "rider")} flagged${failed.length ? ` on the ${failed.join(" and ")} check${failed.length > 1 ? "s" : ""}` : ""}.`;
  }
  const checked = CHECKS.some((c) => v.results[c]);
  return `${title(v.van)} has no open case${v.closed ? ` (${closedInWords(deps, v.closed)})` : ""}${
    failed.length
      ? `; its latest ${failed.join(" and ")} check${failed.length > 1 ? "s fail" : " fails"}`
      : checked
        ? "; its latest checks find nothing wrong"
        : "; no check of it is on record"
  }.`;
}

/** A row per fact, a column per vanpool. */
function comparison(deps: FactsDeps, compared: Compared[]): AnswerTable {
  const row = (fact: string, value: (v: Compared) => string) => [fact, ...compared.map((v) => redactFinding(value(v)))];
  const flaggedRiders = (v: Compared) => {
    if (!v.open) return "none";
    if (v.open.flagged.length === 0) return "no rider flagged";
    return v.open.flagged
      .map((id) => {
        const person = v.people.find((p) => p.employee_id === id);
        const [check, what] = failing(v.open!, id, v.results, v.people);
        return `${person ? `${person.first_name} ${person.last_name}` : "a rider no longer on file"} (${check}: ${what})`;
      })
      .join("; ");
  };
  return {
    columns: ["", ...compared.map((v) => title(v.van))],
    rows: [
      row("Work site", (v) => v.van.work_site),
      row("Pickup", (v) =>
        v.van.pickup_address ? townOf(v.van.pickup_address) : `${townOf(v.van.work_site_address)} (the work site)`,
      ),
      row(
        "Riders",
        (v) =>
          `${v.van.riders.length} of ${v.van.capacity} seats${v.van.status === "inactive" ? " (van inactive)" : ""}`,
      ),
      row("Open case", (v) =>
        v.open
          ? `${v.open.case_id}: ${STATUS_LABEL[v.open.status] ?? statusInWords(v.open.status)}`
          : v.closed
            ? `none (${closedInWords(deps, v.closed)})`
            : "none",
      ),
      row("Failing checks", checksInWords),
      row("Riders flagged", flaggedRiders),
      row("Open since", (v) => (v.open ? day(deps, v.open.created_at) : "no open case")),
      row("Deadline", (v) => (v.open ? caseDeadline(deps, v.open) : "none")),
    ],
  };
}

/** The town of an address written "…, Street, Town, ST 12345": the part before the state. */
export function townOf(address: string): string {
  const parts = address.split(",").map((p) => p.trim());
  const state = parts.findLastIndex((p) => /^[A-Z]{2}\b/.test(p));
  return parts[state > 0 ? state - 1 : parts.length - 1] ?? address;
}
