// What an import's channel summary says, apart from Slack: how a vanpool's re-check came out, and
// the words for each kind of import and for who ran it.
import type { ImportKindName } from "./record-import.js";

export type RecheckOutcome = "resolved" | "new_case" | "still_open" | "passes" | "failed";

/** A re-check's outcome from the case the vanpool had open at the import and what its re-audit returned. */
export function recheckOutcome(
  openCaseId: string | null,
  after: { case_id?: string | null; status?: string | null },
): { outcome: RecheckOutcome; caseId: string | null } {
  const caseId = after.case_id ?? null;
  if (!caseId) return { outcome: openCaseId ? "resolved" : "passes", caseId: openCaseId };
  if (caseId !== openCaseId) return { outcome: "new_case", caseId };
  return { outcome: after.status === "resolved" ? "resolved" : "still_open", caseId };
}

export const IMPORT_WORDS: Record<
  ImportKindName,
  { title: string; noun: string; added: string; leaving: string; field: (name: string) => string }
> = {
  employees: { title: "Employee import", noun: "employee", added: "joined", leaving: "left", field: fieldWords },
  shifts: { title: "Shift import", noun: "shift", added: "added", leaving: "dropped", field: fieldWords },
  vanpools: { title: "Vanpool import", noun: "vanpool", added: "added", leaving: "deactivated", field: fieldWords },
  riders: { title: "Roster import", noun: "rider", added: "joined", leaving: "left", field: fieldWords },
};

/** A Pool Patrol field as people read it: "home_zip" -> "home ZIP". */
function fieldWords(name: string): string {
  return name
    .replace(/_/g, " ")
    .replace(/\bzip\b/, "ZIP")
    .replace(/\bpto\b/, "PTO")
    .replace(/\bid\b/, "ID");
}

/** Who ran an import, in words: `cli:alice`, `api:hr-sync`, `sync:…`. */
export function importedBy(actor: string): string {
  const [how, ...rest] = actor.split(":");
  const who = rest.join(":");
  if (how === "cli") return `by ${who} from the command line`;
  if (how === "api") return `through the API (token "${who}")`;
  if (how === "sync") return "by the scheduled sync";
  if (how === "seed") return "by `db seed`";
  return `by ${actor}`;
}
