// The sandbox in a real browser (Debian's Chromium through playwright-core): what a
// newcomer does on day one, with screenshots of the key screens in test-output/sandbox/.
// One browser for the file; each test gets a fresh sandbox on the mock data and a page of its own.
import path from "node:path";
import type { Page } from "playwright-core";
import { beforeEach, describe, expect, it } from "vitest";
import { CHROMIUM, hasChromium, type SandboxInBrowser, sandboxPerTest } from "../support/sandbox-in-browser.js";

if (!hasChromium)
  console.warn(
    `Skipping the sandbox browser test: ${CHROMIUM} is not installed (apt-get install chromium; .ci/run installs it).`,
  );

const sandbox = sandboxPerTest("sandbox");
let opened: SandboxInBrowser;
let page: Page;
beforeEach(() => {
  opened = sandbox.current;
  page = opened?.page;
});

const shot = (name: string) => page.screenshot({ path: path.join(opened.shots, `${name}.png`) });
const channel = () => page.locator("#messages");
async function asUser(id: string) {
  await page.selectOption("#user", id);
  await page.waitForTimeout(300);
}

/** Alex (an approver) audits VP-111 from the composer; resolves with its case alert once shown. */
async function auditVP111() {
  await asUser("U0ALEX");
  await page.fill("#composer-text", "/poolpatrol audit VP-111");
  await page.press("#composer-text", "Enter");
  const alert = channel().locator(".message", { hasText: "VP-111 Bay Fair Night Run: location check failed" });
  await expect.poll(() => alert.count(), { timeout: 20_000 }).toBeGreaterThan(0);
  return alert;
}

describe.skipIf(!hasChromium)("the sandbox in a browser", () => {
  it("runs an audit from the composer and shows the case alert and its evidence", async () => {
    const alert = await auditVP111();
    await expect
      .poll(() => channel().locator(".ephemeral", { hasText: "See the case alert" }).count(), { timeout: 10_000 })
      .toBe(1);
    await shot("01-case-alert");
    await alert.first().getByRole("button", { name: "View evidence" }).click();
    await expect.poll(() => page.locator("#modal .dialog h2").textContent(), { timeout: 10_000 }).toBe("Case evidence");
    // The modal opens at once and is filled in a moment later.
    await expect
      .poll(() => page.locator("#modal").textContent(), { timeout: 10_000 })
      .toMatch(/EMP-1028: Oakdale \(953xx\)/);
    await shot("02-evidence-modal");
    await page.locator("#modal [data-close]").click();
    await expect.poll(() => page.locator("#modal").isHidden()).toBe(true);
  });

  it("turns a rider's angry email into an approval card; an approver edits and sends it", async () => {
    await auditVP111();
    await page.click("#open-email");
    const option = page.locator("#email-thread option", { hasText: "VP-111" });
    await page.selectOption("#email-thread", (await option.first().getAttribute("value"))!);
    await page.selectOption("#email-from", "wendell.ashby@northwind.example");
    await page.fill(
      "#email-body",
      "This is ridiculous. I've ridden this van for six years and I want to talk to a manager.",
    );
    await page.click("#email-form button[type=submit]");
    const card = channel().locator(".message", { hasText: "Reply to review" });
    await expect.poll(() => card.count(), { timeout: 20_000 }).toBeGreaterThan(0);
    await shot("03-approval-card");

    await card.last().getByRole("button", { name: "Edit" }).click();
    await expect.poll(() => page.locator("#modal .dialog h2").textContent(), { timeout: 10_000 }).toBe("Edit reply");
    await page.fill(
      "#modal textarea",
      "Hi Wendell, thanks for writing. A coordinator will call you this week, and nothing changes for your seat meanwhile.",
    );
    await shot("04-edit-modal");
    await page.click("#modal button[type=submit]");
    await expect.poll(() => card.last().textContent(), { timeout: 20_000 }).toMatch(/Edited by @Alex Rivera/);
    // Decided: no decision buttons left (an approver can still read the rider's full reply).
    expect(
      await card
        .last()
        .getByRole("button", { name: /Approve|Edit|Reject/ })
        .count(),
    ).toBe(0);
    const sent = await opened.db.prisma.message.findFirst({
      where: { body: { startsWith: "Hi Wendell, thanks for writing." }, status: "sent" },
    });
    expect(sent?.toAddresses).toEqual(["wendell.ashby@northwind.example"]);
    await shot("05-card-decided");
  });

  it("refuses a cancellation clicked by a non-approver", async () => {
    await auditVP111();
    // A week with no replies: the scheduler's work, run now, asks to cancel the overdue cases.
    const { timeouts } = await opened.sandbox.bot.ctx.workflow.tick(new Date(Date.now() + 8 * 86_400_000));
    for (const t of timeouts) if (t.case_id) await opened.sandbox.bot.messages.syncCase(t.case_id);
    await asUser("U0CASEY");
    const card = channel().locator(".message", { hasText: "Cancel membership?" }).first();
    await expect.poll(() => card.count(), { timeout: 20_000 }).toBe(1);
    await card
      .getByRole("button", { name: /^Remove EMP-/ })
      .first()
      .click();
    // The refusal is in the card's thread, next to the card.
    const vanpool = /Cancel membership\? (VP-\d+)/.exec((await card.textContent()) ?? "")![1]!;
    await channel()
      .locator(".message", { hasText: `${vanpool} ` })
      .filter({ hasText: "check failed" })
      .first()
      .locator(".thread-link")
      .click();
    await expect
      .poll(() => page.locator("#thread-messages .ephemeral", { hasText: "Only approvers can decide this" }).count(), {
        timeout: 10_000,
      })
      .toBeGreaterThan(0);
    expect(await opened.db.prisma.case.count({ where: { status: "cancelled" } })).toBe(0);
    await shot("06-refused-cancellation");
    await page.click("#close-thread");
  });

  it("answers a question in the case thread, and shows App Home", async () => {
    await auditVP111();
    await channel()
      .locator(".message", { hasText: "VP-111 Bay Fair Night Run" })
      .first()
      .locator(".thread-link")
      .click();
    await page.fill("#thread-text", "why did this case fail?");
    await page.press("#thread-text", "Enter");
    await expect
      .poll(() => page.locator("#thread-messages").textContent(), { timeout: 20_000 })
      .toMatch(/Sources: .*location check/);
    await shot("07-thread-answer");
    await page.click("#nav-home");
    await expect.poll(() => page.locator("#home").textContent(), { timeout: 10_000 }).toMatch(/Open cases/);
    await shot("08-app-home");
  });
});
