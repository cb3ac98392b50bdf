// When a rider's record changed ("when did Diego's address change?"): the changes imports
// made to their employee record, in words the channel may show. A street address is never
// shown: a home's change is named, its ZIP shown as ZIP3, its town as it is.
import { ADDED_FIELD, type ChangeRecord, changeHistory } from "../../data/change-history-repository.js";
import { findPeople } from "../../data/people-repository.js";
import { zip3 } from "../../domain/redaction.js";
import { actorWords } from "../../slack/blocks/trail.js";
import { day, type Facts, type FactsDeps } from "./facts.js";
import { riderName } from "./understand.js";

/** How many of a rider's latest changes an answer lists. */
const CHANGES_SHOWN = 8;

const FIELD_WORDS: Record<string, string> = {
  home_address: "home address",
  home_city: "home town",
  home_zip: "home ZIP",
  home_state: "home state",
  home_coords: "home location",
  shift_id: "shift",
  pto_dates: "PTO dates",
  time_type: "full- or part-time",
  status: "employment status",
  separation_date: "separation date",
  work_site: "work site",
  supervisor: "supervisor",
  first_name: "first name",
  last_name: "last name",
  email: "email address",
};

/** Values the channel may show as they are; the others are only said to have changed. */
const SHOWN = new Set(["home_city", "home_state", "status", "work_site", "separation_date"]);

function changeWords(change: ChangeRecord): string {
  const field = FIELD_WORDS[change.field] ?? "a field";
  if (change.field === "home_zip")
    return `${field} changed from ${zip3(change.old_value)} to ${zip3(change.new_value)}`;
  if (SHOWN.has(change.field))
    return `${field} changed from ${change.old_value ?? "none"} to ${change.new_value ?? "none"}`;
  return `${field} changed`;
}

export async function recordChanges(deps: FactsDeps, employeeIds: string[]): Promise<Facts> {
  const people = await findPeople(deps.prisma, employeeIds);
  const lines: string[] = [];
  for (const person of people) {
    const changes = (await changeHistory(deps.prisma, "employee", person.employee_id)).filter(
      (c) => c.field !== ADDED_FIELD,
    );
    if (changes.length === 0) {
      lines.push(
        `No import has changed the record of ${riderName(person)} since it was loaded: home in ${person.home_city} (${zip3(person.home_zip)}), ${person.shift_name ? `on ${person.shift_name}` : "no shift on record"}.`,
      );
      continue;
    }
    lines.push(
      `Imports changed the record of ${riderName(person)}${changes.length > CHANGES_SHOWN ? ` (the latest ${CHANGES_SHOWN} of ${changes.length} changes)` : ""}:`,
      ...changes
        .slice(-CHANGES_SHOWN)
        .map(
          (c) => `• ${day(deps, c.at)}: ${changeWords(c)} (from ${c.source_file}, imported by ${actorWords(c.actor)})`,
        ),
    );
  }
  if (lines.length === 0) return { text: "I found no rider to look up.", sources: [] };
  return { text: lines.join("\n"), sources: ["import change history", "employee records"] };
}
