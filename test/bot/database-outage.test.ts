// A database that is killed or frozen while people use Slack: every request is answered in time,
// in words ("can't reach its database; nothing was changed"), and what the answer says did not
// happen does not happen later when the database is back. The bot reaches its database through a
// proxy the test freezes (nothing answers) or kills (connections dropped, new ones refused).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATABASE_DOWN } from "../../src/bot/listeners/before-ack.js";
import { QUEUES } from "../../src/queue/queues.js";
import { postSigned } from "../../src/sandbox/slack/payloads.js";
import { ALICE, AUDIT_CHANNEL, type Harness, SIGNING_SECRET, startHarness } from "../support/bot-harness.js";
import { type DatabaseProxy, startDatabaseProxy } from "../support/db-proxy.js";
import { buttonOf } from "../support/slack/messages.js";
import { waitFor } from "../support/wait.js";

let h: Harness;
let proxy: DatabaseProxy;

beforeAll(async () => {
  h = await startHarness({
    botDatabase: async (url) => {
      proxy = await startDatabaseProxy(url);
      return proxy.url;
    },
  });
  await h.audit("VP-111");
}, 120_000);

afterAll(async () => {
  proxy.thaw();
  await proxy.revive().catch(() => {});
  await h.close();
  await proxy.close();
});

/** Audit jobs queued for VP-111 and audits stored for it, counted in the database directly (not through the proxy). */
async function effects() {
  const [jobs] = await h.db.prisma.$queryRawUnsafe<{ n: bigint }[]>(
    `SELECT count(*) AS n FROM pgboss.job WHERE name = $1 AND data->>'vanpoolId' = 'VP-111'`,
    QUEUES.auditVanpool,
  );
  const audits = await h.db.prisma.verificationRun.count({ where: { vanpoolId: "VP-111" } });
  return { jobs: Number(jobs!.n), audits };
}

/** ALICE clicks Re-audit on VP-111's alert; resolves with the ack's status and how long it took. */
async function clickReaudit() {
  const alert = h.alertOf("VP-111");
  const body = h.fake.blockActionPayload({
    user: { id: ALICE },
    channel: AUDIT_CHANNEL,
    message: alert,
    action: { ...buttonOf(alert, "reaudit") },
  });
  const started = Date.now();
  const response = await postSigned(h.url, SIGNING_SECRET, body);
  return { status: response.status, ms: Date.now() - started };
}

const lastEphemeral = () => h.fake.ephemerals(ALICE).at(-1)?.message.text;

/** `/poolpatrol <text>` as ALICE: the ack's status, its text and how long it took. */
async function command(text: string) {
  const body = h.fake.slashCommandBody({ command: "/poolpatrol", text, user_id: ALICE, channel_id: AUDIT_CHANNEL });
  const started = Date.now();
  const response = await postSigned(h.url, SIGNING_SECRET, body);
  const answer = await response.text();
  return { status: response.status, ms: Date.now() - started, text: answer ? JSON.parse(answer).text : "" };
}

/** GET /readyz on the bot's port: its status, its checks and how long it took. */
async function readiness() {
  const started = Date.now();
  const response = await fetch(`${h.slack.webUrl}/readyz`);
  const body = (await response.json()) as { status: string; checks: Record<string, { ok: boolean; error?: string }> };
  return { status: response.status, ms: Date.now() - started, body };
}

