// App Home: flagged vanpools first, open cases by status, the viewer's pending
// approvals with their buttons, and when the last audit ran.
import type { HomeView, KnownBlock } from "@slack/types";
import type { ApprovalRecord } from "../../data/approval-repository.js";
import type { CaseRecord } from "../../data/case-repository.js";
import { plural } from "../../domain/specialist-result.js";
import { type ApprovalCardFacts, approvalCard } from "./approval-card.js";
import { CASE_ACTIONS, hitlQuestion } from "./case-alert.js";
import {
  actions,
  age,
  button,
  context,
  divider,
  header,
  REASON_WORDS,
  STATUS_LABEL,
  section,
  slackDate,
} from "./format.js";

export interface HomeInput {
  vanpools: { vanpool_id: string; name: string | null; riders: number; open_case: CaseRecord | null }[];
  openCases: CaseRecord[];
  /** Cases waiting for a person and since when. */
  needsPerson: { record: CaseRecord; since: Date }[];
  pendingForViewer: { approval: ApprovalRecord; vanpool_id: string; facts?: ApprovalCardFacts }[];
  viewerIsApprover: boolean;
  lastAudit: Date | null;
  now: Date;
}

export function homeView(input: HomeInput): HomeView {
  const flagged = input.vanpools.filter((v) => v.open_case);
  const clean = input.vanpools.filter((v) => !v.open_case);
  const byStatus = new Map<string, CaseRecord[]>();
  for (const c of input.openCases) byStatus.set(c.status, [...(byStatus.get(c.status) ?? []), c]);

  const { needsPerson } = input;
  const blocks: KnownBlock[] = [
    header("🚐 Pool Patrol"),
    context(input.lastAudit ? `Last audit ${slackDate(input.lastAudit)}` : "No audit has run yet"),
    divider,
    header(`Waiting for you (${input.viewerIsApprover ? input.pendingForViewer.length + needsPerson.length : 0})`),
  ];
  if (!input.viewerIsApprover) blocks.push(context("You are not an approver, so no decisions wait for you."));
  else if (input.pendingForViewer.length + needsPerson.length === 0) blocks.push(context("Nothing to decide."));
  else if (input.pendingForViewer.length === 0)
    blocks.push(
      context(`No approval card waits; ${plural(needsPerson.length, "case needs", "cases need")} a person below.`),
    );
  // Each card is a few blocks; keep the home within Slack's 100-block limit.
  for (const { approval, vanpool_id, facts } of input.viewerIsApprover ? input.pendingForViewer.slice(0, 6) : [])
    blocks.push(...approvalCard(approval, vanpool_id, { uniqueActions: true, facts }).blocks.slice(1));

  blocks.push(divider, header(`Needs a person (${needsPerson.length})`));
  if (needsPerson.length === 0) blocks.push(context("No case is waiting for a person."));
  for (const { record: c, since } of needsPerson.slice(0, 8)) {
    blocks.push(section(`*${c.case_id}* ${c.vanpool_id} · waiting ${age(since, input.now)}\n${hitlQuestion(c)}`));
    // The case alert's decisions, here too: each action id carries the case, as ids must not repeat in a view.
    if (input.viewerIsApprover)
      blocks.push(
        actions([
          ...(c.flagged.length ? [button("Email a rider…", `${CASE_ACTIONS.emailRider}:${c.case_id}`, c.case_id)] : []),
          button("Close as resolved…", `${CASE_ACTIONS.closeResolved}:${c.case_id}`, c.case_id),
        ]),
      );
  }

  blocks.push(divider, header(`Open cases (${input.openCases.length})`));
  for (const [status, cases] of byStatus) {
    blocks.push(
      section(
        `*${STATUS_LABEL[status] ?? status}* (${cases.length})\n${cases
          .slice(0, 15)
          .map(
            (c) => `• ${c.case_id} ${c.vanpool_id} · ${REASON_WORDS[c.reason]} · ${age(c.created_at, input.now)} old`,
          )
          .join("\n")}`,
      ),
    );
  }
  if (input.openCases.length === 0) blocks.push(context("No open cases."));

  blocks.push(divider, header(`Vanpools (${input.vanpools.length})`));
  if (flagged.length)
    blocks.push(
      section(
        `*🚩 Flagged (${flagged.length})*\n${flagged.map((v) => `• *${v.vanpool_id}* ${v.name ?? ""} · ${STATUS_LABEL[v.open_case!.status]} · ${v.open_case!.case_id}`).join("\n")}`,
      ),
    );
  if (clean.length)
    blocks.push(
      section(
        `*✅ No open case (${clean.length})*\n${clean
          .slice(0, 40)
          .map((v) => `${v.vanpool_id}`)
          .join(", ")}${clean.length > 40 ? "…" : ""}`,
      ),
    );
  return { type: "home", blocks: blocks.slice(0, 100) };
}
