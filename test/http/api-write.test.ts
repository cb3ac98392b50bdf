// The REST API's writes over HTTP against the real bot on PostgreSQL: only the lifecycle's person
// moves (open by auditing, close as resolved with a reason, re-audit), a cancellation or reply refused
// with a pointer to Slack, a reply taken in by the webhook's path, each recorded under the token's name;
// a read token, or a body over 10 MB, changes nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiToken } from "../../src/data/api-token-repository.js";
import { type ApiClient, apiClient } from "../support/api-client.js";
import { type Harness, startHarness } from "../support/bot-harness.js";
import { tableCounts } from "../support/database.js";

let h: Harness;
let api: ApiClient;
let reader: string;
let writer: string;

beforeAll(async () => {
  h = await startHarness();
  api = await apiClient(h.url.replace(/\/slack\/events$/, ""));
  reader = (await createApiToken(h.db.prisma, { name: "reporting", scopes: ["read"], now: new Date() })).secret;
  writer = (await createApiToken(h.db.prisma, { name: "ops-bot", scopes: ["read", "write"], now: new Date() })).secret;
}, 60_000);

afterAll(async () => {
  await h?.close();
});

/** What a write could change (background jobs keep their own rows moving: leases, Slack posts). */
async function caseCounts() {
  const all = await tableCounts(h.db.prisma);
  const tables = [
    "cases",
    "audit_events",
    "approval_requests",
    "messages",
    "riders",
    "verification_runs",
    "email_threads",
  ];
  return Object.fromEntries(tables.map((t) => [t, all[t]]));
}

const post = (url: string, body: unknown, token = writer) => api.request("POST", url, { token, body });
const patch = (url: string, body: unknown, token = writer) => api.request("PATCH", url, { token, body });

