// Sign in with Slack (OpenID Connect), when SLACK_CLIENT_ID and SLACK_CLIENT_SECRET are set: the
// browser goes to Slack to approve and comes back with a code; Slack says who the person is, and
// anyone in the audit channel gets a session, as an approver if they are one. The state and nonce
// ride in a short-lived HTTP-only cookie, so a callback this browser did not start is refused.
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { Context, Hono } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { startWebSession } from "../../data/web-session-repository.js";
import { SignInRefused } from "../../slack/sign-in-with-slack.js";
import { howToSignIn, SLACK_SIGN_IN_PATH, setSessionCookie } from "./auth.js";
import type { WebDeps, WebEnv } from "./context.js";
import { layout } from "./page.js";

export const SLACK_CALLBACK_PATH = `${SLACK_SIGN_IN_PATH}/callback`;
const PENDING_COOKIE = "pp_slack_sign_in";
const PENDING_MINUTES = 10;

const sameSecret = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export function registerSlackSignIn(app: Hono<WebEnv>, deps: WebDeps): void {
  const slack = deps.slackSignIn;
  if (!slack) return;
  const refuse = (c: Context, status: 400 | 403 | 502, problem: string) =>
    c.html(layout("Sign in", undefined, howToSignIn(deps, problem)), status);

  app.get(SLACK_SIGN_IN_PATH, (c) => {
    const state = randomBytes(24).toString("base64url");
    const nonce = randomBytes(24).toString("base64url");
    setCookie(c, PENDING_COOKIE, `${state}.${nonce}`, {
      httpOnly: true,
      sameSite: "Lax",
      secure: deps.secureCookie,
      path: SLACK_SIGN_IN_PATH,
      maxAge: PENDING_MINUTES * 60,
    });
    return c.redirect(slack.provider.authorizeUrl({ state, nonce, redirectUri: slack.redirectUri }), 302);
  });

  app.get(SLACK_CALLBACK_PATH, async (c) => {
    const [state, nonce] = (getCookie(c, PENDING_COOKIE) ?? "").split(".");
    deleteCookie(c, PENDING_COOKIE, { path: SLACK_SIGN_IN_PATH });
    if (c.req.query("error")) return refuse(c, 400, "Signing in with Slack was cancelled.");
    const code = c.req.query("code");
    if (!state || !nonce || !code || !sameSecret(state, c.req.query("state") ?? ""))
      return refuse(
        c,
        400,
        `This sign-in did not start in this browser, or took longer than ${PENDING_MINUTES} minutes. Sign in again.`,
      );
    try {
      const person = await slack.provider.exchange(code, slack.redirectUri);
      if (person.nonce !== nonce) return refuse(c, 400, "This sign-in did not start in this browser. Sign in again.");
      if (person.teamId !== slack.teamId)
        return refuse(c, 403, "You signed in to another Slack workspace: choose the one Pool Patrol works in.");
      if (!(await slack.provider.isChannelMember(slack.auditChannel, person.userId)))
        return refuse(
          c,
          403,
          "These pages are for the people in the audit channel. Ask someone there to add you, then sign in again.",
        );
      const role = (await slack.isApprover(person.userId)) ? "approver" : "member";
      const user = { userId: person.userId, userName: person.name, role } as const;
      setSessionCookie(c, deps, await startWebSession(deps.agent.pool, user, deps.agent.now()));
      return c.redirect("/web/", 303);
    } catch (error) {
      if (error instanceof SignInRefused) return refuse(c, 403, `${error.message} Sign in again.`);
      process.stderr.write(`Sign in with Slack failed: ${(error as Error).message}\n`);
      return refuse(c, 502, "Slack could not be reached to confirm who you are. Try again in a minute.");
    }
  });
}
