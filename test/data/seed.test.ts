import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedFolder } from "../../src/cases/seed-folder.js";
import { readFixtureDir } from "../../src/data/fixtures.js";
import { insertFixturesInBulk } from "../../src/data/seed.js";
import { generateSyntheticFixtures } from "../../src/data/synthetic.js";
import { findVanpoolSnapshot } from "../../src/data/vanpool-repository.js";
import { findLatestResults } from "../../src/data/verification-repository.js";
import { auditVanpool } from "../../src/verification/audit.js";
import { auditAllVanpools } from "../../src/verification/audit-service.js";
import { auditSeededCases } from "../../src/verification/seeded-case-audits.js";
import { testAuditDeps } from "../support/audit-deps.js";
import { createTestDatabase, type TestDatabase, tableCounts } from "../support/database.js";
import { copyMockDir, MOCK_DIR } from "../support/fixtures.js";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

describe("seeding from mock/", () => {
  it("loads every file, and a second run leaves exactly the same rows", async () => {
    const seeded = await seedFolder(db, MOCK_DIR);
    const added = (kind: string) => seeded.imports.find((i) => i.kind === kind)?.result.added.length;
    expect(added("vanpools")).toBeGreaterThanOrEqual(12);
    expect(added("employees")).toBeGreaterThanOrEqual(60);
    const first = await tableCounts(db.prisma);
    const snapshot = await db.prisma.employee.findMany({ orderBy: { id: "asc" }, omit: { updatedAt: true } });
    const again = await seedFolder(db, MOCK_DIR);
    expect(again.imports.every(({ result }) => result.added.length + result.changed.length === 0)).toBe(true);
    expect(await tableCounts(db.prisma)).toEqual(first);
    expect(await db.prisma.employee.findMany({ orderBy: { id: "asc" }, omit: { updatedAt: true } })).toEqual(snapshot);
    expect(first.cases).toBeGreaterThan(0);
    expect(first.messages).toBeGreaterThan(0);
  });

  it("covers all four reply buckets in the existing email threads", async () => {
    const buckets = await db.prisma.message.findMany({
      where: { direction: "inbound" },
      select: { bucket: true },
      distinct: ["bucket"],
    });
    expect(buckets.map((b) => b.bucket).sort()).toEqual(["acknowledgment", "escalation", "question", "update"]);
  });
});

describe("the seeded cases' checks", () => {
  let own: TestDatabase;
  beforeAll(async () => {
    own = await createTestDatabase();
    await seedFolder(own, MOCK_DIR);
  });
  afterAll(async () => {
    await own.drop();
  });

  it("stores, for each open seeded case, what the checks compute over the seeded data, once", async () => {
    const deps = testAuditDeps(own);
    const { cases } = readFixtureDir(MOCK_DIR);
    const open = cases.filter((c) => !["resolved", "cancelled"].includes(c.status));
    const audited = await auditSeededCases(deps, cases);
    expect(audited.sort()).toEqual(open.map((c) => c.vanpool_id).sort());

    for (const c of open) {
      const stored = await findLatestResults(own.prisma, c.vanpool_id);
      const computed = await auditVanpool((await findVanpoolSnapshot(own.prisma, c.vanpool_id))!, deps);
      for (const check of ["location", "shift"] as const) {
        const { verdict, confidence, flagged, evidence, reasoning } = computed[check];
        expect(stored[check], `${c.vanpool_id} ${check}`).toMatchObject({
          verdict,
          confidence,
          flagged,
          evidence,
          reasoning,
        });
      }
      // The mock's open cases agree with their checks: the recorded failures are the computed ones.
      const failing = (["location", "shift"] as const).filter((check) => stored[check]!.verdict === "fail");
      expect(failing, c.case_id).toEqual(c.failed_checks);
      expect(failing.flatMap((check) => stored[check]!.flagged).sort(), c.case_id).toEqual(
        [...(c.meta.flagged as string[])].sort(),
      );
    }
    // A closed case keeps the evidence it was decided on, which today's data cannot recompute.
    expect(await findLatestResults(own.prisma, "VP-109")).toEqual({});

    const runs = await own.prisma.verificationRun.count();
    expect(await auditSeededCases(deps, cases)).toEqual([]);
    expect(await own.prisma.verificationRun.count()).toBe(runs);
  });
});

