// A rider, /web/employees/{id}: profile, vanpool, shift and leave, the cases that flagged them with their
// outcomes, exceptions that kept them, the emails sent to them and their replies, and what their cases
// recorded about them (re-checked, removed, reinstated, kept).
import type { Hono } from "hono";
import { findEmployees } from "../../data/api-read-repository.js";
import { findThreadForCase } from "../../data/email-repository.js";
import { findExceptionsOn } from "../../data/exception-repository.js";
import { listCasesOfRider } from "../../data/rider-history-repository.js";
import { findEmployeeProfile } from "../../data/vanpool-repository.js";
import { listRiderEvents } from "../../data/web-read-repository.js";
import { dateInWords } from "../../domain/dates.js";
import { keptInWords } from "../../domain/exceptions.js";
import { redactFinding } from "../../domain/redaction.js";
import { describeSchedule } from "../../domain/schedule.js";
import { notFound } from "../../errors.js";
import { addressOf } from "../../integrations/email/reply-address.js";
import { trailWhat } from "../../slack/blocks/trail.js";
import { presentMessage } from "../api/present.js";
import { seesPersonalData } from "./auth.js";
import type { WebDeps, WebEnv } from "./context.js";
import { actorName, homeWords } from "./facts.js";
import { html, layout, statusLabel, whenIn } from "./page.js";

const OUTCOME_WORDS: Record<string, string> = {
  verified: "Verified: the data passed",
  resolved: "Resolved",
  cancelled: "Cancelled",
};

export function registerEmployeePage(app: Hono<WebEnv>, deps: WebDeps): void {
  const when = whenIn(deps.agent.settings.timeZone);
  const { pool, prisma } = deps.agent;

  app.get("/web/employees/:id", async (c) => {
    const id = c.req.param("id").toUpperCase();
    const user = c.get("user");
    const pii = seesPersonalData(user);
    const [[record], profile, cases] = await Promise.all([
      findEmployees(pool, [id]),
      findEmployeeProfile(prisma, id),
      listCasesOfRider(prisma, id),
    ]);
    if (!record || !profile) throw notFound(`There is no employee ${id}.`);
    const vanpoolIds = [...new Set([...record.vanpool_ids, ...cases.map((k) => k.vanpool_id)])];
    const [exceptions, threads, changes] = await Promise.all([
      findExceptionsOn(prisma, vanpoolIds),
      Promise.all(cases.map((k) => findThreadForCase(prisma, k.case_id))),
      listRiderEvents(
        pool,
        id,
        cases.map((k) => k.case_id),
      ),
    ]);
    const own = record.email.toLowerCase();
    const messages = threads
      .flatMap((t) => t?.messages ?? [])
      .filter((m) => m.from.toLowerCase().includes(own) || m.to.some((to) => to.toLowerCase().includes(own)))
      .sort((a, b) => a.at.getTime() - b.at.getTime());
    // Messages name the rider by id; every one shown here is to or from this rider.
    const byEmail = new Map([[addressOf(record.email), record.employee_id]]);
    const history = await Promise.all(
      changes.map(async (e) => ({ at: e.at, what: trailWhat(e, await actorName(deps, user, e.actor)) })),
    );
    const granters = await Promise.all(
      exceptions
        .filter((x) => x.employee_id === id)
        .map(async (x) => ({
          x,
          who: /^[UW][A-Z0-9]+$/.test(x.granted_by)
            ? await actorName(deps, user, `slack:${x.granted_by}`)
            : x.granted_by,
        })),
    );

    const body = html`<h1>${record.first_name} ${record.last_name} <span class="muted">${record.employee_id}</span></h1>
<dl class="facts">
  <dt>Home</dt><dd>${homeWords(user, { ...record, home_address: record.home_address })}</dd>
  ${pii ? html`<dt>Email</dt><dd>${record.email}</dd>` : ""}
  <dt>Work site</dt><dd>${record.work_site}</dd>
  <dt>Employment</dt><dd>${record.status === "active" ? "Active" : record.status}, ${record.time_type.replace(/_/g, " ")}</dd>
  <dt>Vanpool</dt><dd>${record.vanpool_ids.length ? record.vanpool_ids.map((v, i) => html`${i ? ", " : ""}<a href="/web/vanpools/${v}">${v}</a>`) : "Rides no vanpool now"}</dd>
  <dt>Shift</dt><dd>${profile.shift ? `${profile.shift.name}: ${describeSchedule(profile.shift.schedule)}` : "No shift on record"}</dd>
  <dt>Leave (PTO)</dt><dd>${profile.pto_dates.length ? profile.pto_dates.join(", ") : "None on record"}</dd>
</dl>

<h2 id="cases-h">Cases</h2>
${
  cases.length
    ? html`<table aria-labelledby="cases-h"><thead><tr><th scope="col">Case</th><th scope="col">Vanpool</th><th scope="col">Checks failed</th><th scope="col">Status</th><th scope="col">Outcome</th><th scope="col">Opened</th></tr></thead><tbody>
  ${cases.map(
    (
      k,
    ) => html`<tr><td><a href="/web/cases/${k.case_id}">${k.case_id}</a></td><td><a href="/web/vanpools/${k.vanpool_id}">${k.vanpool_id}</a></td>
    <td>${k.failed_checks.length ? k.failed_checks.join(" and ") : "data missing"}</td><td>${statusLabel(k.status)}</td>
    <td>${k.outcome ? OUTCOME_WORDS[k.outcome] : "Not decided yet"}</td><td>${when(k.created_at)}</td></tr>`,
  )}
  </tbody></table>`
    : html`<p>No case has flagged this rider.</p>`
}

<h2 id="exceptions-h">Exceptions</h2>
${
  granters.length
    ? html`<ul>${granters.map(
        ({ x, who }) =>
          html`<li>${x.check === "location" ? "Location" : "Shift"} check on ${x.vanpool_id}: ${keptInWords(x, who, dateInWords(x.expires_at, deps.agent.settings.timeZone))}${x.revoked_at ? html` <strong>(revoked ${when(x.revoked_at)})</strong>` : ""}</li>`,
      )}</ul>`
    : html`<p>No exception has kept this rider.</p>`
}

<h2 id="emails-h">Emails and replies</h2>
${
  messages.length
    ? messages.map((m) => {
        const shown = presentMessage(m, byEmail, pii);
        return html`<article aria-label="${m.direction === "outbound" ? "Email to the rider" : "Reply from the rider"}, ${when(m.at)}">
  <h3>${m.direction === "outbound" ? "Pool Patrol wrote" : `${record.first_name} replied`} · ${when(m.at)}</h3>
  <p><strong>${shown.subject}</strong></p>
  <pre class="body">${pii ? shown.body : redactFinding(shown.body)}</pre>
</article>`;
      })
    : html`<p>No email has been sent to this rider.</p>`
}

<h2 id="history-h">What happened to this rider</h2>
${
  history.length
    ? html`<ol class="timeline" aria-labelledby="history-h">${history.map((e) => html`<li><time datetime="${e.at.toISOString()}">${when(e.at)}</time>: ${e.what}.</li>`)}</ol>`
    : html`<p>Nothing has been recorded about this rider on a case.</p>`
}`;
    return c.html(layout(`${record.first_name} ${record.last_name}`, user, body));
  });
}
