// `/poolpatrol report [period]` over signed requests against the local Slack: the figures posted in
// the audit channel, the case register uploaded as a CSV file (one row per case and rider, counts equal
// to the digest's for the same window), approvers only, bad periods refused, a failed upload, and an
// upload whose attempt was killed before or after Slack took the file.
import { WebClient } from "@slack/web-api";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPersonActions } from "../../src/cases/person-actions.js";
import { parsePeriod } from "../../src/domain/report-period.js";
import { registerFileName } from "../../src/slack/report.js";
import { ALICE, AUDIT_CHANNEL, CAROL, type Harness, startHarness } from "../support/bot-harness.js";
import type { SlackMessage } from "../support/slack/fake-slack.js";

const REPORT = /^Pool Patrol report/;
const VANPOOLS = ["VP-111", "VP-102", "VP-103"];

describe("/poolpatrol report", () => {
  let h: Harness;
  let closedCase: string;

  beforeAll(async () => {
    h = await startHarness();
    for (const vanpool of VANPOOLS) await h.audit(vanpool);
    // A person closes one case, keeping its riders with an exception (as the "needs a person" modal does).
    const record = await h.db.prisma.case.findFirstOrThrow({ where: { vanpoolId: "VP-111" } });
    closedCase = record.id;
    await h.db.prisma.case.update({ where: { id: closedCase }, data: { status: "hitl_review" } });
    await createPersonActions(h.deps).closeAsResolved(closedCase, ALICE, "moving closer next month", {
      reason: "moving_soon",
      note: "moving closer next month",
    });
    await h.bot.idle();
  }, 120_000);

  afterAll(async () => {
    await h?.close();
  });

  const reports = () => h.fake.messages(AUDIT_CHANNEL).filter((m) => REPORT.test(String(m.text)));
  const shared = () => h.fake.messages(AUDIT_CHANNEL).filter((m) => Array.isArray(m.files));
  const fileOf = (message: SlackMessage) =>
    (message.files as { id: string; name: string; url_private_download: string }[])[0]!;
  async function ask(user: string, text: string) {
    const answer = await h.command(user, text);
    await h.bot.idle();
    return answer;
  }

  it("refuses a person who is not an approver, privately, and posts nothing", async () => {
    const before = h.fake.calls.length;
    const answer = await ask(CAROL, "report last week");
    expect(answer.response_type).toBe("ephemeral");
    expect(answer.text).toMatch(/^Only approvers can ask for a report/);
    const made = h.fake.calls.slice(before).map((c) => c.method);
    expect(made).not.toContain("chat.postMessage");
    expect(made).not.toContain("files.getUploadURLExternal");
    expect(reports()).toHaveLength(0);
  });

  it("answers a period it cannot read with what it can, and posts nothing", async () => {
    const answer = await ask(ALICE, "report next week");
    expect(answer.text).toMatch(/I don't know that period\. You wrote `next week`\./);
    expect(answer.text).toContain("`last month`");
    expect(answer.text).toContain("`2026-11-01..2026-11-27`");
    expect((await ask(ALICE, "report 2026-11-20..2026-11-01")).text).toMatch(/before the first/);
    expect(reports()).toHaveLength(0);
  });

  it("posts the figures and uploads the case register: one row per case and rider, counts equal to the digest's", async () => {
    const answer = await ask(ALICE, "report 366d");
    expect(answer.text).toMatch(/^Preparing the report for last 366 days \(/);
    const [report] = reports();
    expect(report).toBeDefined();
    const responses = h.fake.responses().map((r) => (r.body as { text?: string }).text ?? "");
    expect(responses.at(-1)).toMatch(/^Report for last 366 days .* posted in <#C0AUDIT> with its case register\.$/);

    // The file, as a person downloads it from the channel.
    const files = shared();
    expect(files).toHaveLength(1);
    const file = fileOf(files[0]!);
    expect(file.name).toMatch(/^case-register-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
    const download = await fetch(file.url_private_download);
    expect(download.headers.get("content-disposition")).toContain(`attachment; filename="${file.name}"`);
    const rows = parse(await download.text(), { columns: true }) as Record<string, string>[];

    // The window: the last 366 days, which hold the seeded cases and the one opened above.
    const period = parsePeriod("366d", new Date(), h.deps.settings.timeZone);
    if ("error" in period) throw new Error(period.error);
    const since = period.since;
    const cases = await h.db.prisma.case.findMany({
      where: { OR: [{ createdAt: { gte: since } }, { resolvedAt: { gte: since } }] },
    });
    expect(cases.map((c) => c.vanpoolId)).toEqual(expect.arrayContaining(VANPOOLS));
    expect(cases.length).toBeGreaterThanOrEqual(3);
    const expected = cases.flatMap((c) =>
      ((c.meta as { flagged?: string[] }).flagged ?? []).map((e) => `${c.id} ${e}`),
    );
    expect(rows.map((r) => `${r.case} ${r["rider id"]}`).sort()).toEqual(expected.sort());
    const employees = await h.db.prisma.employee.findMany({ where: { id: { in: rows.map((r) => r["rider id"]!) } } });
    for (const row of rows) {
      const person = employees.find((e) => e.id === row["rider id"])!;
      expect(row["rider name"]).toBe(`${person.firstName} ${person.lastName}`);
      expect(row.check).toMatch(/^(location|shift)( and shift)?$/);
      expect(row.opened).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
      const record = cases.find((c) => c.id === row.case)!;
      if (row.case === closedCase) {
        expect(row).toMatchObject({ outcome: "resolved", "decided by": "alice", reason: "exception: moving soon" });
        expect(row.closed).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
      } else if (!record.resolvedAt) {
        expect(row).toMatchObject({ closed: "", "decided by": "", reason: "" });
        expect(row.outcome).toMatch(/^open: /);
      }
    }
    // Nobody's raw Slack id, email address or street in the file.
    const text = JSON.stringify(rows);
    expect(text).not.toMatch(/U0ALICE|@example|\d+ [A-Z][a-z]+ (St|Ave|Blvd)/);

    // The digest of the same window counts the same cases.
    const reportCall = h.fake.callsTo("chat.postMessage").find((c) => REPORT.test(String(c.body.text)))!;
    const digest = await h.bot.digest.build(since);
    const opened = cases.filter((c) => c.createdAt >= since).length;
    const resolved = cases.filter((c) => c.status === "resolved" && c.resolvedAt! >= since).length;
    const cancelled = cases.filter((c) => c.status === "cancelled" && c.resolvedAt! >= since).length;
    expect(resolved).toBeGreaterThanOrEqual(1);
    expect(digest.text).toMatch(
      new RegExp(`^Pool Patrol digest: ${opened} new cases,.* ${resolved} resolved, ${cancelled} cancelled$`),
    );
    expect(String(reportCall.body.text)).toMatch(
      new RegExp(`: ${opened} cases opened, ${resolved + cancelled} closed$`),
    );
    const blocks = JSON.stringify(report!.blocks);
    expect(blocks).toContain(`*Cases opened*\\n${opened}: `);
    expect(blocks).toContain(`*Cases closed*\\n${resolved + cancelled}: ${resolved} resolved, ${cancelled} cancelled`);
    expect(blocks).toContain("*Exceptions granted*\\n");
    expect(blocks).toMatch(/\*Emails\*\\n\d+ sent · 0 could not be sent/);
    const automation = /\*Automation rate\*\\n(\d+% of \d+ closed cases?)/.exec(blocks)?.[1];
    expect(automation).toBeDefined();
    expect(JSON.stringify(digest.blocks)).toContain(automation);
  });

  it("still posts the figures when Slack refuses the file, tells the person, and never uploads twice on a retry", async () => {
    const filesBefore = shared().length;
    const reportsBefore = reports().length;
    // Every attempt of the upload fails (the SDK retries it twice).
    h.fake.failUploadsNext(500, 3);
    const answer = await ask(ALICE, "report this month");
    expect(answer.text).toMatch(/^Preparing the report for this month/);
    expect(reports()).toHaveLength(reportsBefore + 1);
    expect(shared()).toHaveLength(filesBefore);
    const told = h.fake.responses().at(-1)!.body as { text: string };
    expect(told.text).toMatch(/posted in <#C0AUDIT>, but its case register could not be attached/);
    const report = reports().at(-1)!;
    const note = h.fake.thread(AUDIT_CHANNEL, report.ts).at(-1)!;
    expect(note.text).toMatch(/^The case register could not be attached to this report/);

    // The job runs again for the same command (a retry): no second report, no second upload.
    const key = (
      await h.db.prisma.slackPostIntent.findFirstOrThrow({
        where: { key: { startsWith: "report-file:" }, ts: "failed" },
      })
    ).key.slice("report-file:".length);
    const uploadsBefore = h.fake.callsTo("files.getUploadURLExternal").length;
    const since = new Date(Date.now() - 86_400_000);
    await h.bot.report.post({ key, since, until: new Date(), label: "this month" });
    expect(h.fake.callsTo("files.getUploadURLExternal")).toHaveLength(uploadsBefore);
    expect(reports()).toHaveLength(reportsBefore + 1);
  });

  it("waits out a rate-limited upload and shares the file once", async () => {
    const filesBefore = shared().length;
    h.fake.failUploadsNext(429, 1);
    await ask(ALICE, "report 3d");
    expect(shared()).toHaveLength(filesBefore + 1);
    expect(h.fake.files().filter((f) => f.shared)).toHaveLength(filesBefore + 1);
    const key = fileOf(shared().at(-1)!).id;
    // Asked again with the same command: the kept upload is found, nothing is uploaded.
    const intent = await h.db.prisma.slackPostIntent.findFirstOrThrow({ where: { ts: key } });
    const uploads = h.fake.callsTo("files.completeUploadExternal").length;
    await h.bot.report.post({
      key: intent.key.slice("report-file:".length),
      since: new Date(Date.now() - 3 * 86_400_000),
      until: new Date(),
      label: "last 3 days",
    });
    expect(h.fake.callsTo("files.completeUploadExternal")).toHaveLength(uploads);
    expect(shared()).toHaveLength(filesBefore + 1);
  });

  describe("after an attempt killed halfway (its claim left behind, expired)", () => {
    const daysBack = (days: number) => ({
      since: new Date(Date.now() - days * 86_400_000),
      until: new Date(),
      label: `last ${days} days`,
    });
    async function leaveExpiredClaim(key: string) {
      await h.db.prisma.slackPostIntent.create({
        data: {
          key: `report-file:${key}`,
          channel: AUDIT_CHANNEL,
          holder: "report:killed",
          intendedAt: new Date(Date.now() - 60_000),
          heldUntil: new Date(Date.now() - 1_000),
        },
      });
    }

    it("finds the file that attempt shared and does not upload it again", async () => {
      await leaveExpiredClaim("killed-after-upload");
      const window = daysBack(5);
      // What the killed attempt did before it could record it: the file is in the channel.
      const slack = new WebClient(h.fake.botToken, { slackApiUrl: h.fake.apiUrl });
      const filename = registerFileName(window, h.deps.settings.timeZone);
      await slack.filesUploadV2({ channel_id: AUDIT_CHANNEL, filename, content: "case\n", title: "Case register" });
      const filesBefore = shared().length;
      const uploads = h.fake.callsTo("files.getUploadURLExternal").length;

      const told = await h.bot.report.post({ key: "killed-after-upload", ...window });

      expect(told).toMatch(/posted in <#C0AUDIT> with its case register\.$/);
      expect(h.fake.callsTo("files.getUploadURLExternal")).toHaveLength(uploads);
      expect(shared()).toHaveLength(filesBefore);
    });

    it("uploads the file once when that attempt never shared it", async () => {
      await leaveExpiredClaim("killed-before-upload");
      const window = daysBack(6);
      const filesBefore = shared().length;

      const told = await h.bot.report.post({ key: "killed-before-upload", ...window });
      await h.bot.report.post({ key: "killed-before-upload", ...window });

      expect(told).toMatch(/posted in <#C0AUDIT> with its case register\.$/);
      expect(shared()).toHaveLength(filesBefore + 1);
    });
  });
});
