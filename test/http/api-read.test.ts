// The REST API's reads over HTTP against the real bot on PostgreSQL: tokens and their scopes,
// personal data only for the pii scope, cursor pages and filters, ETags and problem responses.
// Every response is checked against the schema the API's OpenAPI document gives for it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiToken, revokeApiToken } from "../../src/data/api-token-repository.js";
import { type ApiClient, apiClient } from "../support/api-client.js";
import { type Harness, startHarness } from "../support/bot-harness.js";
import { runCli } from "../support/cli.js";

let h: Harness;
let api: ApiClient;
let reader: string;
let piiReader: string;

const token = async (name: string, scopes: ("read" | "write" | "pii")[]) =>
  (await createApiToken(h.db.prisma, { name, scopes, now: new Date() })).secret;

beforeAll(async () => {
  h = await startHarness();
  api = await apiClient(h.url.replace(/\/slack\/events$/, ""));
  reader = await token("reporting", ["read"]);
  piiReader = await token("hr-desk", ["read", "pii"]);
  // A case with a timeline: VP-111 fails its audit.
  await h.audit("VP-111");
}, 120_000);

const auditedCase = () =>
  h.db.prisma.case.findFirstOrThrow({ where: { vanpoolId: "VP-111", status: "pending_reply" } });

afterAll(async () => {
  await h?.close();
});

