// Two vanpools compared in the sandbox, in a real browser, as an auditor asks it: the gist in words, then the
// table Slack shows (a column per vanpool), then the sources. Screenshot in test-output/vanpool-comparison/.
import path from "node:path";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { hasChromium, sandboxPerFile } from "../support/sandbox-in-browser.js";

const opened = sandboxPerFile("vanpool-comparison", { user: "U0CASEY" });
const pageErrors = opened.pageErrors;
let page: Page;
let SHOTS: string;
beforeAll(() => {
  if (hasChromium) ({ page, shots: SHOTS } = opened.current);
});

const thread = () => page.locator("#thread-messages");
const lastBotAnswer = () =>
  thread()
    .locator(".message", { has: page.locator(".app-badge") })
    .last();

describe.skipIf(!hasChromium)("comparing vanpools in the sandbox", () => {
  it("answers 'VP-102 vs VP-115?' with its gist, then a table with a column per vanpool, then its sources", async () => {
    await page.fill("#composer-text", "@Pool Patrol VP-102 vs VP-115?");
    await page.press("#composer-text", "Enter");
    const asked = page.locator("#messages .message", { hasText: "VP-102 vs VP-115?" }).last();
    await expect.poll(() => asked.locator(".thread-link").textContent(), { timeout: 20_000 }).toMatch(/1 reply/);
    await asked.locator(".thread-link").click();
    await expect.poll(() => lastBotAnswer().locator(".streaming-cursor").count(), { timeout: 20_000 }).toBe(0);
    const words = (await lastBotAnswer().textContent()) ?? "";
    expect(words).toMatch(/Evergreen Commuter \(VP-102\) has CASE-48F81374 open since/);
    expect(words).toMatch(/Roseville-Rocklin Riders \(VP-115\) has CASE-A35B2625 open since/);
    expect(words).toMatch(/Sources: vanpool record VP-102; vanpool record VP-115; case records/);

    const table = lastBotAnswer().locator("table.block-table");
    await expect.poll(() => table.count(), { timeout: 10_000 }).toBe(1);
    expect((await table.locator("th").allTextContents()).map((t) => t.trim())).toEqual([
      "",
      "Evergreen Commuter (VP-102)",
      "Roseville-Rocklin Riders (VP-115)",
    ]);
    const rows = await table
      .locator("tr")
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent ?? "")));
    const cells = (fact: string) => rows.find((row) => row[0] === fact)!.slice(1);
    expect(cells("Work site")).toEqual(["San Jose HQ", "Rancho Cordova Distribution Center"]);
    expect(cells("Riders flagged")[0]).toMatch(/^Maribel Quintero \(location: (50-75|75-100) mi\)$/);
    expect(cells("Open case")).toEqual(["CASE-48F81374: Waiting for riders", "CASE-A35B2625: Waiting for riders"]);
    expect(await table.textContent()).not.toMatch(/@|EMP-|\d+\.\d+ mi|\b\d{5}\b|Orchard Pkwy|Gold Center/);
    await lastBotAnswer().scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SHOTS, "01-vanpools-compared.png") });
    expect(pageErrors).toEqual([]);
  });
});
