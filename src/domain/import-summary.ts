// What an import's channel summary says, apart from Slack: how a vanpool's re-check came out, and
// the words for each kind of import and for who ran it.
import type { ImportKindName } from "./record-import.js";

export type RecheckOutcome = "resolved" | "new_case" | "still_open" | "passes" | "failed";

/**
 * A re-check's outcome from the case its re-audit found open when it started (`before`, read under the vanpool's
 * lease) and what the re-audit left: an import's summary counts only the cases its own re-checks opened or closed.
 * A case another import's re-check opened in between is still failing here. `openedByEarlierAttempt`: this is a
 * retried job whose first attempt opened `before` (it was not open at the import and no other re-check counts it).
 */
export function recheckOutcome(
  before: string | null,
  after: { case_id?: string | null; status?: string | null },
  openedByEarlierAttempt = false,
): { outcome: RecheckOutcome; caseId: string | null } {
  const caseId = after.case_id ?? null;
  const closed = after.status === "resolved" || after.status === "cancelled";
  if (!caseId) return { outcome: before ? "resolved" : "passes", caseId: before };
  if (caseId !== before) return closed ? { outcome: "passes", caseId: null } : { outcome: "new_case", caseId };
  if (after.status === "resolved") return { outcome: "resolved", caseId };
  return { outcome: openedByEarlierAttempt ? "new_case" : "still_open", caseId };
}

/** Per kind: the words of its summary, and why its vanpools are re-checked (ImportKind.checked, ImportStore.relieved). */
export const IMPORT_WORDS: Record<
  ImportKindName,
  {
    title: string;
    noun: string;
    added: string;
    leaving: string;
    rechecked: string;
    field: (name: string) => string;
  }
> = {
  employees: {
    title: "Employee import",
    noun: "employee",
    added: "joined",
    leaving: "left",
    rechecked: "a rider's home, shift, PTO, work site or employment changed",
    field: fieldWords,
  },
  shifts: {
    title: "Shift import",
    noun: "shift",
    added: "added",
    leaving: "dropped",
    rechecked: "the days or times of a shift its riders work changed",
    field: fieldWords,
  },
  vanpools: {
    title: "Vanpool import",
    noun: "vanpool",
    added: "added",
    leaving: "deactivated",
    rechecked: "where or when it runs changed, or it stopped running with a case open",
    field: fieldWords,
  },
  riders: {
    title: "Roster import",
    noun: "rider",
    added: "joined",
    leaving: "left",
    rechecked: "a rider joined, or left a van with a case open",
    field: fieldWords,
  },
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
