// A cancellation card with two riders, walked in a real browser (Debian's Chromium
// through playwright-core): one rider replied with her new street address and phone,
// the card shows the reply redacted; the sandbox restarts in the middle and the channel
// is still there; an approver opens "Show full reply", a non-approver is refused in the
// thread; the approver keeps one rider, the sandbox restarts again, removes the other,
// and undoes the cancellation. Screenshots go to test-output/cancellation-card/ (git-ignored).
// The card is shown once for the tests that only read it (a restart among them); the walk that decides
// and undoes gets a sandbox of its own.
import path from "node:path";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { startSandbox } from "../../src/app/sandbox.js";
import { hasChromium, type SandboxInBrowser, sandboxPerFile } from "../support/sandbox-in-browser.js";

const REPLY =
  "Hi, I moved back to 1450 N. Maple Street, Apt 4B in Hayward last month and I'm on Day Shift again. My number is (916) 555-0142.";

const VIEWPORT = { width: 1440, height: 1000 };
let opened: SandboxInBrowser;
let page: Page;
/** A sandbox for the describe block it is called in, with the card shown in it. */
function sandboxWithCard() {
  const sandbox = sandboxPerFile("cancellation-card", { viewport: VIEWPORT });
  beforeAll(async () => {
    if (!sandbox.current) return;
    opened = sandbox.current;
    page = opened.page;
    await showCancellationCard();
  }, 90_000);
}

const shot = (name: string) => page.screenshot({ path: path.join(opened.shots, `${name}.png`), fullPage: true });
const channel = () => page.locator("#messages");
const cancellationCard = () =>
  channel()
    .locator(".message", { hasText: /(Cancel membership\?|Cancellation \w+:) VP-111/ })
    .last();

/** The sandbox restarted on the same port and database; the page reloaded. */
async function restartSandbox() {
  const port = Number(new URL(opened.sandbox.url).port);
  await opened.sandbox.close();
  opened.sandbox = await startSandbox(opened.ctx, { port });
  expect(opened.sandbox.slack.baseUrl).toContain(`:${port}`);
  await page.reload();
}

/**
 * Alex audits VP-111, Wendell emails his new street address and phone, and nine days pass with no
 * other reply: the case's cancellation card is shown, settled.
 */
async function showCancellationCard() {
  await vi.waitFor(async () => expect(await page.locator("#user").inputValue()).toBe("U0ALEX"), { timeout: 10_000 });
  await page.fill("#composer-text", "/poolpatrol audit VP-111");
  await page.press("#composer-text", "Enter");
  await vi.waitFor(
    async () =>
      expect(await channel().locator(".message", { hasText: "VP-111 Bay Fair Night Run" }).count()).toBeGreaterThan(0),
    { timeout: 20_000 },
  );

  const record = await opened.db.prisma.case.findFirstOrThrow({
    where: { vanpoolId: "VP-111", status: "pending_reply" },
  });
  const thread = await opened.db.prisma.emailThread.findUniqueOrThrow({ where: { caseId: record.id } });
  const emailed = await fetch(`${opened.sandbox.url}/sandbox/email`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      user: "U0ALEX",
      thread_id: thread.id,
      from: "wendell.ashby@northwind.example",
      body: REPLY,
    }),
  });
  expect(emailed.status).toBe(200);
  const { timeouts } = await opened.sandbox.bot.ctx.workflow.tick(new Date(Date.now() + 9 * 86_400_000));
  for (const t of timeouts) if (t.case_id) await opened.sandbox.bot.messages.syncCase(t.case_id);

  // The card may be posted and then updated by a second sync: read it once it has settled.
  await vi.waitFor(async () => expect((await cancellationCard().textContent()) ?? "").toMatch(/Why now:/), {
    timeout: 20_000,
  });
}

