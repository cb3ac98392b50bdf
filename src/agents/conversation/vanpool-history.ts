// A vanpool's earlier cases ("has this van had any cases before?", "has tri valley been flagged before?"): when
// each opened, what failed and for whom, and how it ended (who was kept, until when). Earlier means before the
// case asked about: the thread's case, else the vanpool's open case, else every case it has had.
import { type CaseRecord, findCase, listCases } from "../../data/case-repository.js";
import { findExceptionsOn } from "../../data/exception-repository.js";
import { findPeople } from "../../data/people-repository.js";
import { findVanpoolSnapshot } from "../../data/vanpool-repository.js";
import { isClosed, statusInWords } from "../../domain/case-lifecycle.js";
import { keptInWords } from "../../domain/exceptions.js";
import { redactFinding } from "../../domain/redaction.js";
import { plural } from "../../domain/specialist-result.js";
import { actorWords } from "../../slack/blocks/trail.js";
import { day, type Facts, type FactsDeps, REASON_WORDS } from "./facts.js";

/** How many earlier cases an answer lists, newest first. */
const EARLIER_CASES_SHOWN = 5;

export async function vanpoolHistory(deps: FactsDeps, vanpoolId: string, caseId?: string): Promise<Facts> {
  const van = await findVanpoolSnapshot(deps.prisma, vanpoolId);
  if (!van)
    return { text: `I found no vanpool ${vanpoolId} (vanpool ids look like VP-101).`, sources: ["vanpool records"] };
  const cases = (await listCases(deps.prisma, { vanpoolId })).sort(
    (a, b) => b.created_at.getTime() - a.created_at.getTime(),
  );
  const asked = caseId ? await findCase(deps.prisma, caseId) : undefined;
  const reference = asked?.vanpool_id === vanpoolId ? asked : cases.find((c) => !isClosed(c.status));
  const earlier = reference ? cases.filter((c) => c.created_at < reference.created_at) : cases;
  const title = `*${van.name ?? vanpoolId}* (${vanpoolId})`;
  const sources = [`vanpool record ${vanpoolId}`, "case records"];
  const [people, exceptions] = await Promise.all([
    findPeople(deps.prisma, [...new Set([...cases.flatMap((c) => c.flagged)])]),
    findExceptionsOn(deps.prisma, [vanpoolId]),
  ]);
  const name = (id: string) => {
    const p = people.find((x) => x.employee_id === id);
    return p ? `${p.first_name} ${p.last_name}` : id;
  };
  const describe = (c: CaseRecord) => {
    const ended = isClosed(c.status)
      ? `${statusInWords(c.status)}${c.resolved_at ? ` on ${day(deps, c.resolved_at)}` : ""}${c.outcome ? ` (${c.outcome})` : ""}`
      : `still open, ${statusInWords(c.status)}`;
    const resolution = typeof c.meta.resolution === "string" ? `: ${redactFinding(c.meta.resolution)}` : "";
    const kept = exceptions
      .filter((e) => e.case_id === c.case_id)
      .map((e) => `${name(e.employee_id)} ${keptInWords(e, actorWords(e.granted_by), day(deps, e.expires_at))}`);
    return `${c.case_id}, opened ${day(deps, c.created_at)}: ${REASON_WORDS[c.reason] ?? c.reason}, flagging ${c.flagged.map(name).join(" and ") || "no rider"}; ${ended}${resolution}${kept.length ? `; ${kept.join("; ")}` : ""}.`;
  };
  const now = reference
    ? `${title}: ${reference === asked ? "this case" : "its open case"}, ${describe(reference)}`
    : undefined;
  if (earlier.length === 0)
    return {
      text: reference
        ? `${now}\nIt has no earlier case: this is its first.`
        : `${title} has never had a case: no earlier case on record.`,
      sources,
    };
  return {
    text: [
      ...(now ? [now] : []),
      `${title} had ${plural(earlier.length, "earlier case")}${reference ? ` before ${reference.case_id}` : ""}:`,
      ...earlier.slice(0, EARLIER_CASES_SHOWN).map((c) => `• ${describe(c)}`),
    ].join("\n"),
    sources: [...sources, ...earlier.slice(0, EARLIER_CASES_SHOWN).map((c) => `case record ${c.case_id}`)],
  };
}
