// The sandbox behaves like Slack: its workspace survives a restart, the page starts as
// the first approver, clicks on stale cards reach the bot, and other sites cannot drive it.
// It starts on an empty database, seeded with the mock data the way `poolpatrol sandbox` does.
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliContext, openContext, seedIfEmpty } from "../../src/app/context.js";
import { type RunningSandbox, SANDBOX_PEOPLE, startSandbox } from "../../src/app/sandbox.js";
import { parseSettings } from "../../src/config/settings.js";
import { webhookSecret } from "../../src/integrations/email/inbound/webhook-secret.js";
import { signResendWebhook } from "../../src/integrations/email/inbound/webhook-signature.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";

let db: TestDatabase;
let ctx: CliContext;
let sandbox: RunningSandbox;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "poolpatrol-sandbox-api-"));

beforeAll(async () => {
  db = await createTestDatabase();
  ctx = await openContext(parseSettings({ DATABASE_URL: db.url, POOLPATROL_DATA_DIR: dataDir }), () => {}, {
    jobs: "bot",
  });
  await seedIfEmpty(ctx);
  sandbox = await startSandbox(ctx, { port: 0 });
}, 60_000);

afterAll(async () => {
  await sandbox?.close();
  await ctx?.close();
  await db?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

type Message = { ts: string; text: string; blocks?: unknown[]; thread_ts?: string; bot_id?: string };
type State = { user: string; messages: Message[]; ephemerals: Message[]; thread: Message[] | null };
const api = (route: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${sandbox.url}${route}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
const state = async (query = "user=U0ALEX") =>
  (await (await fetch(`${sandbox.url}/sandbox/state?${query}`)).json()) as State;

/** Audits a vanpool from the page unless its alert is already in the channel. */
async function audited(vanpoolId: string) {
  const alert = (messages: Message[]) => messages.find((m) => m.text.startsWith(`${vanpoolId} `));
  if (!alert((await state()).messages)) {
    expect((await api("/sandbox/command", { user: "U0ALEX", text: `/poolpatrol audit ${vanpoolId}` })).status).toBe(
      200,
    );
    await sandbox.bot.idle();
  }
  return alert((await state()).messages)!;
}

describe("the sandbox API", () => {
  it("shows a seeded case like an audited one: VP-103's alert and its thread answer stand on the stored checks", async () => {
    // The seeded cases' alerts are posted by jobs once the sandbox starts.
    const alertOf103 = async () => (await state()).messages.find((m) => m.text.startsWith("VP-103 "));
    await expect.poll(alertOf103, { timeout: 20_000 }).toBeDefined();
    const alert = (await alertOf103())!;
    const shown = JSON.stringify(alert.blocks);
    expect(shown).not.toMatch(/not recorded/);
    expect(shown).toMatch(/Confidence of the failed check\*\\n[1-5]\/5/);
    expect(shown).toMatch(/Derek Sandoval|EMP-1062/);
    expect(shown).toMatch(/Night Shift Mon-Fri 22:00-06:30 vs the van's Mon-Fri 07:00-15:30 · matches 0 of 5 days/);

    expect(
      (await api("/sandbox/message", { user: "U0CASEY", text: "why did this case fail?", thread_ts: alert.ts })).status,
    ).toBe(200);
    const answer = (await state(`user=U0CASEY&thread=${alert.ts}`)).thread!.filter((m) => m.bot_id).at(-1)!.text;
    expect(answer).not.toMatch(/no stored|is on record/);
    expect(answer).toMatch(/^\*\*🕒 Shift check: fail\*\* \(confidence [1-5]\/5\), checked [A-Z][a-z]{2} \d+, \d{4}\./);
    expect(answer).toMatch(/Derek Sandoval \(EMP-1062\): fails\. On Night Shift \(Mon-Fri 22:00-06:30\)\./);
    expect(answer).toMatch(/Compatible on 0 of 5 operating days/);
    expect(answer).not.toMatch(/@northwind|Meadowlark|\b[a-z]+_[a-z]+\b/);
  });

  it("opens the DM as an assistant thread: suggested prompts from what is open, one click answered in the thread, streamed", async () => {
    type Assistant = { thread_ts: string; messages: Message[]; prompts: { prompts: { message: string }[] } | null };
    const assistant = async () => (await state("user=U0CASEY")) as State & { assistant: Assistant | null };
    expect((await assistant()).assistant).toBeNull();
    expect((await api("/sandbox/assistant", { user: "U0CASEY" })).status).toBe(200);
    await sandbox.bot.idle();
    const opened = (await assistant()).assistant!;
    const prompts = opened.prompts!.prompts.map((p) => p.message);
    expect(prompts.length).toBeGreaterThanOrEqual(3);
    expect(prompts.length).toBeLessThanOrEqual(4);
    expect(prompts).toContain("Which cases need me?");
    const why = prompts.find((p) => /^Why did VP-\d{3} fail\?$/.test(p))!;
    // Opening it again starts no second thread.
    await api("/sandbox/assistant", { user: "U0CASEY" });
    expect((await assistant()).assistant!.thread_ts).toBe(opened.thread_ts);

    await api("/sandbox/message", { user: "U0CASEY", text: why, dm: true, thread_ts: opened.thread_ts });
    await sandbox.bot.idle();
    await expect.poll(async () => (await assistant()).assistant!.messages.filter((m) => m.bot_id).length).toBe(1);
    const answer = (await assistant()).assistant!.messages.find((m) => m.bot_id)!;
    expect(answer.thread_ts).toBe(opened.thread_ts);
    expect(answer.text).toMatch(/check: fail/);
    expect(answer.text.trimEnd()).toMatch(/_Sources: [^\n]+_$/);
  });

  it("starts a fresh page as the first approver and refuses actions from no one", async () => {
    expect((await state("")).user).toBe("U0ALEX");
    const response = await api("/sandbox/command", { text: "/poolpatrol help" });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toMatch(/Choose who you are/);
  });

  it("refuses cross-site requests and changes nothing, while same-machine JSON works", async () => {
    const runs = await db.prisma.verificationRun.count();
    const form = await fetch(`${sandbox.url}/sandbox/command`, {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: JSON.stringify({ user: "U0ALEX", text: "/poolpatrol audit VP-111" }),
    });
    expect(form.status).toBe(403);
    const other = await api(
      "/sandbox/command",
      { user: "U0ALEX", text: "/poolpatrol audit VP-111" },
      { origin: "http://evil.example" },
    );
    expect(other.status).toBe(403);
    await sandbox.bot.idle();
    expect(await db.prisma.verificationRun.count()).toBe(runs);

    expect((await api("/sandbox/command", { user: "U0ALEX", text: "/poolpatrol audit VP-111" })).status).toBe(200);
    await sandbox.bot.idle();
    expect((await state()).messages.some((m) => /^VP-111 .*location check failed/.test(m.text))).toBe(true);
  });

  it("refuses a cross-site form post to its Slack API and a DNS-rebinding page, on every route", async () => {
    const port = new URL(sandbox.url).port;
    const send = (route: string, headers: Record<string, string>, body: string) =>
      new Promise<number>((resolve, reject) => {
        const req = http.request(
          {
            host: "127.0.0.1",
            port,
            path: route,
            method: "POST",
            headers: { ...headers, "content-length": Buffer.byteLength(body) },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on("error", reject);
        req.end(body);
      });
    const channel = SANDBOX_PEOPLE.channel.id;
    const posted = () => sandbox.slack.messages(channel).length;
    const runs = await db.prisma.verificationRun.count();
    const before = posted();
    // A page on another site posting as the bot with the token from the source.
    const form = new URLSearchParams({ token: sandbox.slack.botToken, channel, text: "<!channel> hello" }).toString();
    const crossSite = await send(
      "/api/chat.postMessage",
      { "content-type": "application/x-www-form-urlencoded", origin: "http://evil.example", host: `localhost:${port}` },
      form,
    );
    // A DNS-rebinding page: Host and Origin both name the attacker's site at this port.
    const rebound = await send(
      "/sandbox/command",
      { "content-type": "application/json", host: `evil.example:${port}`, origin: `http://evil.example:${port}` },
      JSON.stringify({ user: "U0ALEX", text: "/poolpatrol audit VP-112" }),
    );
    const reboundApi = await send(
      "/api/chat.postMessage",
      { "content-type": "application/x-www-form-urlencoded", host: `evil.example:${port}` },
      form,
    );
    expect([crossSite, rebound, reboundApi]).toEqual([403, 403, 403]);
    await sandbox.bot.idle();
    expect(posted()).toBe(before);
    expect(await db.prisma.verificationRun.count()).toBe(runs);
    // The bot's own calls (no Origin, to 127.0.0.1) still go through.
    expect((await api("/sandbox/command", { user: "U0ALEX", text: "/poolpatrol help" })).status).toBe(200);
  });

  it("serves its web pages to this machine only: a DNS-rebinding page or another site is refused", async () => {
    const port = new URL(sandbox.url).port;
    const get = (headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => {
        http
          .get({ host: "127.0.0.1", port, path: "/web/sign-in", headers }, (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          })
          .on("error", reject);
      });
    expect(await get({ host: `localhost:${port}` })).toBe(200);
    expect(await get({ host: `evil.example:${port}` })).toBe(403);
    expect(await get({ host: `localhost:${port}`, "sec-fetch-site": "cross-site" })).toBe(403);
  });

  it("keeps the channel across a restart, and status answers properly", async () => {
    // VP-109's own case: the stale-click test's tick moves the cases open before it to cancellation.
    await audited("VP-109");
    const before = (await state()).messages.map((m) => m.ts);
    await sandbox.close();
    sandbox = await startSandbox(ctx, { port: 0 });
    const after = await state();
    expect(after.messages.map((m) => m.ts)).toEqual(expect.arrayContaining(before));
    await api("/sandbox/command", { user: "U0CASEY", text: "/poolpatrol status VP-109" });
    const answer = (await state("user=U0CASEY")).ephemerals.at(-1)!;
    expect(answer.text).toMatch(/\(VP-109\) is \*Waiting for riders\*.*\|case alert>/);
  });

  it("sends a click on a stale card to the bot, which says who decided first", async () => {
    await audited("VP-111");
    const { timeouts } = await sandbox.bot.ctx.workflow.tick(new Date(Date.now() + 9 * 86_400_000));
    for (const t of timeouts) if (t.case_id) await sandbox.bot.messages.syncCase(t.case_id);
    const card = (await state()).messages.find((m) => /^Cancellation of .* VP-111/.test(m.text))!;
    const remove = (card.blocks as { elements?: { action_id: string; value: string }[] }[])
      .flatMap((b) => b.elements ?? [])
      .find((e) => e.action_id === "remove_rider:EMP-1028")!;
    const approve = { action_id: remove.action_id, ts: card.ts, value: remove.value };
    expect((await api("/sandbox/action", { user: "U0ALEX", ...approve })).status).toBe(200);
    await sandbox.bot.idle();
    // Blair's screen still shows the buttons.
    expect((await api("/sandbox/action", { user: "U0BLAIR", ...approve })).status).toBe(200);
    await sandbox.bot.idle();
    const told = (await state("user=U0BLAIR")).ephemerals.at(-1)!;
    expect(told.text).toMatch(/^EMP-1028 was already decided \(to be removed by <@U0ALEX>\)/);
    expect(told.thread_ts).toBeDefined();
  });

  it("serves the REST API on the page's port, while the local Slack's Web API still answers the bot", async () => {
    expect(await (await fetch(`${sandbox.url}/healthz`)).json()).toEqual({ status: "ok" });
    expect(((await (await fetch(`${sandbox.url}/openapi.json`)).json()) as { openapi: string }).openapi).toBe("3.1.0");
    const unauthenticated = await fetch(`${sandbox.url}/api/vanpools`);
    expect(unauthenticated.headers.get("content-type")).toBe("application/problem+json");
    expect(
      ((await (await fetch(`${sandbox.url}/api/auth.test`, { method: "POST" })).json()) as { ok: boolean }).ok,
    ).toBe(false);
  });

  it("takes the Resend webhook on the page's port, as in HTTP and Socket Mode, and the bot listens on loopback only", async () => {
    const rawBody = "null";
    const unsigned = await fetch(`${sandbox.url}/webhooks/resend`, { method: "POST", body: rawBody });
    expect(unsigned.status).toBe(401);
    const signed = await fetch(`${sandbox.url}/webhooks/resend`, {
      method: "POST",
      body: rawBody,
      headers: signResendWebhook(rawBody, webhookSecret(ctx.settings)),
    });
    // Signed but not an event: refused for good (400), not lost as 404 nor retried as 500.
    expect(signed.status).toBe(400);
    // The kernel's table of listening sockets: the bot's port is bound to 127.0.0.1, not to every interface.
    const botPort = Number(new URL(sandbox.appUrl).port).toString(16).toUpperCase().padStart(4, "0");
    const listening = fs
      .readFileSync("/proc/net/tcp", "utf8")
      .split("\n")
      .map((line) => line.trim().split(/\s+/))
      .filter((fields) => fields[1]?.endsWith(`:${botPort}`) && fields[3] === "0A")
      .map((fields) => fields[1]);
    expect(listening).toEqual([`0100007F:${botPort}`]);
  });
});
