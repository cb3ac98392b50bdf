// What an import re-checks, over POST /api/imports against the real bot on PostgreSQL, and how each import's
// channel summary counts it (at the Slack stub). A rider who moves far away on a van with no case opens one: its
// alert is posted and the first email goes out (counted at the Resend stub). A changed name or email re-checks
// nothing. Two imports in a row each count only the cases their own re-checks opened: the other's re-check of the
// same van says which import opened it. A shift whose times change re-checks the vans its workers ride.
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUDIT_CHANNEL, type Harness } from "../support/bot-harness.js";
import { HRIS, hrisFile, hrisRow } from "../support/hris.js";
import { type ImportHarness, startImportHarness } from "../support/import-harness.js";
import type { ResendStub } from "../support/resend-stub.js";
import { waitFor } from "../support/wait.js";

let h: Harness;
let stub: ResendStub;
let uploaded: ImportHarness["upload"];
let close: () => Promise<void>;

beforeAll(async () => {
  ({ h, stub, upload: uploaded, close } = await startImportHarness());
}, 60_000);

afterAll(() => close?.());

/** Uploads a file of `kind` as `fileName`; answers the import (201). */
async function upload(kind: string, fileName: string, content: string) {
  const response = await uploaded(kind, fileName, content);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as { id: string; reaudits: string[] };
}

/** The HR export is the whole workforce: each upload carries every edit made so far. */
const edits: ((rows: string[][]) => void)[] = [];
const employeesFile = (edit: (rows: string[][]) => void) => {
  edits.push(edit);
  return fs.readFileSync(
    hrisFile((rows) => {
      for (const e of edits) e(rows);
    }),
    "utf8",
  );
};

/** An import's channel summary once every re-check has finished. */
const finalSummary = (fileName: string) =>
  waitFor(
    `the summary of ${fileName} with every re-check done`,
    () =>
      h.fake
        .messages(AUDIT_CHANNEL)
        .find((m) => String(m.text).includes(` from ${fileName}: `) && !/re-checking/.test(String(m.text))),
    { timeoutMs: 90_000 },
  );
/** The summary's details in its thread once they say `line` (they are updated after the summary). */
const detailsSay = (ts: string, line: string) =>
  waitFor(`the summary's details to say "${line}"`, () =>
    h.fake
      .thread(AUDIT_CHANNEL, ts)
      .find((m) => /^Details of the /.test(String(m.text)) && JSON.stringify(m.blocks).includes(line)),
  );

const openCase = (vanpoolId: string) =>
  h.db.prisma.case.findFirst({ where: { vanpoolId, status: { notIn: ["resolved", "cancelled"] } } });
const auditRuns = (vanpoolId: string) => h.db.prisma.verificationRun.count({ where: { vanpoolId } });

