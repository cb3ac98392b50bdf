// Asking the Case Manager in the sandbox, in a real browser: a question in a case
// thread and its follow-up, an @mention in the channel, a thread started on any
// message, and a direct message. Screenshots in test-output/conversation/.
import path from "node:path";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { hasChromium, sandboxPerFile } from "../support/sandbox-in-browser.js";

const opened = sandboxPerFile("conversation", { user: "U0CASEY" });
const pageErrors = opened.pageErrors;
let page: Page;
let SHOTS: string;
beforeAll(() => {
  if (hasChromium) ({ page, shots: SHOTS } = opened.current);
});

const shot = (name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
const channel = () => page.locator("#messages");
const thread = () => page.locator("#thread-messages");
const lastBotAnswer = (list: ReturnType<Page["locator"]>) =>
  list.locator(".message", { has: page.locator(".app-badge") }).last();

/** Scrolls to an element; the sandbox redraws a thread as its events arrive, so the element found may be replaced meanwhile. */
const scrollTo = (element: ReturnType<Page["locator"]>) =>
  expect
    .poll(
      () =>
        element.scrollIntoViewIfNeeded({ timeout: 2_000 }).then(
          () => true,
          () => false,
        ),
      { timeout: 10_000 },
    )
    .toBe(true);

/** The last answer's whole text, once it has finished streaming (a partial answer would pass a "does not say" check). */
const finishedAnswer = async (list: ReturnType<Page["locator"]>) => {
  await expect.poll(() => lastBotAnswer(list).locator(".streaming-cursor").count(), { timeout: 20_000 }).toBe(0);
  return (await lastBotAnswer(list).textContent()) ?? "";
};

describe.skipIf(!hasChromium)("asking the Case Manager in the sandbox", () => {
  it("answers in a case thread, then 'and the other rider?' about the other one", async () => {
    await shot("00-start");
    expect(pageErrors).toEqual([]);
    const alert = channel().locator(".message", { hasText: "VP-115" }).first();
    await expect.poll(() => alert.count(), { timeout: 20_000 }).toBe(1);
    await alert.locator(".thread-link").click();
    await page.fill("#thread-text", "what did tamika say?");
    await page.press("#thread-text", "Enter");
    await expect
      .poll(() => lastBotAnswer(thread()).textContent(), { timeout: 20_000 })
      .toMatch(/Tamika Howard \(EMP-1024\) replied.*Day Shift starting Monday 11\/16.*Sources: Tamika's reply of/s);
    await shot("01-thread-question");

    await page.fill("#thread-text", "and the other rider?");
    await page.press("#thread-text", "Enter");
    await expect
      .poll(() => lastBotAnswer(thread()).textContent(), { timeout: 20_000 })
      .toMatch(/Cody Rasmussen \(EMP-1088\) has not replied/);
    expect(await finishedAnswer(thread())).not.toMatch(/Tamika/);
    await shot("02-follow-up-other-rider");
    await page.click("#close-thread");
  });

  it("checks a claim against the record, answers two parts, and says when a rider is on another case", async () => {
    const alert = channel().locator(".message", { hasText: "VP-115" }).first();
    await alert.locator(".thread-link").click();
    const ask = async (question: string, expected: RegExp) => {
      const before = await thread().locator(".message").count();
      await page.fill("#thread-text", question);
      await page.press("#thread-text", "Enter");
      await expect.poll(() => thread().locator(".message").count(), { timeout: 20_000 }).toBeGreaterThan(before + 1);
      await expect.poll(() => lastBotAnswer(thread()).textContent(), { timeout: 20_000 }).toMatch(expected);
      return finishedAnswer(thread());
    };
    await ask(
      "tamika says she's back on days - why is she still flagged?",
      /22:00-06:30.*Tamika's shift on record is still Night Shift.*passes once the new shift is recorded/s,
    );
    await shot("06-claim-checked");
    const twoParts = await ask(
      "why did Cody fail, and when does Tamika have to answer by?",
      /Cody Rasmussen.*50-75 mi/s,
    );
    expect(twoParts).toMatch(/Tamika Howard \(EMP-1024\): reply deadline \*?\w{3} \d{1,2}, \d{4}/);
    const exact = await ask("exact miles for cody?", /50-75 mi/);
    expect(exact).toMatch(/View evidence/);
    expect(exact).not.toMatch(/\b7\d\.\d mi|about 72/);
    const other = await ask("cancel Diego now", /Diego Fuentes \(EMP-1083\) is not on CASE-A35B2625 \(VP-115\)/);
    expect(other).toMatch(/rides VP-111/);
    expect(other).toMatch(/Nothing was done/);
    await shot("07-rider-on-another-case");
    await page.click("#close-thread");
  });

  it("answers an @mention in the channel that names a case, in a thread under the question", async () => {
    await page.fill("#composer-text", "@Pool Patrol why did CASE-48F81374 fail?");
    await page.press("#composer-text", "Enter");
    const asked = channel().locator(".message", { hasText: "why did CASE-48F81374 fail?" }).last();
    await expect.poll(() => asked.locator(".thread-link").textContent(), { timeout: 20_000 }).toMatch(/1 reply/);
    expect(await asked.textContent()).toMatch(/@Pool Patrol why did/);
    await asked.locator(".thread-link").click();
    await expect
      .poll(() => lastBotAnswer(thread()).textContent(), { timeout: 20_000 })
      .toMatch(/Maribel Quintero \(EMP-1065\).*Los Banos/s);
    expect(await finishedAnswer(thread())).not.toMatch(/93635|@northwind|64 miles/);
    await shot("03-mention-answer");
    await page.click("#close-thread");
  });

  it("shows an answer that reads best as a table as Slack does: its words, then the table, then the buttons", async () => {
    await page.fill("#composer-text", "@Pool Patrol who is flagged across the open cases?");
    await page.press("#composer-text", "Enter");
    const asked = channel().locator(".message", { hasText: "who is flagged across the open cases?" }).last();
    await expect.poll(() => asked.locator(".thread-link").textContent(), { timeout: 20_000 }).toMatch(/1 reply/);
    await asked.locator(".thread-link").click();
    await expect
      .poll(() => lastBotAnswer(thread()).textContent(), { timeout: 20_000 })
      .toMatch(/\d+ riders are flagged on \d+ open cases: /);
    await finishedAnswer(thread());
    const table = lastBotAnswer(thread()).locator("table.block-table");
    await expect.poll(() => table.count(), { timeout: 10_000 }).toBe(1);
    expect(await table.locator("th").allTextContents()).toEqual([
      "Rider",
      "Vanpool",
      "Check",
      "Distance or shift",
      "Flagged since",
      "Case",
    ]);
    const cody = table.locator("tr", { hasText: "Cody Rasmussen" });
    expect(await cody.locator("td").allTextContents()).toEqual([
      "Cody Rasmussen",
      "VP-115",
      "location",
      "50-75 mi",
      "Nov 12, 2026",
      "CASE-A35B2625",
    ]);
    expect(await table.textContent()).not.toMatch(/@|EMP-|\d+\.\d+ mi|\b\d{5}\b/);
    await scrollTo(lastBotAnswer(thread()));
    await shot("08-table-answer");
    await page.click("#close-thread");
  });

  it("starts a thread on any message and asks there with a mention", async () => {
    await page.fill("#composer-text", "Anyone looking at the Folsom van this week?");
    await page.press("#composer-text", "Enter");
    const plain = channel().locator(".message", { hasText: "Anyone looking at the Folsom van" }).last();
    await expect.poll(() => plain.count(), { timeout: 10_000 }).toBe(1);
    await plain.getByRole("button", { name: "Reply in thread" }).click();
    await page.fill("#thread-text", "@Pool Patrol what did the riders on VP-114 say?");
    await page.press("#thread-text", "Enter");
    await expect
      .poll(() => lastBotAnswer(thread()).textContent(), { timeout: 20_000 })
      .toMatch(/Lucia Bianchi \(EMP-1102\) replied.*reduced share/s);
    await shot("04-thread-on-any-message");
    await page.click("#close-thread");
  });

  it("answers a direct message", async () => {
    await page.click("#nav-dm");
    await page.fill("#dm-text", "how many cases wait for a person?");
    await page.press("#dm-text", "Enter");
    await expect
      .poll(() => lastBotAnswer(page.locator("#dm-messages")).textContent(), { timeout: 20_000 })
      .toMatch(/wait(s)? for a person/);
    await shot("05-direct-message");
  });
});
