// Sign in with Slack (OpenID Connect) on the web pages, against the real bot in HTTP mode and the
// local Slack's consent page and openid.connect.token: people in the audit channel get a session
// (approvers as approvers), everyone else and every forged or replayed callback is refused.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALICE, BOB, CAROL, type Harness, SIGN_IN_CLIENT, startHarness } from "../support/bot-harness.js";

let h: Harness;
let base: string;

beforeAll(async () => {
  // Bob approves (through the approvers' user group) but is not in the audit channel.
  h = await startHarness({ slackSignIn: { auditChannelMembers: [ALICE, CAROL] } });
  base = h.url.replace(/\/slack\/events$/, "");
}, 120_000);

afterAll(async () => {
  await h?.close();
});

/** The cookie `name` a response sets, as a browser sends it back ("name=value"), with its attributes. */
function cookieSet(response: Response, name: string) {
  const line = response.headers.getSetCookie().find((c) => c.startsWith(`${name}=`)) ?? "";
  return { pair: line.split(";")[0] ?? "", line };
}

/** The browser presses "Sign in with Slack" and lands on Slack's consent page. */
async function startSignIn() {
  const start = await fetch(`${base}/web/sign-in/slack`, { redirect: "manual" });
  expect(start.status).toBe(302);
  const { pair, line } = cookieSet(start, "pp_slack_sign_in");
  return { pending: pair, setCookie: line, authorize: new URL(start.headers.get("location")!) };
}

/** On Slack's consent page the person continues as `user`; Slack sends the browser back with a code. */
async function approveAs(authorize: URL, user: string): Promise<URL> {
  const approved = await fetch(new URL("/openid/connect/authorize", h.fake.baseUrl), {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams([...authorize.searchParams, ["user", user]]),
  });
  expect(approved.status).toBe(302);
  return new URL(approved.headers.get("location")!);
}

const arrive = (callback: URL, cookie: string) =>
  fetch(callback, { headers: cookie ? { cookie } : {}, redirect: "manual" });

async function signInWithSlack(user: string) {
  const { pending, authorize } = await startSignIn();
  const callback = await approveAs(authorize, user);
  return { callback, pending, landed: await arrive(callback, pending) };
}

const sessionsOf = (userId: string) => h.db.prisma.webSession.count({ where: { userId } });

describe("Sign in with Slack", () => {
  it("the sign-in page offers it, and Slack is asked for the person's identity for this app", async () => {
    const page = await (await fetch(`${base}/web/sign-in`)).text();
    expect(page).toContain('href="/web/sign-in/slack"');
    expect(page).toContain("Sign in with Slack");
    const { authorize, setCookie } = await startSignIn();
    expect(`${authorize.origin}${authorize.pathname}`).toBe(new URL("/openid/connect/authorize", h.fake.baseUrl).href);
    expect(authorize.searchParams.get("client_id")).toBe(SIGN_IN_CLIENT.clientId);
    expect(authorize.searchParams.get("scope")).toBe("openid profile");
    expect(authorize.searchParams.get("redirect_uri")).toBe(`${base}/web/sign-in/slack/callback`);
    expect(authorize.searchParams.get("state")).toMatch(/^[\w-]{32}$/);
    expect(authorize.searchParams.get("nonce")).toMatch(/^[\w-]{32}$/);
    // The pending sign-in is tied to this browser by an HTTP-only cookie that lasts ten minutes.
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).toMatch(/Max-Age=600/);
    // Slack's consent page lists who may continue.
    const consent = await (await fetch(authorize)).text();
    expect(consent).toContain("Continue as");
  });

  it("an approver in the audit channel gets an approver's session and reads the pages", async () => {
    const { landed } = await signInWithSlack(ALICE);
    expect(landed.status).toBe(303);
    expect(landed.headers.get("location")).toBe("/web/");
    const session = cookieSet(landed, "pp_session");
    expect(session.pair).toMatch(/^pp_session=[\w-]{40,}$/);
    expect(session.line).toMatch(/HttpOnly/i);
    expect(session.line).toMatch(/SameSite=Lax/i);
    const dashboard = await fetch(`${base}/web/`, { headers: { cookie: session.pair }, redirect: "manual" });
    expect(dashboard.status).toBe(200);
    expect(await dashboard.text()).toContain("VP-101");
    const stored = await h.db.prisma.webSession.findFirstOrThrow({ where: { userId: ALICE } });
    expect(stored.role).toBe("approver");
  });

  it("a member of the audit channel who is not an approver gets a member's session", async () => {
    const { landed } = await signInWithSlack(CAROL);
    expect(landed.status).toBe(303);
    const session = await h.db.prisma.webSession.findFirstOrThrow({ where: { userId: CAROL } });
    expect(session.role).toBe("member");
  });

  it("someone outside the audit channel is told why and gets no session, approver or not", async () => {
    const { landed } = await signInWithSlack(BOB);
    expect(landed.status).toBe(403);
    expect(await landed.text()).toContain("These pages are for the people in the audit channel");
    expect(cookieSet(landed, "pp_session").pair).toBe("");
    expect(await sessionsOf(BOB)).toBe(0);
  });

  it("refuses a callback this browser did not start, or with another state, before asking Slack anything", async () => {
    const before = h.fake.callsTo("openid.connect.token").length;
    const { pending, authorize } = await startSignIn();
    const callback = await approveAs(authorize, CAROL);
    // Another browser (no pending cookie) follows the link.
    const elsewhere = await arrive(callback, "");
    expect(elsewhere.status).toBe(400);
    expect(await elsewhere.text()).toContain("This sign-in did not start in this browser");
    // The right browser, with a state that is not the one it was sent with.
    const forged = new URL(callback);
    forged.searchParams.set("state", "x".repeat(32));
    expect((await arrive(forged, pending)).status).toBe(400);
    expect(h.fake.callsTo("openid.connect.token").length).toBe(before);
  });

  it("a callback used once cannot be used again", async () => {
    const { callback, pending, landed } = await signInWithSlack(CAROL);
    expect(landed.status).toBe(303);
    const sessions = await sessionsOf(CAROL);
    // The pending cookie is cleared by the first use; replaying it with the old cookie, Slack refuses the code.
    expect(landed.headers.getSetCookie().some((c) => /^pp_slack_sign_in=;/.test(c))).toBe(true);
    const replay = await arrive(callback, pending);
    expect(replay.status).toBe(403);
    expect(await replay.text()).toContain("Slack did not confirm the sign-in (invalid_code)");
    expect(await sessionsOf(CAROL)).toBe(sessions);
  });

  it("says so when the person cancels at Slack, or Slack cannot be reached, and starts no session", async () => {
    const { pending, authorize } = await startSignIn();
    const cancelled = new URL(authorize.searchParams.get("redirect_uri")!);
    cancelled.searchParams.set("error", "access_denied");
    cancelled.searchParams.set("state", authorize.searchParams.get("state")!);
    const refused = await arrive(cancelled, pending);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("Signing in with Slack was cancelled.");

    const sessions = await sessionsOf(ALICE);
    const again = await startSignIn();
    const callback = await approveAs(again.authorize, ALICE);
    h.fake.serverErrorNext("openid.connect.token");
    const down = await arrive(callback, again.pending);
    expect(down.status).toBe(502);
    expect(await down.text()).toContain("Slack could not be reached to confirm who you are");
    expect(await sessionsOf(ALICE)).toBe(sessions);
  });
});
