// The sandbox on a scratch database with the mock data, opened in Debian's Chromium through
// playwright-core: what every browser test starts from. Screenshots go to test-output/<name>/.
// A file can launch the browser once and open a fresh sandbox (database, app, page) for each test.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { type CliContext, openContext } from "../../src/app/context.js";
import { type RunningSandbox, startSandbox } from "../../src/app/sandbox.js";
import { PROJECT_ROOT, parseSettings } from "../../src/config/settings.js";
import { createTestDatabase, type TestDatabase } from "./database.js";

export const CHROMIUM = "/usr/bin/chromium";
export const hasChromium = fs.existsSync(CHROMIUM);

export interface SandboxInBrowser {
  db: TestDatabase;
  ctx: CliContext;
  sandbox: RunningSandbox;
  browser: Browser;
  page: Page;
  shots: string;
  dataDir: string;
}

/** Debian's Chromium, headless, with nothing reaching out to the network by itself. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

export async function openSandboxInBrowser(
  name: string,
  viewport = { width: 1440, height: 900 },
): Promise<SandboxInBrowser> {
  return openSandbox(await launchChromium(), name, viewport);
}

/** A fresh sandbox on a scratch database with the mock data, in a new page of `browser`. */
export async function openSandbox(
  browser: Browser,
  name: string,
  viewport = { width: 1440, height: 900 },
): Promise<SandboxInBrowser> {
  const shots = path.join(PROJECT_ROOT, "test-output", name);
  fs.mkdirSync(shots, { recursive: true });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `poolpatrol-${name}-`));
  const db = await createTestDatabase({ mockData: true });
  const ctx = await openContext(parseSettings({ DATABASE_URL: db.url, POOLPATROL_DATA_DIR: dataDir }), () => {}, {
    jobs: "bot",
  });
  const sandbox = await startSandbox(ctx, { port: 0 });
  const page = await browser.newPage({ viewport });
  page.on("dialog", (dialog) => void dialog.accept());
  await page.goto(sandbox.url);
  return { db, ctx, sandbox, browser, page, shots, dataDir };
}

/** Closes what `openSandboxInBrowser` opened; `sandbox` is the one running now (a test may restart it). */
export async function closeSandboxInBrowser(
  opened: Partial<Omit<SandboxInBrowser, "page" | "shots">> & { dataDir?: string },
): Promise<void> {
  await opened.browser?.close();
  await closeSandbox(opened);
}

/** Closes what `openSandbox` opened, but not the browser; `sandbox` is the one running now. */
export async function closeSandbox(
  opened: Partial<Omit<SandboxInBrowser, "browser" | "shots">> & { dataDir?: string },
): Promise<void> {
  await opened.page?.close();
  await opened.sandbox?.close();
  await opened.ctx?.close();
  await opened.db?.drop();
  if (opened.dataDir) fs.rmSync(opened.dataDir, { recursive: true, force: true });
}

/**
 * For a test file (or a describe block): one browser and one sandbox on the mock data for all its tests, read through `current`, with the
 * page's script errors collected and, given `user`, the sandbox's acting user chosen (nothing runs without Chromium).
 */
export function sandboxPerFile(
  name: string,
  options: { user?: string; viewport?: { width: number; height: number } } = {},
): {
  current: SandboxInBrowser;
  pageErrors: string[];
} {
  const opened = { pageErrors: [] as string[] } as { current: SandboxInBrowser; pageErrors: string[] };
  beforeAll(async () => {
    if (!hasChromium) return;
    opened.current = await openSandboxInBrowser(name, options.viewport);
    opened.current.page.on("pageerror", (error) => opened.pageErrors.push(error.message));
    if (options.user) await opened.current.page.selectOption("#user", options.user);
  }, 60_000);
  afterAll(async () => {
    if (opened.current) await closeSandboxInBrowser(opened.current);
  });
  return opened;
}

/**
 * For a test file: one browser for the file, and a fresh sandbox on the mock data with a page of its own
 * for each test, read through `current` (nothing runs without Chromium).
 */
export function sandboxPerTest(
  name: string,
  viewport?: { width: number; height: number },
): { current: SandboxInBrowser } {
  let browser: Browser | undefined;
  const opened = {} as { current: SandboxInBrowser };
  beforeAll(async () => {
    if (hasChromium) browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });
  beforeEach(async () => {
    if (browser) opened.current = await openSandbox(browser, name, viewport);
  }, 60_000);
  afterEach(async () => {
    if (browser) await closeSandbox(opened.current);
  });
  return opened;
}
