// A case, /web/cases/{id}: its status and what happens next, the evidence of each check per rider, the
// timeline (every audit, email, reply and decision with who and when), the approval requests and
// their outcomes, and a link to its thread in Slack, where anything is decided.

import type { Hono } from "hono";
import { nextSteps } from "../../agents/conversation/facts.js";
import { findCaseDetail } from "../../data/api-read-repository.js";
import { listApprovals } from "../../data/approval-repository.js";
import { findPeople } from "../../data/people-repository.js";
import { findCaseAlertLocation } from "../../data/slack-location-repository.js";
import { redactFinding, redactPersonalDetails } from "../../domain/redaction.js";
import { CHECK_KINDS, CHECK_TITLES } from "../../domain/specialist-result.js";
import { notFound } from "../../errors.js";
import { REASON_WORDS } from "../../slack/blocks/format.js";
import { trailWhat } from "../../slack/blocks/trail.js";
import { seesPersonalData } from "./auth.js";
import type { WebDeps, WebEnv } from "./context.js";
import { actorName, distanceWords, homeWords, locationsOf, shiftsOf } from "./facts.js";
import { html, layout, statusLabel, verdictBadge, whenIn } from "./page.js";

const KIND_WORDS = { cancellation: "Cancellation", escalation_reply: "Drafted reply to a rider" } as const;
const APPROVAL_WORDS: Record<string, string> = {
  pending: "Waiting for an approver",
  approved: "Approved",
  edited: "Edited and sent",
  rejected: "Rejected",
  expired: "Expired without a decision",
};