describe.skipIf(!hasChromium)("a two-rider cancellation card in the browser", () => {
  sandboxWithCard();

  it("starts as the first approver and shows the reply redacted, with the true reason", async () => {
    const text = (await cancellationCard().textContent()) ?? "";
    expect(text).toContain("EMP-1028 (Wendell)");
    expect(text).toContain("I moved back to [street address] in Hayward");
    expect(text).toContain("My number is [phone number]");
    expect(text).toMatch(/No reply by the deadline/);
    expect(text).toMatch(/Why now: the reply deadline .* passed and a re-audit still fails location/);
    expect(text).not.toMatch(/Maple|555-0142|@northwind|\(timeout\)/);
    await cancellationCard().scrollIntoViewIfNeeded();
    await shot("01-cancellation-card");
  });

  it("keeps the channel across a restart of the sandbox", async () => {
    const before = await channel().locator(".message").count();
    await restartSandbox();
    await expect.poll(() => channel().locator(".message").count(), { timeout: 20_000 }).toBeGreaterThanOrEqual(before);
    await expect.poll(() => cancellationCard().count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await shot("02-after-restart");
  });

  it("opens the full reply for an approver, and refuses it to a non-approver in the modal, showing none of it", async () => {
    await page.selectOption("#user", "U0ALEX");
    await cancellationCard().getByRole("button", { name: "Show full reply" }).click();
    await expect.poll(() => page.locator("#modal .dialog h2").textContent(), { timeout: 10_000 }).toBe("Full reply");
    await expect
      .poll(async () => (await page.locator("#modal").textContent()) ?? "", { timeout: 10_000 })
      .toContain("1450 N. Maple Street, Apt 4B");
    await shot("03-full-reply-modal");
    await page.locator("#modal [data-close]").click();

    await page.selectOption("#user", "U0CASEY");
    await page.waitForTimeout(300);
    await cancellationCard().getByRole("button", { name: "Show full reply" }).click();
    await expect
      .poll(async () => (await page.locator("#modal").textContent()) ?? "", { timeout: 10_000 })
      .toContain("Only approvers can read");
    expect(await page.locator("#modal").textContent()).not.toContain("Maple");
    await shot("04-refused-in-modal");
  });
});

describe.skipIf(!hasChromium)("deciding a two-rider cancellation card in the browser", () => {
  sandboxWithCard();

  it("decides per rider across a restart, then undoes the cancellation", async () => {
    await page.selectOption("#user", "U0ALEX");
    await page.waitForTimeout(300);
    await cancellationCard().getByRole("button", { name: "Keep EMP-1028 (Wendell)" }).click();
    // Keep asks why, in the form every keep path opens.
    const modal = page.locator("#modal");
    await expect.poll(() => modal.locator(".dialog h2").textContent(), { timeout: 15_000 }).toBe("Keep a rider");
    await expect.poll(() => modal.locator("select").count(), { timeout: 15_000 }).toBeGreaterThan(0);
    await modal.locator("textarea").fill("He starts on the day shift next month.");
    await modal.locator("select").selectOption({ label: "Moving soon" });
    await shot("05-keep-a-rider");
    await modal.locator("button[type=submit]").click();
    await expect.poll(() => modal.isHidden(), { timeout: 15_000 }).toBe(true);
    await expect
      .poll(async () => (await cancellationCard().textContent()) ?? "", { timeout: 20_000 })
      .toMatch(/Kept by/);
    expect(await cancellationCard().getByRole("button", { name: "Remove EMP-1028 (Wendell)" }).count()).toBe(0);
    await shot("06-one-rider-kept");

    await restartSandbox();
    await expect.poll(() => cancellationCard().count(), { timeout: 20_000 }).toBeGreaterThan(0);
    await page.selectOption("#user", "U0ALEX");
    await page.waitForTimeout(300);

    await cancellationCard()
      .getByRole("button", { name: /^Remove EMP-1083/ })
      .click();
    const caseId = (
      await opened.db.prisma.case.findFirstOrThrow({ where: { vanpoolId: "VP-111" }, orderBy: { createdAt: "desc" } })
    ).id;
    await expect
      .poll(async () => (await opened.db.prisma.case.findUniqueOrThrow({ where: { id: caseId } })).status, {
        timeout: 30_000,
      })
      .toBe("cancelled");
    await expect
      .poll(async () => (await cancellationCard().textContent()) ?? "", { timeout: 20_000 })
      .toMatch(/Removed: decided by/);
    const decided = (await cancellationCard().textContent()) ?? "";
    expect(decided).toMatch(/Kept by/);
    expect(decided).not.toMatch(/@northwind|Maple|555-0142|kept_passes|pre_cancel/);
    await expect
      .poll(() => cancellationCard().getByRole("button", { name: "Undo cancellation" }).count(), { timeout: 20_000 })
      .toBe(1);
    await shot("06-carried-out-with-undo");

    await cancellationCard().getByRole("button", { name: "Undo cancellation" }).click();
    await expect
      .poll(async () => (await cancellationCard().textContent()) ?? "", { timeout: 20_000 })
      .toMatch(/Reinstated: the removal was undone by/);
    expect(await cancellationCard().textContent()).toMatch(/Cancellation undone by .* EMP-1083 reinstated/);
    expect(await opened.db.prisma.rider.count({ where: { vanpoolId: "VP-111", status: "removed" } })).toBe(0);
    expect(await cancellationCard().getByRole("button", { name: "Undo cancellation" }).count()).toBe(0);
    await shot("07-undone");
  }, 120_000);
});