describe("a refused import", () => {
  // What a refusal must leave unchanged, whichever test in this file runs first.
  beforeAll(async () => {
    await seedFolder(db, MOCK_DIR);
  });
  // biome-ignore lint/suspicious/noExplicitAny: tests reach into records freely
  const cases: [string, (files: Record<string, any[]>) => void, RegExp][] = [
    [
      "a missing field",
      (f) => {
        delete f["employees.json"]![3].home_zip;
      },
      /employees\.json: record #4, column "home_zip": must be a 5-digit ZIP, got ""/,
    ],
    [
      "an unknown shift id",
      (f) => {
        f["employees.json"]![0].shift_id = "SHIFT_MOONLIGHT";
      },
      /employees\.json: record #1, column "shift_id": unknown shift id "SHIFT_MOONLIGHT"/,
    ],
    [
      "a rider pointing at no employee",
      (f) => {
        f["vanpools.json"]![1].riders[0].employee_id = "EMP-9999";
      },
      /vanpools\.json: record #2, riders\[0\], column "employee_id": no employee "EMP-9999" is stored/,
    ],
    [
      "a time zone no one knows",
      (f) => {
        f["vanpools.json"]![1].time_zone = "Mars/Olympus_Mons";
      },
      /vanpools\.json: record #2, column "time_zone": must be an IANA time zone/,
    ],
    [
      "a day the calendar lacks",
      (f) => {
        f["employees.json"]![0].pto_dates = ["2026-02-30"];
      },
      /employees\.json: record #1, column "pto_dates": is not a day of the calendar, got "2026-02-30"/,
    ],
    [
      "an email address two employees share",
      (f) => {
        f["employees.json"]![1].email = f["employees.json"]![0].email;
      },
      /employees\.json: record #2, column "email": email \S+ is also EMP-\d+\x27s/,
    ],
    [
      "a second open case for one vanpool",
      (f) => {
        const open = f["cases.json"]!.find((c) => c.status === "pending_reply");
        f["cases.json"]!.push({ ...open, case_id: "CASE-00000000000000A1" });
      },
      /cases\.json: record #7 \(CASE-00000000000000A1\): field "status": VP-\d+ already has an open case \(CASE-[0-9A-F]{8}\); a vanpool has at most one/,
    ],
    [
      "a message id another thread holds",
      (f) => {
        f["email_threads.json"]![1].messages[0].message_id = f["email_threads.json"]![0].messages[0].message_id;
      },
      /email_threads\.json: record #2 \(THREAD-[0-9A-F]+\): field "messages\[0\]\.message_id": MSG-[0-9A-F]+ is already a message of THREAD-[0-9A-F]+/,
    ],
    [
      "a thread whose vanpool does not exist",
      (f) => {
        f["email_threads.json"]![0].vanpool_id = "VP-999";
      },
      /email_threads\.json: record #1 \(THREAD-[0-9A-F]+\): field "vanpool_id": no vanpool "VP-999"/,
    ],
  ];

  it.each(cases)("names the file, record and field for %s, and changes nothing", async (_name, edit, message) => {
    const before = await tableCounts(db.prisma);
    const firstShiftName = (await db.prisma.shift.findFirstOrThrow({ orderBy: { id: "asc" } })).name;
    const dir = copyMockDir((files) => {
      files["shifts.json"]![0].name = "Renamed by a bad import";
      edit(files);
    });
    await expect(async () => seedFolder(db, dir)).rejects.toThrow(message);
    expect(await tableCounts(db.prisma)).toEqual(before);
    expect((await db.prisma.shift.findFirstOrThrow({ orderBy: { id: "asc" } })).name).toBe(firstShiftName);
  });

  it("reports malformed JSON with the file name", () => {
    const dir = copyMockDir();
    fs.writeFileSync(path.join(dir, "vanpools.json"), '[{"vanpool_id": "VP-1",');
    expect(() => readFixtureDir(dir)).toThrow(/vanpools\.json: not valid JSON/);
  });
});

describe("synthetic load data", () => {
  it("generates about six riders a van with about 10% failing, and inserts idempotently", async () => {
    const fixtures = generateSyntheticFixtures(200);
    expect(fixtures.vanpools).toHaveLength(200);
    const riders = fixtures.vanpools.reduce((n, v) => n + v.riders.length, 0);
    expect(riders / 200).toBeGreaterThan(5.5);
    expect(riders / 200).toBeLessThan(6.5);
    await insertFixturesInBulk(db.prisma, fixtures);
    const summary = await auditAllVanpools(testAuditDeps(db), { trigger: "synthetic_check" });
    const failingShare =
      summary.attention.filter((a) => a.verdict === "fail" && Number(a.vanpool_id.slice(3)) >= 100000).length / 200;
    expect(failingShare).toBeGreaterThan(0.04);
    expect(failingShare).toBeLessThan(0.18);
    const once = await tableCounts(db.prisma);
    await insertFixturesInBulk(db.prisma, generateSyntheticFixtures(200));
    expect(await tableCounts(db.prisma)).toEqual(once);
  });
});
