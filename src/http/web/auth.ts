// Who reads the web pages. Sign in with Slack when it is configured (slack-sign-in.ts), and always
// `/poolpatrol web` in Slack, which gives a one-time link (single use, 10 minutes);
// opening it shows a button whose same-site POST starts a session (a link preview fetching the
// GET cannot use it up). The session's secret rides in an HTTP-only, SameSite=Lax cookie; the server
// keeps its SHA-256. A page asked for without a session redirects to the page explaining how to sign in.
import type { Context, Hono, MiddlewareHandler } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import {
  endWebSession,
  findWebSession,
  redeemSignInLink,
  SESSION_HOURS,
  SIGN_IN_LINK_MINUTES,
  signInLinkState,
  type WebUser,
} from "../../data/web-session-repository.js";
import type { WebDeps, WebEnv } from "./context.js";
import { html, layout } from "./page.js";

export const SESSION_COOKIE = "pp_session";
/** Starts Sign in with Slack (slack-sign-in.ts). */
export const SLACK_SIGN_IN_PATH = "/web/sign-in/slack";

/**
 * A state-changing request must come from our own pages: the browser's Sec-Fetch-Site says so, or
 * (older browsers) the Origin names this host. Anything else is refused.
 */
export function sameSite(c: Context): boolean {
  const site = c.req.header("sec-fetch-site");
  if (site) return site === "same-origin";
  const origin = c.req.header("origin");
  if (!origin) return false;
  try {
    return new URL(origin).host === c.req.header("host");
  } catch {
    return false;
  }
}

const REFUSED: Record<"unknown" | "expired" | "used", string> = {
  unknown: "This sign-in link is not one Pool Patrol made.",
  expired: `This sign-in link has expired: a link works for ${SIGN_IN_LINK_MINUTES} minutes.`,
  used: "This sign-in link was used already: each link works once.",
};

export function howToSignIn(deps: WebDeps, problem?: string) {
  const byLink = html`type <code>/poolpatrol web</code> in Slack: Pool Patrol answers you privately with a link
that signs you in. The link works once, within ${SIGN_IN_LINK_MINUTES} minutes; ask for a new one any time.`;
  return html`<h1>Sign in to Pool Patrol</h1>
${problem ? html`<p class="notice" role="alert">${problem}</p>` : ""}
<p>These pages show the vanpool audit to the people in the audit channel.</p>
${
  deps.slackSignIn
    ? html`<p><a class="button" href="${SLACK_SIGN_IN_PATH}">Sign in with Slack</a></p><p>Or ${byLink}</p>`
    : html`<p>To sign in, ${byLink}</p>`
}`;
}

/** The session's secret, HTTP-only and SameSite, for the pages under /web. */
export function setSessionCookie(c: Context, deps: WebDeps, secret: string): void {
  setCookie(c, SESSION_COOKIE, secret, {
    httpOnly: true,
    sameSite: "Lax",
    secure: deps.secureCookie,
    path: "/web",
    maxAge: SESSION_HOURS * 3600,
  });
}

export function registerSignIn(app: Hono<WebEnv>, deps: WebDeps): void {
  const { pool } = deps.agent;

  app.get("/web/sign-in", async (c) => {
    const token = c.req.query("token");
    if (!token) return c.html(layout("Sign in", undefined, howToSignIn(deps)));
    const state = await signInLinkState(pool, token, deps.agent.now());
    if (state !== "valid") return c.html(layout("Sign in", undefined, howToSignIn(deps, REFUSED[state])), 410);
    return c.html(
      layout(
        "Sign in",
        undefined,
        html`<h1>Sign in to Pool Patrol</h1>
<form method="post" action="/web/sign-in">
  <input type="hidden" name="token" value="${token}">
  <p>This link signs you in on this browser for ${SESSION_HOURS} hours.</p>
  <button type="submit">Sign in</button>
</form>`,
      ),
    );
  });

  app.post("/web/sign-in", async (c) => {
    if (!sameSite(c))
      return c.html(layout("Refused", undefined, howToSignIn(deps, "That request came from another site.")), 403);
    const form = await c.req.parseBody();
    const token = typeof form.token === "string" ? form.token : "";
    const outcome = await redeemSignInLink(pool, token, deps.agent.now());
    if (!outcome.ok) return c.html(layout("Sign in", undefined, howToSignIn(deps, REFUSED[outcome.reason])), 410);
    setSessionCookie(c, deps, outcome.session);
    return c.redirect("/web/", 303);
  });

  app.post("/web/sign-out", async (c) => {
    if (!sameSite(c))
      return c.html(layout("Refused", undefined, howToSignIn(deps, "That request came from another site.")), 403);
    const secret = getCookie(c, SESSION_COOKIE);
    if (secret) await endWebSession(pool, secret);
    deleteCookie(c, SESSION_COOKIE, { path: "/web" });
    return c.redirect("/web/sign-in", 303);
  });
}

/** Every other page needs a live session; without one the browser goes to the sign-in page. */
export function requireSession(deps: WebDeps): MiddlewareHandler<WebEnv> {
  return async (c, next) => {
    const secret = getCookie(c, SESSION_COOKIE);
    const user: WebUser | undefined = secret
      ? await findWebSession(deps.agent.pool, secret, deps.agent.now())
      : undefined;
    if (!user) return c.redirect("/web/sign-in", 303);
    c.set("user", user);
    await next();
  };
}

/** Whether the reader may see home addresses, email addresses, full ZIPs and exact coordinates. */
export const seesPersonalData = (user: WebUser) => user.role === "approver";