describe("what an import re-checks", { shuffle: false }, () => {
  it("a rider who moves 80 miles away on a van with no case: the van is re-checked and a case opens, with its alert and first email", async () => {
    expect(await openCase("VP-104")).toBeNull();
    const sentBefore = stub.sent.length;
    const imported = await upload(
      "employees",
      "workday-move.csv",
      employeesFile((rows) => {
        // Brian (EMP-1001, VP-104, San Jose HQ) moves from Morgan Hill to Sacramento.
        const brian = hrisRow(rows, "EMP-1001");
        brian[HRIS.HOME_ADDRESS] = "1500 Capitol Mall";
        brian[HRIS.HOME_CITY] = "Sacramento";
        brian[HRIS.HOME_ZIP] = "95814";
      }),
    );
    expect(imported.reaudits).toEqual(["VP-104"]);

    const summary = await finalSummary("workday-move.csv");
    expect(summary.text).toBe(
      "Employee import from workday-move.csv: 1 employee changed, 0 joined, 0 left; 1 vanpool re-checked, 0 cases resolved, 1 new case",
    );
    const opened = await openCase("VP-104");
    expect(opened).toMatchObject({ failedChecks: ["location"], meta: { flagged: ["EMP-1001"] } });
    await detailsSay(summary.ts, `VP-104: new case ${opened?.id}`);
    await h.bot.idle();
    await waitFor("VP-104's case alert", () => {
      try {
        return h.alertOf("VP-104");
      } catch {
        return undefined;
      }
    });
    // The first email of the new case, to Brian, once.
    await waitFor("Brian's first email", () =>
      stub.sent.slice(sentBefore).find((m) => JSON.stringify(m.body.to).includes("brian.mcallister@")),
    );
    await h.bot.idle();
    expect(stub.sent.slice(sentBefore).map((m) => m.body.to)).toEqual([["brian.mcallister@northwind.example"]]);
  }, 180_000);

  it("a changed name or work email re-checks nothing, even on a van with a case", async () => {
    const runsBefore = await auditRuns("VP-104");
    const imported = await upload(
      "employees",
      "workday-names.csv",
      employeesFile((rows) => {
        const row = hrisRow(rows, "EMP-1037");
        row[2] = `${row[2]}-Reyes`;
        row[3] = row[3]!.replace("@", ".hr@");
      }),
    );
    expect(imported.reaudits).toEqual([]);
    const summary = await finalSummary("workday-names.csv");
    expect(summary.text).toBe(
      "Employee import from workday-names.csv: 1 employee changed, 0 joined, 0 left; no vanpool to re-check",
    );
    await h.bot.idle();
    expect(await auditRuns("VP-104")).toBe(runsBefore);
    const jobs = await h.db.prisma.$queryRaw<{ n: bigint }[]>`
      SELECT count(*) AS n FROM pgboss.job WHERE name = 'audit-vanpool' AND data->'answer'->>'importId' = ${imported.id}`;
    expect(Number(jobs[0]!.n)).toBe(0);
  }, 120_000);

  it("two imports in a row: each summary counts only the cases its own re-checks opened", async () => {
    expect(await openCase("VP-101")).toBeNull();
    // The employee import ends Arjun's employment (EMP-1008, VP-101) and adds Ana; the roster import seats Ana on
    // VP-101 right after, before the first import's re-check has run.
    const first = await upload(
      "employees",
      "workday-ended.csv",
      employeesFile((rows) => {
        hrisRow(rows, "EMP-1008")[HRIS.WORKER_STATUS] = "Terminated";
        const ana = [...hrisRow(rows, "EMP-1074")];
        ana[0] = "EMP-2001";
        ana[1] = "Ana";
        ana[2] = "Lopez";
        ana[3] = "ana.lopez@northwind.example";
        rows.push(ana);
      }),
    );
    const roster = fs.readFileSync(new URL("../../docs/examples/riders.csv", import.meta.url), "utf8");
    const second = await upload("riders", "riders-ana.csv", `${roster.trimEnd()}\r\nP-20001,VP-101,EMP-2001\r\n`);
    expect(first.reaudits).toEqual(["VP-101"]);
    expect(second.reaudits).toEqual(["VP-101"]);

    const [one, two] = [await finalSummary("workday-ended.csv"), await finalSummary("riders-ana.csv")];
    const opened = await openCase("VP-101");
    expect(opened).toMatchObject({ failedChecks: ["employment"], meta: { flagged: ["EMP-1008"] } });
    // Whichever re-check ran first opened the case; the other finds it open and says which import opened it.
    const opener = await h.db.prisma.importRecheck.findFirstOrThrow({
      where: { vanpoolId: "VP-101", importId: { in: [first.id, second.id] }, outcome: "new_case" },
    });
    const employeeFirst = opener.importId === first.id;
    const counts = (n: number) => `1 vanpool re-checked, 0 cases resolved, ${n === 1 ? "1 new case" : "0 new cases"}`;
    expect(one.text).toBe(
      `Employee import from workday-ended.csv: 1 employee changed, 1 joined, 0 left; ${counts(employeeFirst ? 1 : 0)}`,
    );
    expect(two.text).toBe(
      `Roster import from riders-ana.csv: 0 riders changed, 1 joined, 0 left; ${counts(employeeFirst ? 0 : 1)}`,
    );
    const [openerTs, otherTs, openerWords] = employeeFirst
      ? [one.ts, two.ts, "the employee import from workday-ended.csv"]
      : [two.ts, one.ts, "the roster import from riders-ana.csv"];
    await detailsSay(openerTs, `VP-101: new case ${opened?.id}`);
    await detailsSay(otherTs, `VP-101: still failing (case ${opened?.id} opened by ${openerWords})`);
  }, 240_000);

  it("a shift whose times change re-checks the vans of the riders who work it, and only those", async () => {
    const riding = await h.db.prisma.rider.findMany({
      where: { status: "active", employee: { shiftId: "SHIFT_EARLY_DAY" } },
      select: { vanpoolId: true },
    });
    const vans = [...new Set(riding.map((r) => r.vanpoolId))].sort();
    expect(vans.length).toBeGreaterThan(0);
    const header = "shift_id,name,days,start_time,end_time\n";
    const renamed = await upload(
      "shifts",
      "shifts-renamed.csv",
      `${header}SHIFT_EARLY_DAY,Early Shift,Mon-Fri,06:00,14:30\n`,
    );
    expect(renamed.reaudits).toEqual([]);
    const moved = await upload(
      "shifts",
      "shifts-moved.csv",
      `${header}SHIFT_EARLY_DAY,Early Shift,Mon-Fri,04:00,12:30\n`,
    );
    expect(moved.reaudits).toEqual(vans);
    const rechecks = await h.db.prisma.importRecheck.findMany({ where: { importId: moved.id } });
    expect(rechecks.map((r) => r.vanpoolId).sort()).toEqual(vans);
    const summary = await finalSummary("shifts-moved.csv");
    expect(String(summary.text)).toMatch(
      new RegExp(
        `^Shift import from shifts-moved\\.csv: 1 shift changed, 0 added; ${vans.length} vanpools? re-checked, `,
      ),
    );
  }, 180_000);
});
