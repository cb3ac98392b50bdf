// The web pages over HTTP against the real bot (HTTP mode) on PostgreSQL: `/poolpatrol web` gives a
// one-time sign-in link, its session reads the pages, and a member reads no street address, email
// address, full ZIP or exact coordinates on any of them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseSettings } from "../../src/config/settings.js";
import { grantExceptions } from "../../src/data/exception-repository.js";
import { whenIn } from "../../src/http/web/page.js";
import { ALICE, CAROL, type Harness, startHarness } from "../support/bot-harness.js";
import { personalEmailsIn } from "../support/privacy.js";

let h: Harness;
let base: string;

beforeAll(async () => {
  h = await startHarness();
  base = h.url.replace(/\/slack\/events$/, "");
  // A case with a timeline: VP-111 fails its audit.
  await h.audit("VP-111");
}, 120_000);

afterAll(async () => {
  await h?.close();
});

/** `/poolpatrol web` as `user` (Slack handle `name`): the private answer and the link in it. */
async function askForLink(user: string, name: string) {
  const body = h.fake.slashCommandBody({
    command: "/poolpatrol",
    text: "web",
    user_id: user,
    user_name: name,
    channel_id: "C0AUDIT",
  });
  const answer = (await (await h.post(body)).json()) as { text: string; response_type: string };
  const link = /<(http[^|>]+)\|/.exec(answer.text)?.[1];
  expect(link, answer.text).toBeDefined();
  return { answer, link: new URL(link!) };
}

const form = { "content-type": "application/x-www-form-urlencoded" };

/** Opens the link and presses its Sign in button, as a browser on our own page does. */
async function useLink(link: URL) {
  const page = await fetch(`${base}${link.pathname}${link.search}`);
  const token = link.searchParams.get("token")!;
  const signedIn = await fetch(`${base}/web/sign-in`, {
    method: "POST",
    redirect: "manual",
    headers: { ...form, origin: base },
    body: new URLSearchParams({ token }),
  });
  return { page, signedIn };
}

async function signIn(user: string, name: string): Promise<string> {
  const { link } = await askForLink(user, name);
  const { signedIn } = await useLink(link);
  expect(signedIn.status).toBe(303);
  return signedIn.headers.get("set-cookie")!.split(";")[0]!;
}

/** The words on a page, without its tags and attributes. */
const visible = (page: string) => page.replace(/<[^>]*>/g, " ");

const open = async (path: string, cookie: string) => {
  const response = await fetch(`${base}${path}`, { headers: { cookie }, redirect: "manual" });
  return { status: response.status, headers: response.headers, text: await response.text() };
};

describe("signing in", () => {
  it("/poolpatrol web answers privately with a link that signs in once, with an HTTP-only SameSite cookie", async () => {
    const { answer, link } = await askForLink(ALICE, "alice");
    expect(answer.response_type).toBe("ephemeral");
    expect(answer.text).toMatch(/works once, within 10 minutes/);
    expect(link.pathname).toBe("/web/sign-in");
    // The secret is kept only as its hash.
    const stored = await h.db.prisma.webSignIn.findFirstOrThrow({ where: { userId: ALICE } });
    expect(JSON.stringify(stored)).not.toContain(link.searchParams.get("token")!);
    expect(stored.role).toBe("approver");

    const { page, signedIn } = await useLink(link);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/<button type="submit">Sign in<\/button>/);
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get("location")).toBe("/web/");
    const cookie = signedIn.headers.get("set-cookie")!;
    expect(cookie).toMatch(/^pp_session=[\w-]{40,};/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);

    const dashboard = await open("/web/", cookie.split(";")[0]!);
    expect(dashboard.status).toBe(200);
    expect(dashboard.text).toMatch(/Signed in as alice \(approver\)/);

    // Used once: the same link is refused, on opening and on pressing the button.
    const again = await useLink(link);
    expect(again.page.status).toBe(410);
    expect(await again.page.text()).toMatch(/was used already: each link works once/);
    expect(again.signedIn.status).toBe(410);
    expect(again.signedIn.headers.get("set-cookie")).toBeNull();
  });

  it("refuses a link older than 10 minutes, and a made-up one", async () => {
    const { link } = await askForLink(CAROL, "carol");
    await h.db.prisma.webSignIn.updateMany({
      where: { userId: CAROL, usedAt: null },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const { page, signedIn } = await useLink(link);
    expect(page.status).toBe(410);
    expect(await page.text()).toMatch(/has expired: a link works for 10 minutes/);
    expect(signedIn.status).toBe(410);
    const madeUp = await fetch(`${base}/web/sign-in?token=not-a-real-token`);
    expect(madeUp.status).toBe(410);
    expect(await madeUp.text()).toMatch(/not one Pool Patrol made/);
  });

  it("sends a page asked for without a session (or with an ended one) to the page explaining how to sign in", async () => {
    for (const cookie of ["", "pp_session=made-up"]) {
      const page = await open("/web/vanpools/VP-101", cookie);
      expect(page.status).toBe(303);
      expect(page.headers.get("location")).toBe("/web/sign-in");
    }
    const help = await (await fetch(`${base}/web/sign-in`)).text();
    expect(help).toMatch(/type\s+<code>\/poolpatrol web<\/code> in Slack/);
    // Without the app's client credentials Sign in with Slack is not offered, and its path is no page.
    expect(help).not.toContain("Sign in with Slack");
    expect((await open("/web/sign-in/slack", "")).headers.get("location")).toBe("/web/sign-in");
  });

  it("refuses a sign-in or sign-out posted from another site, and signing out ends the session", async () => {
    const { link } = await askForLink(CAROL, "carol");
    const crossSite = await fetch(`${base}/web/sign-in`, {
      method: "POST",
      redirect: "manual",
      headers: { ...form, origin: "https://evil.example", "sec-fetch-site": "cross-site" },
      body: new URLSearchParams({ token: link.searchParams.get("token")! }),
    });
    expect(crossSite.status).toBe(403);
    const { signedIn } = await useLink(link);
    expect(signedIn.status).toBe(303);
    const cookie = signedIn.headers.get("set-cookie")!.split(";")[0]!;
    const post = (origin: string) =>
      fetch(`${base}/web/sign-out`, { method: "POST", redirect: "manual", headers: { ...form, origin, cookie } });
    expect((await post("https://evil.example")).status).toBe(403);
    expect((await open("/web/", cookie)).status).toBe(200);
    expect((await post(base)).status).toBe(303);
    expect((await open("/web/", cookie)).status).toBe(303);
  });
});