export function registerCasePage(app: Hono<WebEnv>, deps: WebDeps): void {
  const when = whenIn(deps.agent.settings.timeZone);
  const { pool, prisma } = deps.agent;

  /** The case alert in Slack, or undefined when it was never posted or Slack no longer has it. */
  async function slackLink(caseId: string): Promise<string | undefined> {
    const where = await findCaseAlertLocation(prisma, caseId);
    if (!where || !deps.permalink) return undefined;
    return deps.permalink(where.channel, where.ts).catch(() => undefined);
  }

  app.get("/web/cases/:id", async (c) => {
    const id = c.req.param("id").toUpperCase();
    const user = c.get("user");
    const pii = seesPersonalData(user);
    const detail = await findCaseDetail(pool, id);
    if (!detail) throw notFound(`There is no case ${id}.`);
    const { record, evidence, events, places } = detail;
    const [approvals, next, link] = await Promise.all([
      listApprovals(prisma, { caseId: id }),
      nextSteps({ prisma, timeZone: deps.agent.settings.timeZone, now: deps.agent.now }, id),
      slackLink(id),
    ]);
    const timeline = await Promise.all(
      events.map(async (e) => ({ at: e.at, what: trailWhat(e, await actorName(deps, user, e.actor)) })),
    );
    const decided = await Promise.all(
      approvals.map(async (a) => ({
        a,
        by: a.decided_by ? await actorName(deps, user, `slack:${a.decided_by}`) : undefined,
      })),
    );
    const locations = locationsOf(evidence);
    const shifts = shiftsOf(evidence);
    const people = await findPeople(prisma, [...new Set([...record.flagged, ...locations.keys(), ...shifts.keys()])]);
    const names = new Map(people.map((p) => [p.employee_id, `${p.first_name} ${p.last_name}`]));
    const rider = (id: string) =>
      html`<a href="/web/employees/${id}">${names.get(id) ?? id}</a>${names.has(id) ? html` <span class="muted">${id}</span>` : ""}`;
    const words = (text: string) => (pii ? text : redactFinding(text, places));

    const body = html`<h1>${record.case_id} <span class="muted">on <a href="/web/vanpools/${record.vanpool_id}">${record.vanpool_id}</a></span></h1>
<dl class="facts">
  <dt>Status</dt><dd><strong>${statusLabel(record.status)}</strong></dd>
  <dt>Why</dt><dd>${REASON_WORDS[record.reason]}${record.flagged.length ? html`; riders flagged: ${record.flagged.map((id, i) => html`${i ? ", " : ""}${rider(id)}`)}` : ""}</dd>
  <dt>Opened</dt><dd>${when(record.created_at)}</dd>
  ${record.resolved_at ? html`<dt>Closed</dt><dd>${when(record.resolved_at)}</dd>` : ""}
  <dt>Re-audits</dt><dd>${record.re_audit_count}</dd>
  <dt>In Slack</dt><dd>${link ? html`<a href="${link}">Open the case thread in Slack</a> (decisions are made on its cards)` : "The case alert is not in Slack (yet)."}</dd>
</dl>
<h2 id="next-h">What happens next</h2>
<p>${words(next.text.replace(/\*/g, ""))}</p>

<h2 id="evidence-h">Evidence</h2>
${CHECK_KINDS.map((check) => {
  const result = evidence[check];
  if (!result) return html`<h3>${CHECK_TITLES[check]} check</h3><p>Not checked for this case.</p>`;
  return html`<section aria-labelledby="ev-${check}">
<h3 id="ev-${check}">${CHECK_TITLES[check]} check: ${verdictBadge(result.verdict)} <span class="muted">confidence ${result.confidence} of 5, ${when(result.finished_at)}</span></h3>
<p>${words(result.reasoning)}</p>
${
  check === "employment"
    ? ""
    : check === "location"
      ? html`<table><thead><tr><th scope="col">Rider</th><th scope="col">Home</th><th scope="col">From the pickup</th><th scope="col">Verdict</th></tr></thead><tbody>
  ${[...locations].map(
    ([id, l]) =>
      html`<tr><th scope="row">${rider(id)}</th><td>${homeWords(user, { home_city: l.city, home_zip: l.zip })}</td><td>${distanceWords(user, l.miles)}</td><td>${verdictBadge(l.verdict)}</td></tr>`,
  )}</tbody></table>`
      : html`<table><thead><tr><th scope="col">Rider</th><th scope="col">Shift</th><th scope="col">Compatible days</th><th scope="col">Verdict</th></tr></thead><tbody>
  ${[...shifts].map(
    ([id, s]) =>
      html`<tr><th scope="row">${rider(id)}</th><td>${s.shiftName ?? "No shift on record"}</td><td>${s.operatingDays ? `${s.compatibleDays} of ${s.operatingDays}` : "–"}</td><td>${verdictBadge(s.verdict)}</td></tr>`,
  )}</tbody></table>`
}
</section>`;
})}

<h2 id="approvals-h">Approval requests</h2>
${
  decided.length
    ? html`<table aria-labelledby="approvals-h"><thead><tr><th scope="col">Request</th><th scope="col">Asked</th><th scope="col">Outcome</th><th scope="col">Note</th></tr></thead><tbody>
  ${decided.map(
    ({ a, by }) =>
      html`<tr><td>${KIND_WORDS[a.kind]} <span class="muted">${a.approval_id}</span></td><td>${when(a.created_at)}</td>
    <td>${APPROVAL_WORDS[a.status] ?? a.status}${by ? ` by ${by}` : ""}${a.decided_at ? `, ${when(a.decided_at)}` : ""}${a.decision_reason ? `: ${pii ? a.decision_reason : redactPersonalDetails(a.decision_reason)}` : ""}</td>
    <td>${a.result_note ? words(a.result_note) : ""}</td></tr>`,
  )}</tbody></table>`
    : html`<p>No decision has been asked for on this case.</p>`
}

<h2 id="timeline-h">Timeline</h2>
<ol class="timeline" aria-labelledby="timeline-h">
${timeline.map((e) => html`<li><time datetime="${e.at.toISOString()}">${when(e.at)}</time>: ${words(e.what)}.</li>`)}
</ol>`;
    return c.html(layout(record.case_id, user, body));
  });
}
