// "Who's flagged across all the open cases?": the open cases touched last, each with its
// vanpool, where it stands and the riders it flagged, by name.
import { recentOpenCases } from "../../data/case-repository.js";
import { findPeople } from "../../data/people-repository.js";
import { statusInWords } from "../../domain/case-lifecycle.js";
import type { Facts, FactsDeps } from "./facts.js";

/** How many open cases an answer lists: a channel message, not a report (`/poolpatrol report` has them all). */
const OPEN_CASES_SHOWN = 15;

export async function openCases(deps: FactsDeps): Promise<Facts> {
  const cases = await recentOpenCases(deps.prisma, OPEN_CASES_SHOWN + 1);
  if (cases.length === 0) return { text: "No case is open.", sources: ["case records"] };
  const shown = cases.slice(0, OPEN_CASES_SHOWN);
  const people = await findPeople(deps.prisma, [...new Set(shown.flatMap((c) => c.flagged))]);
  const name = (id: string) => {
    const person = people.find((p) => p.employee_id === id);
    return person ? `${person.first_name} ${person.last_name}` : id;
  };
  const lines = shown.map(
    (c) =>
      `• ${c.case_id} (${c.vanpool_id}), ${statusInWords(c.status)}: ${c.flagged.map(name).join(", ") || "no rider flagged"}`,
  );
  const head =
    cases.length > OPEN_CASES_SHOWN
      ? `The ${OPEN_CASES_SHOWN} open cases touched last, and who each flagged:`
      : `${shown.length} open case${shown.length === 1 ? "" : "s"}, ${flaggedCount(shown)} flagged in all, and who each flagged:`;
  return { text: [head, ...lines].join("\n"), sources: ["case records"] };
}

function flaggedCount(cases: { flagged: string[] }[]): string {
  const riders = new Set(cases.flatMap((c) => c.flagged)).size;
  return `${riders} rider${riders === 1 ? "" : "s"}`;
}
