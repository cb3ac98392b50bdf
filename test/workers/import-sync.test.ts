// The scheduled import sync (POOLPATROL_IMPORT_CRON): two replicas firing the same slot run one
// import; a file imported before is not imported again; a missing folder, a malformed file, a file
// whose rows break a rule (its sync's other files included) or an HTTP source that refuses the
// token fails the sync, changes nothing, and is told in the channel and left as a failed job. Slots are triggered directly (the cron only names the slot).
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type ImportSyncDeps, runImportSync } from "../../src/cases/import-sync.js";
import { parseSettings } from "../../src/config/settings.js";
import { type JobEngine, jobIdFor, startJobEngine } from "../../src/queue/engine.js";
import { importJobs, QUEUE_OPTIONS, QUEUES } from "../../src/queue/queues.js";
import { createImportAnnouncer } from "../../src/slack/import-summary-post.js";
import { registerImportJobs } from "../../src/workers/import-jobs.js";
import { AUDIT_CHANNEL, type Harness, startHarness } from "../support/bot-harness.js";
import { diegoMoved, HRIS, HRIS_MAPPING, hrisFile, hrisRow } from "../support/hris.js";
import { waitFor } from "../support/wait.js";

const folder = fs.mkdtempSync(path.join(os.tmpdir(), "poolpatrol-sync-dir-"));
const env = { POOLPATROL_IMPORT_CRON: "0 6 * * *", POOLPATROL_IMPORT_DIR: folder };
let h: Harness;
let replica: JobEngine;

beforeAll(async () => {
  fs.copyFileSync(HRIS_MAPPING, path.join(folder, "employees.mapping.json"));
  h = await startHarness({ env });
  // A second replica of the bot: its own job engine working the same queues on the same database.
  replica = await startJobEngine({
    databaseUrl: h.db.url,
    log: () => {},
    pollingIntervalSeconds: 0.5,
    queues: QUEUE_OPTIONS,
  });
  const settings = parseSettings(env);
  await registerImportJobs(replica, {
    announcer: createImportAnnouncer(h.bot.ctx),
    sync: {
      prisma: h.db.prisma,
      pool: h.db.pool,
      settings: settings.importSync!,
      now: () => new Date(),
      log: () => {},
      httpTimeoutMs: 5000,
    },
  });
}, 120_000);
afterAll(async () => {
  await replica?.stop();
  await h?.close();
  fs.rmSync(folder, { recursive: true, force: true });
});

const drop = (name: string, source: string) => fs.copyFileSync(source, path.join(folder, name));
const finished = (slot: string) =>
  waitFor(
    `the sync of ${slot} to finish`,
    async () => {
      const row = await h.db.prisma.importSync.findUnique({ where: { slot } });
      return row?.finishedAt ? row : undefined;
    },
    { timeoutMs: 60_000 },
  );
const historyRows = () => h.db.prisma.changeHistory.count();

it("two replicas firing one slot import the dropped file once; the next slot finds nothing new", async () => {
  drop("employees-2026-11-30.csv", hrisFile(diegoMoved));
  const slot = "sync-2026-11-30T06:00Z";
  await Promise.all([importJobs(h.jobs).sync(slot), importJobs(replica).sync(slot)]);
  const done = await finished(slot);
  expect(done).toMatchObject({ outcome: "imported", error: null });
  expect(done.importIds).toHaveLength(1);
  const imports = await h.db.prisma.dataImport.findMany({ where: { actor: `sync:${slot}` } });
  expect(imports.map((i) => [i.sourceFile, i.outcome])).toEqual([["employees-2026-11-30.csv", "applied"]]);
  const history = await h.db.prisma.changeHistory.findMany({ where: { entityId: "EMP-1083", actor: { not: "seed" } } });
  expect(history.map((r) => r.field).sort()).toEqual(["home_address", "home_city", "home_zip"]);
  await waitFor("the import's summary in the channel", () =>
    h.fake
      .messages(AUDIT_CHANNEL)
      .find((m) => /^Employee import from employees-2026-11-30\.csv: 1 employee changed/.test(String(m.text))),
  );

  const next = "sync-2026-12-01T06:00Z";
  await importJobs(replica).sync(next);
  expect(await finished(next)).toMatchObject({ outcome: "nothing_new", importIds: [] });
  expect(await h.db.prisma.dataImport.count({ where: { actor: `sync:${next}` } })).toBe(0);
}, 180_000);

it("a malformed file fails the sync before anything is applied: told in the channel, a failed job, nothing changed", async () => {
  const before = await historyRows();
  // A newer employees export that would change a rider, and a roster that is not a roster.
  const later = hrisFile((rows) => {
    hrisRow(rows, "EMP-1028")[HRIS.HOME_CITY] = "Fremont";
  });
  drop("employees-2026-12-02.csv", later);
  fs.utimesSync(path.join(folder, "employees-2026-12-02.csv"), new Date(), new Date(Date.now() + 60_000));
  fs.writeFileSync(path.join(folder, "riders-2026-12-02.csv"), "participant,van\nP-1,VP-101\n");
  const slot = "sync-2026-12-02T06:00Z";
  await importJobs(h.jobs).sync(slot);
  const done = await finished(slot);
  expect(done.outcome).toBe("failed");
  expect(done.error).toMatch(/riders-2026-12-02\.csv/);
  expect(await historyRows()).toBe(before);
  expect(await h.db.prisma.employee.findUniqueOrThrow({ where: { id: "EMP-1028" } })).toMatchObject({
    homeCity: "Oakdale",
  });

  const notice = await waitFor("the failed sync's notice", () =>
    h.fake.messages(AUDIT_CHANNEL).find((m) => /^The scheduled import sync failed/.test(String(m.text))),
  );
  expect(notice.text).toMatch(/riders-2026-12-02\.csv.*Nothing was changed/s);
  const job = await waitFor("the sync job to be failed", async () => {
    const j = await h.jobs.boss.getJobById(QUEUES.importSync, jobIdFor(`import-sync:${slot}`), {
      includeArchive: true,
    });
    return j?.state === "failed" ? j : undefined;
  });
  expect(JSON.stringify(job.output)).toMatch(/riders-2026-12-02\.csv/);
  fs.rmSync(path.join(folder, "riders-2026-12-02.csv"));
}, 180_000);

