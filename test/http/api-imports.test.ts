// POST /api/imports and GET /api/imports/{id} over HTTP against the real bot on PostgreSQL: an
// export imported as `poolpatrol import` would (history under the token's name, re-audits queued),
// a bad file refused naming line, column and rule with nothing changed, a read token refused; every
// response checked against the OpenAPI document.
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiToken } from "../../src/data/api-token-repository.js";
import { type ApiClient, apiClient } from "../support/api-client.js";
import { type Harness, startHarness } from "../support/bot-harness.js";
import { tableCounts } from "../support/database.js";
import { diegoMoved, HRIS_MAPPING, hrisFile } from "../support/hris.js";

let h: Harness;
let api: ApiClient;
let reader: string;
let writer: string;

beforeAll(async () => {
  h = await startHarness();
  api = await apiClient(h.url.replace(/\/slack\/events$/, ""));
  reader = (await createApiToken(h.db.prisma, { name: "reporting", scopes: ["read"], now: new Date() })).secret;
  writer = (await createApiToken(h.db.prisma, { name: "hr-sync", scopes: ["read", "write"], now: new Date() })).secret;
}, 60_000);

afterAll(async () => {
  await h?.close();
});

/** What an import could change (the bot's background jobs keep their own rows moving). */
async function importCounts() {
  const all = await tableCounts(h.db.prisma);
  return Object.fromEntries(["employees", "shifts", "vanpools", "riders", "change_history"].map((t) => [t, all[t]]));
}

const mapping = JSON.parse(fs.readFileSync(HRIS_MAPPING, "utf8"));
const upload = (content: string, extra: Record<string, unknown> = {}, token = writer) =>
  api.request("POST", "/api/imports", {
    token,
    body: { kind: "employees", file_name: "workday-2026-11-30.csv", content, mapping, ...extra },
  });

describe("imports through the API", { shuffle: false }, () => {
  it("a read token may not import (403), and nothing changes", async () => {
    const before = await importCounts();
    const refused = await upload(fs.readFileSync(hrisFile(diegoMoved), "utf8"), {}, reader);
    expect(refused.status).toBe(403);
    expect(await importCounts()).toEqual(before);
  });

  it("a bad row is refused naming line, column and rule; nothing changes; the refusal reads back by id", async () => {
    const before = await importCounts();
    const content = fs.readFileSync(
      hrisFile((rows) => {
        rows[5]![8] = "9581";
      }),
      "utf8",
    );
    const refused = await upload(content);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ outcome: "refused", counts: null, actor: "api:hr-sync" });
    expect(refused.body.problems).toEqual([
      'workday-2026-11-30.csv: line 7, column "Home Postal Code" (home_zip): must be a 5-digit ZIP, got "9581"',
    ]);
    expect(await importCounts()).toEqual(before);
    const again = await api.request("GET", `/api/imports/${refused.body.id}`, { token: reader });
    expect(again.status).toBe(200);
    expect(again.body.problems).toEqual(refused.body.problems);
  });

  it("a dry run shows the diff and changes nothing; applied, Diego moves under the token's name", async () => {
    const content = fs.readFileSync(hrisFile(diegoMoved), "utf8");
    const dry = await upload(content, { dry_run: true });
    expect(dry.status).toBe(201);
    expect(dry.body).toMatchObject({ outcome: "dry_run", counts: { changed: 1, added: 0, leaving: 0 } });
    expect((await h.db.prisma.employee.findUniqueOrThrow({ where: { id: "EMP-1083" } })).homeZip).toBe("93901");

    const applied = await upload(content);
    expect(applied.status).toBe(201);
    expect(applied.body.changed).toEqual([
      {
        id: "EMP-1083",
        // The token has no pii scope: the street address is withheld, the ZIP shown as its ZIP3.
        changes: [
          { field: "home_address", old: null, new: null, withheld: true },
          { field: "home_city", old: "Salinas", new: "Fremont" },
          { field: "home_zip", old: "939xx", new: "945xx" },
        ],
      },
    ]);
    expect((await h.db.prisma.employee.findUniqueOrThrow({ where: { id: "EMP-1083" } })).homeZip).toBe("94538");
    const history = await h.db.prisma.changeHistory.findMany({
      where: { entityId: "EMP-1083", actor: { not: "seed" } },
    });
    expect(history.map((r) => [r.field, r.actor, r.sourceFile])).toEqual([
      ["home_address", "api:hr-sync", "workday-2026-11-30.csv"],
      ["home_city", "api:hr-sync", "workday-2026-11-30.csv"],
      ["home_zip", "api:hr-sync", "workday-2026-11-30.csv"],
    ]);
    const read = await api.request("GET", `/api/imports/${applied.body.id}`, { token: reader });
    expect(read.body).toEqual(applied.body);
    const pii = (await createApiToken(h.db.prisma, { name: "hr-audit", scopes: ["read", "pii"], now: new Date() }))
      .secret;
    const full = await api.request("GET", `/api/imports/${applied.body.id}`, { token: pii });
    expect(full.body.changed[0].changes).toEqual([
      { field: "home_address", old: "7260 Foothill Blvd, Apt 19B", new: "41 Mowry Ave" },
      { field: "home_city", old: "Salinas", new: "Fremont" },
      { field: "home_zip", old: "93901", new: "94538" },
    ]);
  });

  it("an unknown import is a 404 problem; a file name that is not .csv or .json a 400 naming the field", async () => {
    const missing = await api.request("GET", "/api/imports/IMP-0000000000000000", { token: reader });
    expect(missing.status).toBe(404);
    const bad = await upload("employee_id\n", { file_name: "../../etc/passwd" });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body.errors)).toContain("file_name");
  });
});