describe("the database frozen", { shuffle: false }, () => {
  it("/readyz answers 503 within seconds naming the database, and 200 once it is back", async () => {
    proxy.freeze();
    let frozen: Awaited<ReturnType<typeof readiness>>;
    try {
      frozen = await readiness();
    } finally {
      proxy.thaw();
    }
    expect(frozen.status).toBe(503);
    expect(frozen.ms).toBeLessThan(5000);
    expect(frozen.body).toMatchObject({ status: "not_ready", checks: { database: { ok: false } } });
    await waitFor("/readyz ready again", async () => (await readiness()).status === 200, { timeoutMs: 10_000 });
  }, 60_000);

  it("a Re-audit click is acked in time, told nothing was changed, and no audit runs once the database is back", async () => {
    const before = await effects();
    const told = h.fake.ephemerals(ALICE).length;
    proxy.freeze();
    try {
      const ack = await clickReaudit();
      expect(ack.status).toBe(200);
      expect(ack.ms).toBeLessThan(3000);
      await waitFor("the answer to the click", () => h.fake.ephemerals(ALICE).length > told, { timeoutMs: 5000 });
      expect(lastEphemeral()).toBe(DATABASE_DOWN);
      // The click was not taken: nothing was queued while the database slept.
    } finally {
      proxy.thaw();
    }
    // Back: the job engine polls every 0.5 s; an audit queued late would run now.
    await new Promise((resolve) => setTimeout(resolve, 4000));
    await h.bot.idle();
    expect(await effects()).toEqual(before);
    expect(h.fake.ephemerals(ALICE).map((e) => e.message.text)).not.toContain("Re-auditing VP-111…");
  }, 60_000);

  it("a command is answered within Slack's 3 seconds in words, and does not run once the database is back", async () => {
    const before = await effects();
    proxy.freeze();
    let answer: Awaited<ReturnType<typeof command>>;
    try {
      answer = await command("audit VP-111");
    } finally {
      proxy.thaw();
    }
    expect(answer).toMatchObject({ status: 200, text: DATABASE_DOWN });
    expect(answer.ms).toBeLessThan(3000);
    await new Promise((resolve) => setTimeout(resolve, 4000));
    await h.bot.idle();
    expect(await effects()).toEqual(before);
  }, 60_000);

  it("with the database back, a Re-audit click is queued before its ack and runs", async () => {
    const before = await effects();
    const ack = await clickReaudit();
    expect(ack.status).toBe(200);
    // Queued before the ack: the job is in the database the moment Slack hears back.
    expect((await effects()).jobs).toBe(before.jobs + 1);
    await h.bot.idle();
    await waitFor("the re-audit", async () => (await effects()).audits > before.audits, { timeoutMs: 30_000 });
    expect(lastEphemeral()).toBe("Re-auditing VP-111…");
  }, 60_000);
});

describe("the database killed", { shuffle: false }, () => {
  it("/readyz answers 503 naming the database while it is down, /healthz still 200", async () => {
    await proxy.kill();
    try {
      const down = await readiness();
      expect(down.status).toBe(503);
      expect(down.body.checks.database).toMatchObject({ ok: false, error: expect.any(String) });
      expect((await fetch(`${h.slack.webUrl}/healthz`)).status).toBe(200);
    } finally {
      await proxy.revive();
    }
    await waitFor("/readyz ready again", async () => (await readiness()).status === 200, { timeoutMs: 10_000 });
  }, 60_000);

  it("a Re-audit click says the database can't be reached, not that the case no longer exists", async () => {
    const before = await effects();
    const told = h.fake.ephemerals(ALICE).length;
    await proxy.kill();
    try {
      const ack = await clickReaudit();
      expect(ack.status).toBe(200);
      await waitFor("the answer to the click", () => h.fake.ephemerals(ALICE).length > told, { timeoutMs: 5000 });
      expect(lastEphemeral()).toBe(DATABASE_DOWN);
    } finally {
      await proxy.revive();
    }
    expect(await effects()).toEqual(before);
  }, 60_000);

  it("a command says so in its ack rather than failing with HTTP 500", async () => {
    await proxy.kill();
    try {
      expect(await command("audit VP-111")).toMatchObject({ status: 200, text: DATABASE_DOWN });
      expect(await command("digest")).toMatchObject({ status: 200, text: DATABASE_DOWN });
    } finally {
      await proxy.revive();
    }
  }, 60_000);
});
