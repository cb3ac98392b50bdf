// The end-to-end story over HTTP against the real bot on PostgreSQL: HR's weekly export comes in
// through POST /api/imports. Maribel (EMP-1065, VP-102's one flagged rider) moved closer: the re-audit the
// import queued resolves her case within a minute and her case alert says so. Isabel (EMP-1025, VP-104) is
// terminated in the export: an employment case opens straight to an approver, whose cancellation card
// proposes removing her, and no email goes to her work address (counted at the Resend stub).
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Harness } from "../support/bot-harness.js";
import { HRIS, hrisFile, hrisRow } from "../support/hris.js";
import { type ImportHarness, startImportHarness } from "../support/import-harness.js";
import type { ResendStub } from "../support/resend-stub.js";
import { waitFor } from "../support/wait.js";

let h: Harness;
let stub: ResendStub;
let upload: ImportHarness["upload"];
let close: () => Promise<void>;

beforeAll(async () => {
  ({ h, stub, upload, close } = await startImportHarness());
}, 60_000);

afterAll(() => close?.());

const blockText = (message: { text?: unknown; blocks?: unknown[] }) =>
  `${String(message.text)}\n${JSON.stringify(message.blocks ?? [])}`;

describe("an imported roster starts work", { shuffle: false }, () => {
  it("resolves a fixed rider's case, and sends a terminated rider's van to an approver without email", async () => {
    const open = await h.db.prisma.case.findFirstOrThrow({ where: { vanpoolId: "VP-102", status: "pending_reply" } });
    expect((open.meta as { flagged: string[] }).flagged).toEqual(["EMP-1065"]);
    expect(await h.db.prisma.case.count({ where: { vanpoolId: "VP-104" } })).toBe(0);
    const sentBefore = stub.sent.length;

    const file = hrisFile((rows) => {
      const maribel = hrisRow(rows, "EMP-1065");
      maribel[HRIS.HOME_ADDRESS] = "88 N 1st St";
      maribel[HRIS.HOME_CITY] = "San Jose";
      maribel[HRIS.HOME_ZIP] = "95112";
      hrisRow(rows, "EMP-1025")[HRIS.WORKER_STATUS] = "Terminated";
    });
    const started = Date.now();
    const imported = await upload("employees", "workday-2026-11-30.csv", fs.readFileSync(file, "utf8"));
    expect(imported.status).toBe(201);
    expect(JSON.stringify(imported.body)).toMatch(/VP-102/);
    expect(JSON.stringify(imported.body)).toMatch(/VP-104/);

    // The fixed case closes on the re-audit, well within a minute, and its alert says so.
    const resolved = await waitFor(
      "VP-102's case resolved",
      async () => {
        const record = await h.db.prisma.case.findUniqueOrThrow({ where: { id: open.id } });
        return record.status === "resolved" && record;
      },
      { timeoutMs: 60_000 },
    );
    expect(resolved.updatedAt.getTime() - started).toBeLessThan(60_000);
    await h.bot.idle();
    await waitFor("VP-102's alert updated", () => /Resolved/.test(blockText(h.alertOf("VP-102"))));

    // Isabel's van: an employment case waiting for an approver, her removal proposed.
    const employment = await waitFor(
      "VP-104's employment case",
      () => h.db.prisma.case.findFirst({ where: { vanpoolId: "VP-104", status: "pre_cancel" } }),
      { timeoutMs: 60_000 },
    );
    expect(employment.reason).toBe("employment_ended");
    expect(employment.failedChecks).toEqual(["employment"]);
    expect((employment.meta as { flagged: string[] }).flagged).toEqual(["EMP-1025"]);
    const approval = await waitFor("the removal request", () =>
      h.db.prisma.approvalRequest.findFirst({
        where: { caseId: employment.id, kind: "cancellation", status: "pending" },
      }),
    );
    expect((approval.payload as { employee_ids: string[] }).employee_ids).toEqual(["EMP-1025"]);
    await h.bot.idle();
    const card = await waitFor("the cancellation card", () => {
      try {
        return h.cardWith("VP-104", "remove_rider:EMP-1025");
      } catch {
        return undefined;
      }
    });
    const shown = blockText(card);
    expect(shown).toMatch(/no longer works here \(terminated on [A-Z][a-z]+ \d{1,2}\): remove from \*VP-104\*\?/);
    expect(shown).toContain("Not emailed: they no longer work here.");
    expect(shown).not.toMatch(/employment_ended|pre_cancel|isabel\.cardenas@/);

    // No email at all to the departed employee; nothing else was emailed by this import either.
    await h.bot.idle();
    const toIsabel = stub.sent.filter((m) => JSON.stringify(m.body.to).includes("isabel.cardenas@"));
    expect(toIsabel).toHaveLength(0);
    expect(stub.sent.length).toBe(sentBefore);
  }, 120_000);
});