describe("the dashboard", () => {
  it("lists every vanpool with the flagged ones first and marked, the program's figures, filters and search", async () => {
    const cookie = await signIn(CAROL, "carol");
    const page = await open("/web/", cookie);
    expect(page.text).toMatch(/Signed in as carol \(member\)/);
    const vanpools = await h.db.prisma.vanpool.count();
    expect(page.text).toContain(`${vanpools} vanpools`);
    // Vanpools with an open case (VP-111's audit opened one; the seeds hold others) come first, highlighted.
    const rows = [...page.text.matchAll(/<tr( class="flagged")?>\s*<td><a href="\/web\/vanpools\/(VP-\d+)">/g)];
    const openCases = await h.db.prisma.case.findMany({ where: { status: { notIn: ["resolved", "cancelled"] } } });
    const flaggedIds = rows.filter((r) => r[1]).map((r) => r[2]);
    expect(flaggedIds.sort()).toEqual(openCases.map((c) => c.vanpoolId).sort());
    expect(rows.slice(0, flaggedIds.length).every((r) => r[1])).toBe(true);
    expect(flaggedIds).toContain("VP-111");
    expect(flaggedIds).not.toContain("VP-109"); // its case is resolved
    const open111 = openCases.find((c) => c.vanpoolId === "VP-111")!;
    expect(page.text).toContain(`<a href="/web/cases/${open111.id}">Waiting for riders</a>`);
    const waitingCount = openCases.filter((c) => c.status === "pending_reply").length;
    expect(page.text).toContain(`<strong>${waitingCount}</strong> Waiting for riders`);
    expect(page.text).toMatch(/decisions? waiting for an approver/);
    expect(visible(page.text)).not.toMatch(/pending_reply|hitl_review/);

    const flagged = await open("/web/?status=flagged", cookie);
    expect(flagged.text).toContain(`${openCases.length} vanpools;`);
    expect(flagged.text).toContain('<option value="flagged" selected>');
    const failingLocation = await open("/web/?check=location", cookie);
    expect(failingLocation.text).toContain('href="/web/vanpools/VP-111"');
    const searched = await open("/web/?q=vp-10", cookie);
    const found = [...searched.text.matchAll(/href="\/web\/vanpools\/(VP-\d+)"/g)].map((m) => m[1]);
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((id) => id!.startsWith("VP-10"))).toBe(true);
    const waiting = await open("/web/?case=pending_reply", cookie);
    expect([...waiting.text.matchAll(/href="\/web\/vanpools\/(VP-\d+)"/g)].map((m) => m[1]).sort()).toEqual(
      openCases
        .filter((c) => c.status === "pending_reply")
        .map((c) => c.vanpoolId)
        .sort(),
    );
    expect(personalEmailsIn(page.text)).toEqual([]);
  });
});

