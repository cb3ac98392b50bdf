// The web pages in a real browser (Debian's Chromium through playwright-core) against the sandbox on
// the mock data: sign in through `/poolpatrol web`, open every page, check what is shown (the flagged
// vanpools, the map's markers and colours, a rider's history, a case timeline), what a member never
// reads, and run axe-core on every page. Screenshots in test-output/web-pages/.
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { personalEmailsIn } from "../support/privacy.js";
import {
  CHROMIUM,
  closeSandboxInBrowser,
  hasChromium,
  openSandboxInBrowser,
  type SandboxInBrowser,
} from "../support/sandbox-in-browser.js";

if (!hasChromium)
  console.warn(`Skipping the web pages browser test: ${CHROMIUM} is not installed (apt-get install chromium).`);

const AXE = fs.readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

let opened: SandboxInBrowser;
let slack: Page;
let caseId: string;
let flaggedRider: string;

beforeAll(async () => {
  if (!hasChromium) return;
  opened = await openSandboxInBrowser("web-pages");
  slack = opened.page;
  // Alex (an approver) audits VP-111: a case with a timeline and emails.
  await command("U0ALEX", "/poolpatrol audit VP-111");
  await slack
    .locator("#messages .message", { hasText: "VP-111 Bay Fair Night Run: location check failed" })
    .first()
    .waitFor({ timeout: 30_000 });
  const k = await opened.db.prisma.case.findFirstOrThrow({ where: { vanpoolId: "VP-111", status: "pending_reply" } });
  caseId = k.id;
  flaggedRider = (k.meta as { flagged: string[] }).flagged[0]!;
}, 120_000);

afterAll(async () => {
  if (opened) await closeSandboxInBrowser(opened);
});

async function asUser(user: string) {
  await slack.selectOption("#user", user);
  await slack.waitForTimeout(300);
}

async function command(user: string, text: string) {
  await asUser(user);
  await slack.fill("#composer-text", text);
  await slack.press("#composer-text", "Enter");
}

/** `/poolpatrol web` as `user` in the sandbox's Slack: the link in the private answer. */
async function signInLink(user: string): Promise<string> {
  // Each person sees only their own private answers.
  await asUser(user);
  const before = await slack.locator(".ephemeral", { hasText: "Sign in to Pool Patrol's web pages" }).count();
  await command(user, "/poolpatrol web");
  const answers = slack.locator(".ephemeral", { hasText: "Sign in to Pool Patrol's web pages" });
  await expect.poll(() => answers.count(), { timeout: 15_000 }).toBe(before + 1);
  return (await answers.last().locator("a").first().getAttribute("href"))!;
}

/** A fresh browser (its own cookies) signed in through the link. */
async function signedIn(user: string, shotName?: string): Promise<Page> {
  const link = await signInLink(user);
  const page = await (await opened.browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await page.goto(link);
  if (shotName) await shot(page, shotName);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/web\/$/);
  return page;
}

const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(opened.shots, `${name}.png`), fullPage: true });

