// The frame every web page shares: plain server-rendered HTML (hono's `html` escapes every value put
// in it), one small stylesheet, a skip link and a labelled navigation. No script runs on a page.

import { html } from "hono/html";
import type { WebUser } from "../../data/web-session-repository.js";
import { STATUS_LABEL } from "../../domain/case-lifecycle.js";
import { dateTimeInWords } from "../../domain/dates.js";

export type Html = ReturnType<typeof html>;

export { html };

/** The stylesheet at /web/style.css: dark text on light ground (contrast over 7:1), visible focus. */
export const STYLESHEET = `
:root { --ink: #1a1f24; --muted: #4a5561; --line: #c8d0d8; --bg: #ffffff; --soft: #f3f5f7; --link: #0b57a4;
  --fail: #a4161a; --fail-bg: #fdeceb; --pass: #1b6b35; --pass-bg: #e9f6ee; --unsure: #7a4a00; --unsure-bg: #fff4de; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); background: var(--bg); }
a { color: var(--link); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, summary:focus-visible {
  outline: 3px solid #f5a623; outline-offset: 2px; }
.skip { position: absolute; left: -999px; top: 0; background: var(--ink); color: #fff; padding: .5rem 1rem; }
.skip:focus { left: 0; z-index: 10; }
header.top { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; justify-content: space-between;
  padding: .75rem 1.5rem; background: #14324f; color: #fff; }
header.top a { color: #fff; }
header.top nav ul { display: flex; gap: 1rem; list-style: none; margin: 0; padding: 0; }
header.top form { display: inline; }
header.top button { font: inherit; background: transparent; color: #fff; border: 1px solid #fff; border-radius: 4px; padding: .1rem .6rem; cursor: pointer; }
main { padding: 1rem 1.5rem 3rem; max-width: 78rem; }
h1 { font-size: 1.6rem; margin: .5rem 0 1rem; }
h2 { font-size: 1.25rem; margin: 2rem 0 .5rem; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0 1rem; }
caption { text-align: left; font-weight: 600; padding: .25rem 0; }
th, td { border-bottom: 1px solid var(--line); padding: .4rem .5rem; text-align: left; vertical-align: top; }
th { background: var(--soft); }
tr.flagged { background: var(--fail-bg); }
tr.flagged td:first-child { border-left: 4px solid var(--fail); }
.badge { display: inline-block; padding: 0 .45rem; border-radius: 4px; font-size: .9rem; font-weight: 600; border: 1px solid currentColor; }
.fail { color: var(--fail); background: var(--fail-bg); }
.pass { color: var(--pass); background: var(--pass-bg); }
.inconclusive { color: var(--unsure); background: var(--unsure-bg); }
.muted { color: var(--muted); }
form.filters { display: flex; flex-wrap: wrap; gap: .75rem 1rem; align-items: flex-end; padding: .75rem; background: var(--soft); border-radius: 6px; }
form.filters label { display: flex; flex-direction: column; font-size: .9rem; font-weight: 600; }
form.filters input, form.filters select, form.filters button { font: inherit; padding: .3rem .5rem; border: 1px solid var(--muted); border-radius: 4px; background: #fff; color: var(--ink); }
form.filters button { background: #14324f; color: #fff; border-color: #14324f; cursor: pointer; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; margin: 0 0 1rem; }
dl.facts dt { font-weight: 600; }
dl.facts dd { margin: 0; }
ul.figures { display: flex; flex-wrap: wrap; gap: .75rem; list-style: none; padding: 0; margin: 0 0 1rem; }
ul.figures li { background: var(--soft); border-radius: 6px; padding: .5rem .9rem; min-width: 10rem; }
ul.figures strong { display: block; font-size: 1.4rem; }
ol.timeline { list-style: none; padding: 0; border-left: 3px solid var(--line); margin-left: .5rem; }
ol.timeline li { padding: .25rem 0 .75rem 1rem; }
.map { display: flex; flex-wrap: wrap; gap: 1rem; align-items: flex-start; }
.map svg { max-width: 100%; height: auto; border: 1px solid var(--line); border-radius: 6px; background: #eef3f7; }
.google-map { display: block; width: 100%; max-width: 960px; height: 480px; border: 1px solid var(--line); border-radius: 6px; }
.legend { list-style: none; padding: 0; margin: 0; }
.legend li { display: flex; gap: .5rem; align-items: center; }
td.grid { text-align: center; }
a.button { display: inline-block; background: #14324f; color: #fff; padding: .5rem 1rem; border-radius: 4px; text-decoration: none; }
.notice { padding: .75rem 1rem; border-left: 4px solid #14324f; background: var(--soft); }
pre.body { white-space: pre-wrap; background: var(--soft); padding: .5rem; border-radius: 4px; }
`;

export function layout(title: string, user: WebUser | undefined, body: Html): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Pool Patrol</title>
<link rel="stylesheet" href="/web/style.css">
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top">
  <strong>Pool Patrol</strong>
  ${
    user
      ? html`<nav aria-label="Pages"><ul><li><a href="/web/">Vanpools</a></li></ul></nav>
  <span>Signed in as ${user.userName} (${user.role === "approver" ? "approver" : "member"})
    <form method="post" action="/web/sign-out"><button type="submit">Sign out</button></form></span>`
      : ""
  }
</header>
<main id="main">
${body}
</main>
</body>
</html>`;
}

/** A verdict as a coloured word (colour is never the only signal: the word is there). */
export function verdictBadge(verdict: string | null | undefined): Html {
  const word = verdict === "pass" ? "Passes" : verdict === "fail" ? "Fails" : verdict ? "Unsure" : "Not checked";
  return html`<span class="badge ${verdict ?? "inconclusive"}">${word}</span>`;
}

export const statusLabel = (status: string) => STATUS_LABEL[status] ?? status.replace(/_/g, " ");

/** Dates on the pages, in the program's time zone (the same day Slack and the Case Manager name). */
export function whenIn(timeZone: string): (date: Date | string) => string {
  return (date) => dateTimeInWords(new Date(date), timeZone);
}