describe("writes", { shuffle: false }, () => {
  it("refuses a write with a read token (403) or no token (401), and nothing changes", async () => {
    const before = await caseCounts();
    const refused = await post("/api/cases", { vanpool_id: "VP-111" }, reader);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/no write scope/);
    expect((await api.request("POST", "/api/cases", { body: { vanpool_id: "VP-111" } })).status).toBe(401);
    const seeded = await h.db.prisma.case.findFirstOrThrow({ where: { status: "hitl_review" } });
    expect(
      (await patch(`/api/cases/${seeded.id}`, { action: "close_resolved", reason: "fine now" }, reader)).status,
    ).toBe(403);
    await h.bot.idle();
    expect(await caseCounts()).toEqual(before);
  });

  it("opens a case only by auditing the vanpool: the case stands on stored evidence and its timeline names the token", async () => {
    const opened = await post("/api/cases", { vanpool_id: "VP-111" });
    expect(opened.status).toBe(201);
    const caseId = opened.body.case.case_id;
    expect(opened.body.case.vanpool_id).toBe("VP-111");
    expect(opened.body.summary).toMatch(new RegExp(`^${caseId} \\(VP-111\\) is `));
    await h.bot.idle();
    const shown = await api.get(`/api/cases/${caseId}`, reader);
    expect(shown.body.evidence.location ?? shown.body.evidence.shift).toMatchObject({ verdict: "fail" });
    expect(shown.body.timeline.map((e: { actor: string; action: string }) => `${e.actor} ${e.action}`)).toContain(
      "api:ops-bot audit.requested",
    );
    // Asked again: the open case is advanced, not a second one opened.
    const again = await post("/api/cases", { vanpool_id: "VP-111" });
    expect(again.status).toBe(200);
    expect(await h.db.prisma.case.count({ where: { vanpoolId: "VP-111" } })).toBe(1);
  });

  it("answers an unknown vanpool with 404 and a missing field with 400 naming it, opening nothing", async () => {
    const before = await h.db.prisma.case.count();
    const unknown = await post("/api/cases", { vanpool_id: "VP-999" });
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toMatch(/No vanpool VP-999/);
    const empty = await post("/api/cases", {});
    expect(empty.status).toBe(400);
    expect(empty.body.errors.map((e: { field: string }) => e.field)).toEqual(["body.vanpool_id"]);
    expect(await h.db.prisma.case.count()).toBe(before);
  });

  it("closes a case waiting for a person as resolved with the reason, and refuses one that is not waiting (409)", async () => {
    const waiting = await h.db.prisma.case.findFirstOrThrow({ where: { status: "hitl_review" } });
    const noReason = await patch(`/api/cases/${waiting.id}`, { action: "close_resolved" });
    expect(noReason.status).toBe(400);
    expect(noReason.body.errors.map((e: { field: string }) => e.field)).toEqual(["body.reason"]);

    const pending = await h.db.prisma.case.findFirstOrThrow({ where: { status: "pending_reply" } });
    const refused = await patch(`/api/cases/${pending.id}`, { action: "close_resolved", reason: "looks fine" });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(
      /only a case waiting for a person can be closed as resolved\. Nothing was changed\./,
    );
    expect(refused.body.detail).not.toMatch(/pending_reply/);
    expect((await h.db.prisma.case.findUniqueOrThrow({ where: { id: pending.id } })).status).toBe("pending_reply");

    const closed = await patch(`/api/cases/${waiting.id}`, {
      action: "close_resolved",
      reason: "HR confirmed the move",
    });
    expect(closed.status).toBe(200);
    expect(closed.body.case).toMatchObject({ status: "resolved", outcome: "resolved" });
    const timeline = (await api.get(`/api/cases/${waiting.id}`, reader)).body.timeline;
    expect(timeline.at(-1)).toMatchObject({ actor: "person:api:ops-bot", details: { why: "HR confirmed the move" } });
  });

  it("refuses a cancellation or a reply through the API, pointing to the approval card in Slack, and changes nothing", async () => {
    const pending = await h.db.prisma.case.findFirstOrThrow({ where: { status: "pending_reply" } });
    const before = await caseCounts();
    const cancel = await patch(`/api/cases/${pending.id}`, { action: "cancel" });
    expect(cancel.status).toBe(409);
    expect(cancel.body.detail).toMatch(/approval card in Slack/);
    const send = await patch(`/api/cases/${pending.id}`, { action: "send_reply" });
    expect(send.status).toBe(409);
    expect(send.body.detail).toMatch(/approval card in Slack/);
    const status = await patch(`/api/cases/${pending.id}`, { status: "cancelled" });
    expect(status.status).toBe(400);
    expect(status.body.errors[0].field).toBe("body.action");
    expect(await caseCounts()).toEqual(before);
  });

  it("re-audits a case", async () => {
    const pending = await h.db.prisma.case.findFirstOrThrow({ where: { vanpoolId: "VP-111" } });
    const reaudited = await patch(`/api/cases/${pending.id}`, { action: "re_audit" });
    expect(reaudited.status).toBe(200);
    expect(reaudited.body.case.case_id).toBe(pending.id);
    expect(reaudited.body.audit.vanpool_id).toBe("VP-111");
  });

  it("takes a rider's reply on a thread through the webhook's path, and quarantines a stranger's", async () => {
    await h.bot.idle();
    const thread = await h.db.prisma.emailThread.findFirstOrThrow({
      where: { vanpoolId: "VP-111" },
      include: { messages: { where: { direction: "outbound" } } },
    });
    const rider = thread.messages[0]!.toAddresses[0]!;
    const reply = await post(`/api/emails/threads/${thread.id}/messages`, {
      from: rider,
      body: "Thanks, I will look at my address with HR this week.",
    });
    expect(reply.status).toBe(202);
    expect(reply.body.quarantined).toBeNull();
    const stored = await h.db.prisma.message.findUniqueOrThrow({ where: { id: reply.body.message_id } });
    expect(stored).toMatchObject({ direction: "inbound", threadId: thread.id });
    expect(stored.body).toContain("look at my address with HR");
    const events = await h.db.prisma.auditEvent.findMany({
      where: { actor: "api:ops-bot", action: "email.reply_posted" },
    });
    expect(events.map((e) => e.subjectId)).toEqual([thread.id]);

    const stranger = await post(`/api/emails/threads/${thread.id}/messages`, {
      from: "someone@else.example",
      body: "hi",
    });
    expect(stranger.status).toBe(202);
    expect(stranger.body.quarantined).toBe("sender not written to");
    const notAnAddress = await post(`/api/emails/threads/${thread.id}/messages`, { from: "nobody", body: "hi" });
    expect(notAnAddress.body.errors[0].field).toBe("body.from");
    expect(
      (await post("/api/emails/threads/THREAD-0000000000000000/messages", { from: rider, body: "x" })).status,
    ).toBe(404);
  });

  it("refuses a body over 10 MB with 413 before reading it, and changes nothing", async () => {
    const before = await caseCounts();
    const huge = JSON.stringify({ vanpool_id: "VP-111", padding: "x".repeat(11 * 1024 * 1024) });
    const refused = await api.request("POST", "/api/cases", {
      token: writer,
      rawBody: huge,
      headers: { "content-type": "application/json" },
    });
    expect(refused.status).toBe(413);
    expect(refused.headers.get("content-type")).toBe("application/problem+json");
    expect(await caseCounts()).toEqual(before);
  });
});