it("a sync whose second file breaks a rule applies neither: the first file's changes are not kept either", async () => {
  const before = await historyRows();
  // A newer employees export that is valid and changes a rider, and a roster naming a vanpool that does not exist.
  const later = hrisFile((rows) => {
    hrisRow(rows, "EMP-1028")[HRIS.HOME_CITY] = "Milpitas";
  });
  drop("employees-2026-12-03.csv", later);
  fs.utimesSync(path.join(folder, "employees-2026-12-03.csv"), new Date(), new Date(Date.now() + 120_000));
  fs.writeFileSync(
    path.join(folder, "riders-2026-12-03.csv"),
    "participant_id,vanpool_id,employee_id\nP-10001,VP-101,EMP-1074\nP-99001,VP-999,EMP-1028\n",
  );
  const slot = "sync-2026-12-03T06:00Z";
  await importJobs(h.jobs).sync(slot);
  const done = await finished(slot);
  expect(done.outcome).toBe("failed");
  expect(done.importIds).toEqual([]);
  expect(done.error).toMatch(/riders-2026-12-03\.csv: line 3, column "vanpool_id": no vanpool "VP-999" is stored/);
  expect(await historyRows()).toBe(before);
  expect(await h.db.prisma.employee.findUniqueOrThrow({ where: { id: "EMP-1028" } })).toMatchObject({
    homeCity: "Oakdale",
  });
  expect(await h.db.prisma.dataImport.count({ where: { actor: `sync:${slot}` } })).toBe(0);
  const notice = await waitFor("the failed sync's notice", () =>
    h.fake
      .messages(AUDIT_CHANNEL)
      .find((m) => /^The scheduled import sync failed/.test(String(m.text)) && /VP-999/.test(String(m.text))),
  );
  expect(notice.text).toMatch(/Nothing was changed/);
  expect(notice.text).not.toMatch(/employees-2026-12-03\.csv/);
  fs.rmSync(path.join(folder, "riders-2026-12-03.csv"));
}, 180_000);

/** A sync's deps with another source: run directly, as the job would. */
function syncDeps(source: ImportSyncDeps["settings"]["source"]): ImportSyncDeps {
  return {
    prisma: h.db.prisma,
    pool: h.db.pool,
    jobs: h.jobs,
    settings: { cron: "0 6 * * *", source, mappingsDir: folder },
    now: () => new Date(),
    log: () => {},
    httpTimeoutMs: 5000,
  };
}

it("a missing folder fails the sync and changes nothing", async () => {
  const before = await historyRows();
  const missing = path.join(folder, "no-such-folder");
  await expect(runImportSync(syncDeps({ dir: missing }), "sync-missing")).rejects.toThrow(/does not exist/);
  expect(await h.db.prisma.importSync.findUniqueOrThrow({ where: { slot: "sync-missing" } })).toMatchObject({
    outcome: "failed",
    error: `the import folder ${missing} does not exist.`,
  });
  expect(await historyRows()).toBe(before);
});

it("an HTTP source is fetched with the bearer token; a refused token or an unreachable host fails the sync", async () => {
  const csv = fs.readFileSync(
    hrisFile((rows) => {
      hrisRow(rows, "EMP-1002")[HRIS.HOME_CITY] = "Milpitas";
    }),
  );
  const asked: string[] = [];
  const server = http.createServer((req, res) => {
    asked.push(`${req.url} ${req.headers.authorization}`);
    if (req.headers.authorization !== "Bearer hr-secret") return res.writeHead(401).end();
    if (req.url !== "/exports/employees.csv") return res.writeHead(404).end();
    res.writeHead(200, { "content-disposition": 'attachment; filename="workday-2026-12-03.csv"' }).end(csv);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/exports/{kind}.csv`;
  try {
    const before = await historyRows();
    await expect(runImportSync(syncDeps({ url, token: "wrong" }), "sync-http-refused")).rejects.toThrow(
      /answered HTTP 401/,
    );
    expect(await historyRows()).toBe(before);

    const done = await runImportSync(syncDeps({ url, token: "hr-secret" }), "sync-http");
    expect(done).toMatchObject({ outcome: "imported", files: ["workday-2026-12-03.csv"] });
    expect(asked).toContain("/exports/employees.csv Bearer hr-secret");
    expect(await h.db.prisma.employee.findUniqueOrThrow({ where: { id: "EMP-1002" } })).toMatchObject({
      homeCity: "Milpitas",
    });
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
  await expect(
    runImportSync(syncDeps({ url: "http://127.0.0.1:9/{kind}.csv", token: undefined }), "sync-unreachable"),
  ).rejects.toThrow(/could not be reached/);
});
