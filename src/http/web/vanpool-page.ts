// A vanpool, /web/vanpools/{id}: where it goes, its riders with each check, the van's schedule beside
// each rider's shift as a week grid (compatible days marked), and its cases.
import type { Hono } from "hono";
import { findEmployees } from "../../data/api-read-repository.js";
import { listCases } from "../../data/case-repository.js";
import { findVanpoolSnapshotsOf } from "../../data/vanpool-repository.js";
import { findLatestResultsOf } from "../../data/verification-repository.js";
import { isClosed } from "../../domain/case-lifecycle.js";
import { zip3 } from "../../domain/redaction.js";
import { WEEKDAYS } from "../../domain/schedule.js";
import { notFound } from "../../errors.js";
import { lookupZip3Area } from "../../integrations/distance/zip-centroids.js";
import { seesPersonalData } from "./auth.js";
import type { WebDeps, WebEnv } from "./context.js";
import { distanceWords, homeWords, locationsOf, referenceOf, shiftsOf } from "./facts.js";
import { googleMap } from "./google-map.js";
import { type MapInput, vanpoolMap } from "./map.js";
import { html, layout, statusLabel, verdictBadge, whenIn } from "./page.js";

const LOCATION_WORDS: Record<string, string> = { pass: "within the limit", fail: "beyond the limit" };