/** axe-core on the page: the violations of impact serious or critical. */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  // Run in the page (a string: the test's own types know no DOM).
  const found = (await page.evaluate(`axe.run(document, { resultTypes: ["violations"] }).then((result) =>
    result.violations.map((v) => ({ id: v.id, impact: v.impact, where: v.nodes.map((n) => n.target.join(" ")).slice(0, 3) })))`)) as {
    id: string;
    impact: string;
    where: string[];
  }[];
  return found.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id} at ${v.where}`);
}

describe.skipIf(!hasChromium)("the web pages in a browser", () => {
  it("an approver signs in through /poolpatrol web and reads every page; each passes axe-core", async () => {
    const page = await signedIn("U0ALEX", "01-sign-in");
    await expect.poll(() => page.locator("header").textContent()).toMatch(/Signed in as .* \(approver\)/);
    // The dashboard: flagged vanpools first, highlighted.
    const flagged = page.locator("tr.flagged");
    expect(await flagged.count()).toBeGreaterThan(0);
    expect(await flagged.filter({ hasText: "VP-111" }).count()).toBe(1);
    await shot(page, "02-dashboard");
    expect(await seriousViolations(page)).toEqual([]);

    // Keyboard: the skip link comes first, then the navigation.
    await page.keyboard.press("Tab");
    expect(await page.evaluate("document.activeElement.textContent")).toBe("Skip to content");

    await page.getByRole("link", { name: "VP-111" }).first().click();
    await page.waitForURL(/\/web\/vanpools\/VP-111$/);
    const map = page.getByRole("img", { name: /Map of VP-111/ });
    expect(await map.isVisible()).toBe(true);
    const markers = page.locator("svg g.home");
    const riders = await opened.db.prisma.rider.count({ where: { vanpoolId: "VP-111", status: "active" } });
    expect(await markers.count()).toBe(riders);
    // The flagged rider's marker is red; its accessible name says why.
    const red = page.locator(`svg g.home[data-rider="${flaggedRider}"]`);
    expect(await red.getAttribute("data-verdict")).toBe("fail");
    expect(await red.locator("[fill='#a4161a']").count()).toBe(1);
    await shot(page, "03-vanpool");
    expect(await seriousViolations(page)).toEqual([]);

    await page.goto(new URL(`/web/employees/${flaggedRider}`, page.url()).href);
    expect(await page.locator("main").textContent()).toContain(caseId);
    expect(await page.locator("main").textContent()).toMatch(/Pool Patrol wrote/);
    await shot(page, "04-rider");
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole("link", { name: caseId }).first().click();
    await page.waitForURL(new RegExp(`/web/cases/${caseId}$`));
    const timeline = page.locator("ol.timeline li");
    // The same events `poolpatrol case show` lists, in order.
    const events = await opened.db.prisma.auditEvent.count({ where: { subjectId: caseId } });
    expect(await timeline.count()).toBe(events);
    expect(await timeline.first().textContent()).toMatch(/opened the case/);
    expect(await page.getByRole("link", { name: "Open the case thread in Slack" }).count()).toBe(1);
    await shot(page, "05-case");
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  }, 120_000);

  it("a member sees no street address, email address or full ZIP on any page or anything it loads", async () => {
    const page = await signedIn("U0CASEY");
    const loaded: string[] = [];
    page.on("response", (response) => {
      loaded.push(response.url());
    });
    const employees = await opened.db.prisma.employee.findMany();
    const vans = await opened.db.prisma.vanpool.findMany();
    const places = vans.flatMap((v) => [v.workSiteAddress, v.pickupAddress ?? ""]).filter(Boolean);
    for (const [name, url] of [
      ["06-member-dashboard", "/web/"],
      ["07-member-vanpool", "/web/vanpools/VP-111"],
      ["08-member-rider", `/web/employees/${flaggedRider}`],
      ["09-member-case", `/web/cases/${caseId}`],
    ] as const) {
      const response = await page.goto(new URL(url, page.url()).href);
      expect(response?.status(), url).toBe(200);
      const html = places.reduce((t, place) => t.split(place).join(""), await page.content());
      expect(personalEmailsIn(html), url).toEqual([]);
      for (const e of employees) {
        expect(html, `${url}: ${e.id}`).not.toContain(e.homeAddress);
        expect(html, `${url}: ${e.id}`).not.toMatch(new RegExp(`\\b${e.homeZip}\\b`));
      }
      expect(await page.locator("svg g.home:not(.area)").count(), url).toBe(0);
      await shot(page, name);
      expect(await seriousViolations(page)).toEqual([]);
    }
    // Everything the pages loaded is ours: the pages and their one stylesheet.
    expect(loaded.every((u) => new URL(u).pathname.startsWith("/web/"))).toBe(true);
    await page.context().close();
  }, 120_000);

  it("signs in with Slack: the workspace's approval page, then the pages as that person", async () => {
    const page = await (await opened.browser.newContext()).newPage();
    await page.goto(`${opened.sandbox.url.replace("127.0.0.1", "localhost")}/web/vanpools/VP-111`);
    await page.getByRole("link", { name: "Sign in with Slack" }).click();
    await page.getByRole("button", { name: "Continue as Casey Morgan" }).click();
    await page.waitForURL(/\/web\/$/);
    expect(await page.locator("header").textContent()).toMatch(/Signed in as Casey Morgan \(member\)/);
    await shot(page, "12-signed-in-with-slack");
    // The pending sign-in was used up: its callback, opened again, starts nothing.
    await page.goBack();
    expect((await page.context().cookies()).filter((c) => c.name === "pp_slack_sign_in")).toEqual([]);
    await page.context().close();
  }, 60_000);

  it("refuses a reused sign-in link with a page saying so", async () => {
    const link = await signInLink("U0CASEY");
    const page = await (await opened.browser.newContext()).newPage();
    await page.goto(link);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(/\/web\/$/);
    const again = await page.goto(link);
    expect(again?.status()).toBe(410);
    expect(await page.getByRole("alert").textContent()).toMatch(/was used already/);
    expect(await page.locator("main").textContent()).toMatch(/type\s+\/poolpatrol web\s+in Slack/);
    await shot(page, "10-reused-link");
    await page.context().close();
  }, 60_000);

  it("refuses a link older than 10 minutes in the browser, whether opened late or clicked late", async () => {
    const link = await signInLink("U0CASEY");
    const page = await (await opened.browser.newContext()).newPage();
    await page.goto(link);
    // Opened in time, clicked after the link's 10 minutes.
    await opened.db.prisma.webSignIn.updateMany({
      where: { userId: "U0CASEY", usedAt: null },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    await page.getByRole("button", { name: "Sign in" }).click();
    expect(await page.getByRole("alert").textContent()).toMatch(/has expired: a link works for 10 minutes/);
    expect(await page.locator("main").textContent()).toMatch(/type\s+\/poolpatrol web\s+in Slack/);
    expect((await page.context().cookies()).filter((c) => c.name === "pp_session")).toEqual([]);
    await shot(page, "11-expired-link");
    // Opened late: refused at once.
    const late = await page.goto(link);
    expect(late?.status()).toBe(410);
    expect(await page.getByRole("alert").textContent()).toMatch(/has expired/);
    await page.context().close();
  }, 60_000);
});
