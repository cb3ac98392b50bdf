// The dashboard, /web/: the program's figures, then every vanpool (flagged ones first and highlighted)
// with its riders, latest verdicts and case; filters and search ride in the query string, so a
// filtered view is a link. 100 vanpools a page.
import type { Hono } from "hono";
import { listApprovals } from "../../data/approval-repository.js";
import { countCasesByStatus } from "../../data/case-repository.js";
import { countExceptions } from "../../data/exception-repository.js";
import { programFigures } from "../../data/program-figures.js";
import { type DashboardFilter, listDashboardVanpools, listWorkSites } from "../../data/web-read-repository.js";
import { CASE_STATUSES, type CaseStatus, isClosed } from "../../domain/case-lifecycle.js";
import type { WebDeps, WebEnv } from "./context.js";
import { type Html, html, layout, statusLabel, verdictBadge } from "./page.js";

const PAGE_SIZE = 100;
const DAY_MS = 86_400_000;
/** The figures cover this many days, and exceptions ending within this many are "expiring". */
const FIGURE_DAYS = 30;
const EXPIRING_DAYS = 14;

const STATUS_CHOICES = { flagged: "Flagged (open case)", active: "Active", inactive: "Inactive" } as const;
const CHECK_CHOICES = { location: "Fails the location check", shift: "Fails the shift check" } as const;

type Query = Record<string, string | undefined>;

/** The filters a query string asks for; a value that is not a choice is ignored. */
function filterOf(q: Query): DashboardFilter {
  const pick = <T extends string>(value: string | undefined, choices: readonly T[]) =>
    choices.includes(value as T) ? (value as T) : undefined;
  return {
    site: q.site || undefined,
    status: pick(q.status, Object.keys(STATUS_CHOICES) as (keyof typeof STATUS_CHOICES)[]),
    failing: pick(q.check, Object.keys(CHECK_CHOICES) as (keyof typeof CHECK_CHOICES)[]),
    caseStatus: pick(q.case, CASE_STATUSES),
    search: q.q?.trim().slice(0, 100) || undefined,
  };
}

function select(name: string, label: string, choices: [string, string][], chosen: string | undefined): Html {
  return html`<label for="f-${name}">${label}
  <select id="f-${name}" name="${name}">
    <option value="">Any</option>
    ${choices.map(([value, words]) => html`<option value="${value}"${value === chosen ? html` selected` : ""}>${words}</option>`)}
  </select></label>`;
}

export function registerDashboard(app: Hono<WebEnv>, deps: WebDeps): void {
  const { pool, prisma } = deps.agent;

  app.get("/web/", async (c) => {
    const q = c.req.query();
    const filter = filterOf(q);
    const pageNumber = Math.max(1, Math.min(10_000, Number.parseInt(q.page ?? "1", 10) || 1));
    const now = deps.agent.now();
    const [{ rows, total }, sites, byStatus, waiting, figures, exceptions] = await Promise.all([
      listDashboardVanpools(pool, filter, { offset: (pageNumber - 1) * PAGE_SIZE, limit: PAGE_SIZE }),
      listWorkSites(pool),
      countCasesByStatus(prisma),
      listApprovals(prisma, { status: "pending" }),
      programFigures(prisma, new Date(now.getTime() - FIGURE_DAYS * DAY_MS)),
      countExceptions(prisma, { since: now, until: now, soon: new Date(now.getTime() + EXPIRING_DAYS * DAY_MS) }),
    ]);
    const open = Object.entries(byStatus).filter(([status, n]) => n && !isClosed(status as CaseStatus));
    const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
    const linkTo = (page: number) =>
      `/web/?${new URLSearchParams({ ...(q as Record<string, string>), page: String(page) })}`;

    const body = html`<h1>Vanpools</h1>
<section aria-labelledby="figures-h">
<h2 id="figures-h">The program</h2>
<ul class="figures">
  ${open.length ? open.map(([status, n]) => html`<li><strong>${n}</strong> ${statusLabel(status)}</li>`) : html`<li><strong>0</strong> open cases</li>`}
  <li><strong>${waiting.length}</strong> ${waiting.length === 1 ? "decision" : "decisions"} waiting for an approver</li>
  <li><strong>${figures.automationRate === null ? "–" : `${Math.round(figures.automationRate * 100)}%`}</strong> of the ${figures.closedCases} ${figures.closedCases === 1 ? "case" : "cases"} closed in ${FIGURE_DAYS} days closed without a person</li>
  <li><strong>${exceptions.expiring}</strong> ${exceptions.expiring === 1 ? "exception ends" : "exceptions end"} within ${EXPIRING_DAYS} days</li>
</ul>
</section>
<section aria-labelledby="list-h">
<h2 id="list-h">Vanpools</h2>
<form class="filters" method="get" action="/web/" role="search" aria-label="Filter vanpools">
  <label for="f-q">Search id or name<input id="f-q" name="q" type="search" value="${filter.search ?? ""}"></label>
  ${select(
    "site",
    "Work site",
    sites.map((s) => [s, s]),
    filter.site,
  )}
  ${select("status", "Status", Object.entries(STATUS_CHOICES), filter.status)}
  ${select("check", "Check", Object.entries(CHECK_CHOICES), filter.failing)}
  ${select(
    "case",
    "Case status",
    CASE_STATUSES.map((s) => [s, statusLabel(s)]),
    filter.caseStatus,
  )}
  <button type="submit">Show</button>
</form>
<p>${total} ${total === 1 ? "vanpool" : "vanpools"}${pages > 1 ? `, page ${pageNumber} of ${pages}` : ""}; flagged vanpools (an open case) come first, marked in red.</p>
<table>
  <caption class="muted">Each vanpool with its active riders, the latest result of each check and its case</caption>
  <thead><tr><th scope="col">Vanpool</th><th scope="col">Work site</th><th scope="col">Riders</th><th scope="col">Location</th><th scope="col">Shift</th><th scope="col">Case</th></tr></thead>
  <tbody>
  ${rows.map((v) => {
    const flagged = v.newest_case !== null && !isClosed(v.newest_case.status);
    return html`<tr${flagged ? html` class="flagged"` : ""}>
    <td><a href="/web/vanpools/${v.vanpool_id}">${v.vanpool_id}</a>${v.name ? ` ${v.name}` : ""}${flagged ? html` <span class="badge fail">Flagged</span>` : ""}${v.status === "inactive" ? html` <span class="muted">(inactive)</span>` : ""}</td>
    <td>${v.work_site}</td>
    <td>${v.rider_count} of ${v.capacity}</td>
    <td>${verdictBadge(v.location)}</td>
    <td>${verdictBadge(v.shift)}</td>
    <td>${v.newest_case ? html`<a href="/web/cases/${v.newest_case.case_id}">${statusLabel(v.newest_case.status)}</a>` : html`<span class="muted">None</span>`}</td>
  </tr>`;
  })}
  </tbody>
</table>
${
  pages > 1
    ? html`<nav aria-label="Pages of vanpools"><p>
  ${pageNumber > 1 ? html`<a href="${linkTo(pageNumber - 1)}">Previous page</a>` : ""}
  ${pageNumber < pages ? html`<a href="${linkTo(pageNumber + 1)}">Next page</a>` : ""}</p></nav>`
    : ""
}
</section>`;
    return c.html(layout("Vanpools", c.get("user"), body));
  });
}