export function registerVanpoolPage(app: Hono<WebEnv>, deps: WebDeps): void {
  const when = whenIn(deps.agent.settings.timeZone);
  const { pool, prisma } = deps.agent;

  app.get("/web/vanpools/:id", async (c) => {
    const id = c.req.param("id").toUpperCase();
    const user = c.get("user");
    const [[van], latest, cases] = await Promise.all([
      findVanpoolSnapshotsOf(pool, [id]),
      findLatestResultsOf(pool, [id]),
      listCases(prisma, { vanpoolId: id }),
    ]);
    if (!van) throw notFound(`There is no vanpool ${id}.`);
    const results = latest.get(id) ?? {};
    const addresses = seesPersonalData(user)
      ? new Map(
          (
            await findEmployees(
              pool,
              van.riders.map((r) => r.employee_id),
            )
          ).map((e) => [e.employee_id, e.home_address]),
        )
      : new Map<string, string>();
    const locations = locationsOf(results);
    const shifts = shiftsOf(results);
    const reference = referenceOf(results);
    const open = cases.find((k) => !isClosed(k.status));
    const limit = deps.agent.settings.policy.maxDistanceMiles;
    const pii = seesPersonalData(user);
    const mapKey = deps.agent.settings.webMapKey;
    const drawMap = (input: MapInput, title: string) =>
      mapKey ? googleMap(input, title, mapKey) : vanpoolMap(input, title);
    const map = drawMap(
      {
        pickup: van.pickup_coords ?? van.work_site_coords,
        pickupIsWorkSite: !van.pickup_coords,
        workSite: van.work_site_coords,
        limitMiles: limit,
        homes: van.riders.map((r) => {
          const where = locations.get(r.employee_id);
          const verdict = where?.verdict ?? null;
          const label = `${r.employee_id} ${r.first_name}: ${verdict ? (LOCATION_WORDS[verdict] ?? "not located") : "not checked"}, ${distanceWords(user, where?.miles ?? null)}`;
          const area = lookupZip3Area(zip3(r.home_zip).slice(0, 3));
          if (pii)
            return { label, employeeId: r.employee_id, verdict, point: where?.point ?? r.home_coords ?? area?.center };
          return { label, employeeId: r.employee_id, verdict, area };
        }),
      },
      `Map of ${van.vanpool_id}: the pickup, the ${limit}-mile limit and each rider's home`,
    );

    const body = html`<h1>${van.vanpool_id}${van.name ? ` · ${van.name}` : ""}</h1>
${open ? html`<p class="notice"><span class="badge fail">Flagged</span> Open case <a href="/web/cases/${open.case_id}">${open.case_id}</a>: ${statusLabel(open.status)}.</p>` : ""}
<dl class="facts">
  <dt>Status</dt><dd>${van.status === "active" ? "Active" : "Inactive"}</dd>
  <dt>Work site</dt><dd>${van.work_site}, ${van.work_site_address}</dd>
  <dt>Pickup</dt><dd>${van.pickup_address ?? "None on file: the work site is the pickup"}</dd>
  <dt>Riders</dt><dd>${van.riders.length} of ${van.capacity} seats</dd>
  <dt>Location check</dt><dd>${verdictBadge(results.location?.verdict)} ${results.location ? html`<span class="muted">(${when(results.location.finished_at)})</span>` : ""}</dd>
  <dt>Shift check</dt><dd>${verdictBadge(results.shift?.verdict)} ${results.shift ? html`<span class="muted">(${when(results.shift.finished_at)})</span>` : ""}</dd>
</dl>

<h2 id="map-h">Map</h2>
${map}

<h2 id="riders-h">Riders</h2>
<table aria-labelledby="riders-h">
  <thead><tr><th scope="col">Rider</th><th scope="col">Home</th><th scope="col">From the pickup (limit ${limit} mi)</th><th scope="col">Location</th><th scope="col">Shift</th><th scope="col">Shift check</th></tr></thead>
  <tbody>
  ${van.riders.map((r) => {
    const where = locations.get(r.employee_id);
    const shift = shifts.get(r.employee_id);
    return html`<tr${where?.verdict === "fail" || shift?.verdict === "fail" ? html` class="flagged"` : ""}>
    <th scope="row"><a href="/web/employees/${r.employee_id}">${r.first_name} ${r.last_name}</a> <span class="muted">${r.employee_id}</span></th>
    <td>${homeWords(user, { ...r, home_address: addresses.get(r.employee_id) })}</td>
    <td>${distanceWords(user, where?.miles ?? null)}</td>
    <td>${verdictBadge(where?.verdict)}</td>
    <td>${r.shift?.name ?? "No shift on record"}</td>
    <td>${verdictBadge(shift?.verdict)}${shift?.operatingDays ? ` ${shift.compatibleDays} of ${shift.operatingDays} days` : ""}</td>
  </tr>`;
  })}
  </tbody>
</table>

<h2 id="week-h">The week: the van's schedule beside each rider's shift</h2>
${
  reference
    ? html`<p>The shift check compares each rider with ${reference.source}: ${reference.description}. A day is compatible when the
rider's shift starts and ends within the tolerance of the van's (or the rider is on leave that day).</p>
<table aria-labelledby="week-h">
  <thead><tr><th scope="col">Who</th>${WEEKDAYS.map((d) => html`<th scope="col">${d}</th>`)}</tr></thead>
  <tbody>
  <tr><th scope="row">The van</th>${WEEKDAYS.map((d) => {
    const day = [...shifts.values()].flatMap((s) => s.days).find((x) => x.day === d);
    return html`<td class="grid">${day ? day.reference : html`<span class="muted">No run</span>`}</td>`;
  })}</tr>
  ${van.riders.map((r) => {
    const shift = shifts.get(r.employee_id);
    return html`<tr><th scope="row">${r.first_name} ${r.last_name}</th>${WEEKDAYS.map((d) => {
      const day = shift?.days.find((x) => x.day === d);
      const own = r.shift?.schedule.find((e) => e.day === d);
      if (!day)
        return html`<td class="grid">${own ? `${own.start_time}-${own.end_time}` : html`<span class="muted">Off</span>`}</td>`;
      return html`<td class="grid ${day.compatible ? "pass" : "fail"}">${day.rider ?? "Off"}<br>${day.compatible ? (day.via === "pto" ? "✓ on leave" : "✓ compatible") : "✗ not compatible"}</td>`;
    })}</tr>`;
  })}
  </tbody>
</table>`
    : html`<p>No shift check has compared this van's riders yet.</p>`
}

<h2 id="cases-h">Cases</h2>
${
  cases.length
    ? html`<table aria-labelledby="cases-h"><thead><tr><th scope="col">Case</th><th scope="col">Status</th><th scope="col">Opened</th><th scope="col">Closed</th></tr></thead><tbody>
  ${cases.map((k) => html`<tr><td><a href="/web/cases/${k.case_id}">${k.case_id}</a></td><td>${statusLabel(k.status)}</td><td>${when(k.created_at)}</td><td>${k.resolved_at ? when(k.resolved_at) : "Open"}</td></tr>`)}
  </tbody></table>`
    : html`<p>No case has been opened on this vanpool.</p>`
}`;
    return c.html(layout(van.vanpool_id, user, body));
  });
}