describe("a vanpool, a rider and a case", () => {
  const ridersOf111 = async () => {
    const riders = await h.db.prisma.rider.findMany({ where: { vanpoolId: "VP-111", status: "active" } });
    return h.db.prisma.employee.findMany({ where: { id: { in: riders.map((r) => r.employeeId) } } });
  };
  const caseOf111 = () =>
    h.db.prisma.case.findFirstOrThrow({ where: { vanpoolId: "VP-111", status: { notIn: ["resolved", "cancelled"] } } });

  it("the vanpool page shows each rider with each check, the week grid with compatible days, and its cases", async () => {
    const cookie = await signIn(ALICE, "alice");
    const page = await open("/web/vanpools/VP-111", cookie);
    expect(page.status).toBe(200);
    const k = await caseOf111();
    expect(page.text).toContain(`Open case <a href="/web/cases/${k.id}">${k.id}</a>: Waiting for riders.`);
    for (const e of await ridersOf111()) {
      expect(page.text).toContain(`<a href="/web/employees/${e.id}">${e.firstName} ${e.lastName}</a>`);
      // An approver reads the street address and the full ZIP.
      expect(page.text).toContain(e.homeAddress);
    }
    expect(page.text).toMatch(/<span class="badge fail">Fails<\/span>/);
    expect(page.text).toMatch(/The van<\/th>/);
    expect(page.text).toMatch(/✓ compatible|✗ not compatible/);
    expect((await open("/web/vanpools/VP-999", cookie)).status).toBe(404);
  });

  it("the map shows the pickup, the limit ring and each home coloured by its location verdict; a member sees ZIP3 areas", async () => {
    const k = await caseOf111();
    const flagged = new Set((k.meta as { flagged: string[] }).flagged);
    const riders = await ridersOf111();
    const markers = (page: string) =>
      new Map(
        [...page.matchAll(/<g class="home( area)?" data-rider="(EMP-\d+)" data-verdict="(\w+)"[^>]*>(.*?)<\/g>/gs)].map(
          (m) => [m[2]!, { area: Boolean(m[1]), verdict: m[3]!, inner: m[4]! }],
        ),
      );
    const approver = await open("/web/vanpools/VP-111", await signIn(ALICE, "alice"));
    expect(approver.text).toMatch(/<svg viewBox="0 0 640 480"[^>]*role="img" aria-labelledby="map-title map-desc">/);
    // VP-111 has no pickup point of its own: the work site is its pickup, the ring's center.
    expect(approver.text).toContain('<g class="work-site" role="img" aria-label="Work site">');
    expect(approver.text).toContain("Work site (the pickup)");
    expect(approver.text).toMatch(/<path class="limit" d="M[^"]+"/);
    expect(approver.text).toMatch(/<li>.*50 miles from the pickup \(the limit\)<\/li>/);
    const seen = markers(approver.text);
    expect([...seen.keys()].sort()).toEqual(riders.map((r) => r.id).sort());
    for (const [id, m] of seen) {
      expect(m.area).toBe(false);
      // Flagged riders fail the location check (VP-111's case is a location case): red diamonds; others green circles.
      expect(m.verdict).toBe(flagged.has(id) ? "fail" : "pass");
      expect(m.inner).toContain(flagged.has(id) ? 'fill="#a4161a"' : 'fill="#1b6b35"');
    }
    const member = await open("/web/vanpools/VP-111", await signIn(CAROL, "carol"));
    const areas = markers(member.text);
    expect([...areas.keys()].sort()).toEqual(riders.map((r) => r.id).sort());
    expect([...areas.values()].every((m) => m.area)).toBe(true);
    expect(member.text).toMatch(/ZIP3 area a home lies in/);
  });

  it("the case alert in Slack and its evidence modal link to the case page", async () => {
    const k = await caseOf111();
    const page = `${base}/web/cases/${k.id}`;
    expect(JSON.stringify(h.alertOf("VP-111").blocks)).toContain(`<${page}|Open the case page>`);
    await h.click(CAROL, h.alertOf("VP-111"), "view_evidence");
    const modal = h.fake.views(CAROL).at(-1)!;
    const filled = h.fake.viewHistory(modal.id).at(-1)!;
    expect(JSON.stringify(filled.blocks)).toContain(`<${page}|Open the case page>`);
  });

  it("the case page shows status, what happens next, evidence per check, the timeline and the Slack thread", async () => {
    const cookie = await signIn(CAROL, "carol");
    const k = await caseOf111();
    const page = await open(`/web/cases/${k.id}`, cookie);
    expect(page.status).toBe(200);
    const text = visible(page.text);
    expect(text).toContain("Waiting for riders");
    expect(text).toMatch(/What happens next\s+CASE-[0-9A-F]+ is waiting for replies from/);
    expect(text).toMatch(/Location check: +Fails/);
    expect(page.text).toMatch(/<a href="[^"]+">Open the case thread in Slack<\/a>/);
    expect(text).toMatch(/opened the case \(Verifying|opened the case \(Waiting for riders|opened the case/);
    expect(text).toMatch(/emailed (a rider|\d+ riders)/);
    // Who acted is named, never by a raw Slack id.
    expect(text).not.toMatch(/\bU0[A-Z0-9]+\b/);
    // Riders are named, their ids beside; a member reads the policy's limit as it is, not as a band.
    const flagged = await h.db.prisma.employee.findMany({
      where: { id: { in: (k.meta as { flagged: string[] }).flagged } },
    });
    for (const e of flagged) expect(text).toMatch(new RegExp(`flagged:.*${e.firstName} ${e.lastName}\\s+${e.id}`));
    expect(text).toMatch(/farther than 50 miles/);
    expect(text).not.toMatch(/farther than \d+-\d+ mi/);
    // Dates in the program's time zone, named (the same day the Case Manager and the terminal say).
    expect(text).toMatch(new RegExp(`Opened\\s+${whenIn(parseSettings({}).timeZone)(k.createdAt)}`));
  });

  it("the rider page shows profile, vanpool, shift, cases with outcomes and the emails sent", async () => {
    const cookie = await signIn(ALICE, "alice");
    const k = await caseOf111();
    const flagged = ((k.meta as { flagged: string[] }).flagged ?? [])[0]!;
    const page = await open(`/web/employees/${flagged}`, cookie);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`<a href="/web/cases/${k.id}">${k.id}</a>`);
    expect(page.text).toContain('<a href="/web/vanpools/VP-111">VP-111</a>');
    expect(visible(page.text)).toMatch(/Pool Patrol wrote/);
    const employee = await h.db.prisma.employee.findUniqueOrThrow({ where: { id: flagged } });
    expect(page.text).toContain(employee.email);
  });

  it("the rider page shows an exception that kept them and what their case recorded about them, naming who", async () => {
    const k = await caseOf111();
    const rider = (k.meta as { flagged: string[] }).flagged[0]!;
    await grantExceptions(h.db.prisma, {
      caseId: k.id,
      vanpoolId: "VP-111",
      riders: [{ employee_id: rider, checks: ["location"] }],
      reason: "moving_soon",
      note: "moving closer in March",
      grantedBy: ALICE,
      decision: "keep",
      now: new Date(),
      expiresAt: new Date(Date.now() + 30 * 86_400_000),
    });
    const page = visible((await open(`/web/employees/${rider}`, await signIn(CAROL, "carol"))).text);
    expect(page).toMatch(/Location check on VP-111: kept by alice until .* \(moving soon\)/);
    expect(page).toMatch(/What happened to this rider\s+\S.*alice: exception granted\./s);
    expect(page).not.toContain(ALICE);
  });

  it("a member reads no street address, email address, full ZIP or coordinates on any page", async () => {
    const cookie = await signIn(CAROL, "carol");
    const k = await caseOf111();
    const employees = await h.db.prisma.employee.findMany();
    const flagged = (k.meta as { flagged: string[] }).flagged;
    const pages = [
      "/web/",
      "/web/vanpools/VP-111",
      "/web/vanpools/VP-101",
      `/web/cases/${k.id}`,
      ...flagged.map((id) => `/web/employees/${id}`),
    ];
    // The vans' work sites and pickups are places, shown as they are (a work site's ZIP may be a rider's too).
    const places = (await h.db.prisma.vanpool.findMany()).flatMap((v) => [v.workSiteAddress, v.pickupAddress ?? ""]);
    for (const path of pages) {
      const page = await open(path, cookie);
      expect(page.status, path).toBe(200);
      const text = places.filter(Boolean).reduce((t, place) => t.split(place).join(""), page.text);
      expect(personalEmailsIn(text), path).toEqual([]);
      for (const e of employees) {
        expect(text, `${path}: ${e.id}'s street`).not.toContain(e.homeAddress);
        expect(text, `${path}: ${e.id}'s ZIP`).not.toMatch(new RegExp(`\\b${e.homeZip}\\b`));
        if (e.homeLat !== null) expect(text, path).not.toContain(String(e.homeLat));
      }
    }
    // A member reads a home as its city and ZIP3, and a distance as a band.
    const van = await open("/web/vanpools/VP-111", cookie);
    expect(van.text).toMatch(/\(\d{3}xx\)/);
    expect(van.text).toMatch(/(under 10|10-25|25-50|50-75|75-100|over 100) mi/);
  });
});