describe("API tokens", () => {
  it("refuses no token, a made-up one and a revoked one with 401 problem+json", async () => {
    const none = await api.get("/api/vanpools");
    expect(none.status).toBe(401);
    expect(none.headers.get("content-type")).toBe("application/problem+json");
    expect(none.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(none.body).toMatchObject({ status: 401, title: "Unauthorized" });
    expect((await api.get("/api/vanpools", "pp_made-up")).status).toBe(401);
    const doomed = await token("doomed", ["read"]);
    expect((await api.get("/api/vanpools", doomed)).status).toBe(200);
    await revokeApiToken(h.db.prisma, "doomed", new Date());
    const revoked = await api.get("/api/vanpools", doomed);
    expect(revoked.status).toBe(401);
    expect(revoked.body.detail).toMatch(/revoked/);
  });

  it("token create prints the secret once and stores only its hash; list shows it; revoke refuses it at once", async () => {
    const env = { DATABASE_URL: h.db.url };
    const created = await runCli(["token", "create", "dashboards", "--scope", "read"], env);
    expect(created.code).toBe(0);
    const secret = created.stdout.split("\n")[0]!;
    expect(secret).toMatch(/^pp_[\w-]{40,}$/);
    expect(created.stdout).toMatch(/only time it is shown/);
    const stored = await h.db.prisma.apiToken.findUniqueOrThrow({ where: { name: "dashboards" } });
    expect(JSON.stringify(stored)).not.toContain(secret.slice(3));
    expect(stored.scopes).toEqual(["read"]);
    expect((await api.get("/api/cases", secret)).status).toBe(200);

    const listed = await runCli(["token", "list"], env);
    expect(listed.stdout).toMatch(/^dashboards\s+read\s+created /m);
    expect(listed.stdout).not.toContain(secret);

    expect((await runCli(["token", "create", "dashboards", "--scope", "read"], env)).code).toBe(2);
    const bad = await runCli(["token", "create", "x", "--scope", "admin"], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/Unknown scope "admin"/);

    expect((await runCli(["token", "revoke", "dashboards"], env)).code).toBe(0);
    expect((await api.get("/api/cases", secret)).status).toBe(401);
    expect((await runCli(["token", "list"], env)).stdout).toMatch(/^dashboards .* revoked /m);
  });
});

describe("personal data", () => {
  it("shows a rider's home as city and ZIP3 to a read token, and street, ZIP, email and coordinates only with pii", async () => {
    const riders = await h.db.prisma.rider.findMany({
      where: { vanpoolId: "VP-101", status: "active" },
      include: { employee: true },
    });
    const plain = await api.get("/api/vanpools/VP-101", reader);
    expect(plain.status).toBe(200);
    expect(plain.body.riders).toHaveLength(riders.length);
    for (const { employee } of riders) {
      expect(plain.text).not.toContain(employee.email);
      expect(plain.text).not.toContain(employee.homeAddress);
      const shown = plain.body.riders.find((r: { employee_id: string }) => r.employee_id === employee.id);
      expect(shown.home_zip3).toBe(`${employee.homeZip.slice(0, 3)}xx`);
      for (const field of ["email", "home_address", "home_zip", "home_coords"]) expect(shown).not.toHaveProperty(field);
    }
    const employee = await api.get(`/api/employees/${riders[0]!.employeeId}`, reader);
    expect(employee.text).not.toContain(riders[0]!.employee.email);
    expect(employee.body).not.toHaveProperty("home_address");

    const full = await api.get("/api/vanpools/VP-101", piiReader);
    for (const { employee } of riders) {
      const shown = full.body.riders.find((r: { employee_id: string }) => r.employee_id === employee.id);
      expect(shown).toMatchObject({
        email: employee.email,
        home_address: employee.homeAddress,
        home_zip: employee.homeZip,
      });
    }
  });

  it("redacts email addresses in a case's timeline and emails for a read token", async () => {
    const [thread] = await h.db.prisma.emailThread.findMany({ take: 1, include: { messages: true } });
    expect(thread?.messages.length).toBeGreaterThan(0);
    const addresses = thread!.messages.flatMap((m) => [m.fromAddress, ...m.toAddresses]);
    const plain = await api.get(`/api/emails/threads/${thread!.id}`, reader);
    expect(plain.status).toBe(200);
    for (const address of addresses) expect(plain.text).not.toContain(address);
    expect(plain.body.messages.some((m: { to_employee_ids: string[] }) => m.to_employee_ids.length > 0)).toBe(true);
    const full = await api.get(`/api/emails/threads/${thread!.id}`, piiReader);
    expect(full.text).toContain(addresses[0]);
    const byCase = await api.get(`/api/cases/${thread!.caseId}/emails`, reader);
    expect(byCase.body.items.map((t: { thread_id: string }) => t.thread_id)).toEqual([thread!.id]);
    for (const address of addresses) expect(byCase.text).not.toContain(address);
  });
});

describe("lists, filters and cursors", () => {
  it("walks every vanpool in pages of 5 with the cursor, and status=flagged lists those with an open case", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const response: { body: { items: { vanpool_id: string }[]; next_cursor: string | null } } = await api.get(
        `/api/vanpools?limit=5${cursor ? `&cursor=${cursor}` : ""}`,
        reader,
      );
      expect(response.body.items.length).toBeLessThanOrEqual(5);
      seen.push(...response.body.items.map((v) => v.vanpool_id));
      cursor = response.body.next_cursor;
    } while (cursor);
    const all = (await h.db.prisma.vanpool.findMany({ orderBy: { id: "asc" } })).map((v) => v.id);
    expect(seen).toEqual(all);

    const open = await h.db.prisma.case.findMany({ where: { status: { notIn: ["resolved", "cancelled"] } } });
    const flagged = await api.get("/api/vanpools?status=flagged&limit=200", reader);
    expect(flagged.body.items.map((v: { vanpool_id: string }) => v.vanpool_id).sort()).toEqual(
      [...new Set(open.map((c) => c.vanpoolId))].sort(),
    );
    expect(flagged.body.items.every((v: { flagged: boolean }) => v.flagged)).toBe(true);
  });

  it("filters cases by status and vanpool, newest first, in pages", async () => {
    const cases = await h.db.prisma.case.findMany({ orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
    const first = await api.get("/api/cases?limit=2", reader);
    const second = await api.get(`/api/cases?limit=2&cursor=${first.body.next_cursor}`, reader);
    expect([...first.body.items, ...second.body.items].map((c: { case_id: string }) => c.case_id)).toEqual(
      cases.slice(0, 4).map((c) => c.id),
    );
    const status = cases[0]!.status;
    const byStatus = await api.get(`/api/cases?status=${status}&limit=200`, reader);
    expect(byStatus.body.items.map((c: { case_id: string }) => c.case_id).sort()).toEqual(
      cases
        .filter((c) => c.status === status)
        .map((c) => c.id)
        .sort(),
    );
    const byVanpool = await api.get(`/api/cases?vanpool_id=${cases[0]!.vanpoolId}`, reader);
    expect(byVanpool.body.items.every((c: { vanpool_id: string }) => c.vanpool_id === cases[0]!.vanpoolId)).toBe(true);
    const employees = await api.get("/api/employees?vanpool_id=VP-101", reader);
    expect(employees.body.items.every((e: { vanpool_ids: string[] }) => e.vanpool_ids.includes("VP-101"))).toBe(true);
    expect(employees.body.items.length).toBeGreaterThan(0);
  });
});

describe("single resources and problems", () => {
  it("gives a case with its timeline and evidence an ETag, and answers 304 to If-None-Match", async () => {
    const open = await auditedCase();
    const first = await api.get(`/api/cases/${open.id}`, reader);
    expect(first.status).toBe(200);
    expect(first.body.timeline.length).toBeGreaterThan(0);
    expect(first.body.status_label).not.toMatch(/_/);
    expect(first.body.evidence.location ?? first.body.evidence.shift).toBeDefined();
    // The email.sent event names its recipient: not by address for a read token.
    const riderEmails = (
      await h.db.prisma.employee.findMany({
        where: { id: { in: open.failedChecks.length ? ((open.meta as { flagged: string[] }).flagged ?? []) : [] } },
      })
    ).map((e) => e.email);
    expect(riderEmails.length).toBeGreaterThan(0);
    for (const email of riderEmails) expect(first.text).not.toContain(email);
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^".+"$/);
    const again = await api.get(`/api/cases/${open.id}`, reader, { "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
    expect((await api.get(`/api/cases/${open.id}`, reader, { "if-none-match": '"stale"' })).status).toBe(200);
    // What a pii token sees is another representation, with its own tag.
    expect((await api.get(`/api/cases/${open.id}`, piiReader)).headers.get("etag")).not.toBe(etag);
  });

  it("names the field at fault in a problem+json 400, and answers 404 for an unknown id", async () => {
    const status = await api.get("/api/vanpools?status=bogus", reader);
    expect(status.status).toBe(400);
    expect(status.headers.get("content-type")).toBe("application/problem+json");
    expect(status.body.errors.map((e: { field: string }) => e.field)).toEqual(["query.status"]);
    expect((await api.get("/api/cases?limit=0", reader)).body.errors[0].field).toBe("query.limit");
    const cursor = await api.get("/api/vanpools?cursor=made-up", reader);
    expect(cursor.status).toBe(400);
    expect(cursor.body.errors[0].field).toBe("query.cursor");
    const missing = await api.get("/api/cases/CASE-0000000000000000", reader);
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toMatch(/No case CASE-0000000000000000/);
    expect((await api.get("/api/employees/EMP-0", reader)).status).toBe(404);
    expect((await api.get("/api/emails/threads/THREAD-0", reader)).status).toBe(404);
  });

  it("lists the change history with cursors, by subject", async () => {
    const open = await auditedCase();
    const changes = await api.get(`/api/changes?subject_id=${open.id}&limit=1`, reader);
    expect(changes.body.items).toHaveLength(1);
    expect(changes.body.items[0].subject_id).toBe(open.id);
    const next = await api.get(`/api/changes?subject_id=${open.id}&limit=1&cursor=${changes.body.next_cursor}`, reader);
    expect(Number(next.body.items[0]?.id ?? Number.POSITIVE_INFINITY)).toBeGreaterThan(
      Number(changes.body.items[0].id),
    );
  });
});
