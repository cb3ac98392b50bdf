// Riders of different vanpools side by side ("compare cody and maribel", "tamika vs derek"): a column per rider,
// each with their vanpool, their latest case and where it stands, the check that fails them and by how much (a
// distance band or a shift, never exact miles), after the gist in words.
import { findPeople } from "../../data/people-repository.js";
import { listCasesOfRider } from "../../data/rider-history-repository.js";
import { findVanpoolSnapshot } from "../../data/vanpool-repository.js";
import { findLatestResults } from "../../data/verification-repository.js";
import { tableMarkdown } from "../../domain/answer-table.js";
import { STATUS_LABEL, statusInWords } from "../../domain/case-lifecycle.js";
import { redactFinding } from "../../domain/redaction.js";
import { day, type Facts, type FactsDeps } from "./facts.js";
import { caseDeadline, failing } from "./open-cases.js";

/** How many riders one table compares: columns a phone still reads. */
const RIDERS_COMPARED = 4;

export async function compareRiders(deps: FactsDeps, employeeIds: string[]): Promise<Facts> {
  const people = await findPeople(deps.prisma, employeeIds.slice(0, RIDERS_COMPARED));
  // In the order the question named them.
  const ordered = employeeIds.flatMap((id) => people.filter((p) => p.employee_id === id));
  const read = await Promise.all(
    ordered.map(async (person) => {
      const [latest] = await listCasesOfRider(deps.prisma, person.employee_id);
      if (!latest) return { person };
      const [van, results] = await Promise.all([
        findVanpoolSnapshot(deps.prisma, latest.vanpool_id),
        findLatestResults(deps.prisma, latest.vanpool_id),
      ]);
      const [check, what] = failing(latest, person.employee_id, results, [person]);
      return { person, latest, van: `${van?.name ?? latest.vanpool_id} (${latest.vanpool_id})`, check, what };
    }),
  );
  const nameOf = (p: (typeof ordered)[number]) => `${p.first_name} ${p.last_name}`;
  const gist = read
    .map((r) =>
      r.latest
        ? `${nameOf(r.person)} is on ${r.latest.case_id} (${r.van}), ${statusInWords(r.latest.status)}: ${r.check} (${r.what}).`
        : `${nameOf(r.person)} is on no case.`,
    )
    .join(" ");
  const row = (fact: string, value: (r: (typeof read)[number]) => string) => [
    fact,
    ...read.map((r) => redactFinding(value(r))),
  ];
  const table = {
    columns: ["", ...read.map((r) => nameOf(r.person))],
    rows: [
      row("Vanpool", (r) => r.van ?? "no case"),
      row("Case", (r) =>
        r.latest ? `${r.latest.case_id}: ${STATUS_LABEL[r.latest.status] ?? statusInWords(r.latest.status)}` : "none",
      ),
      row("Failing check", (r) => r.check ?? "none"),
      row("What fails", (r) => r.what ?? "nothing"),
      row("Opened", (r) => (r.latest ? day(deps, r.latest.created_at) : "-")),
      row("Deadline", (r) => (r.latest ? caseDeadline(deps, r.latest) : "-")),
    ],
  };
  return {
    text: `${gist}\n\n${tableMarkdown(table)}`,
    sources: ["employee records", ...read.flatMap((r) => (r.latest ? [`case record ${r.latest.case_id}`] : []))],
  };
}
