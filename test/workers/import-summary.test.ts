// One channel message per import: the bot posts its summary once (a retried job, a second poster or a
// failed post does not make a second), with the details in its thread, and fills in the re-checks'
// outcomes (cases resolved, new cases) as the re-audit jobs finish, by updating the same message.
import { afterAll, beforeAll, expect, it } from "vitest";
import { JOB_SCHEMA } from "../../src/data/job-repository.js";
import { importJobs, QUEUES } from "../../src/queue/queues.js";
import { createImportAnnouncer } from "../../src/slack/import-summary-post.js";
import { AUDIT_CHANNEL, type Harness, startHarness } from "../support/bot-harness.js";
import { runCli } from "../support/cli.js";
import { HRIS, HRIS_MAPPING, hrisFile, hrisRow } from "../support/hris.js";
import { waitFor } from "../support/wait.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const summaries = () => h.fake.messages(AUDIT_CHANNEL).filter((m) => /^Employee import from /.test(String(m.text)));
const summaryPosts = () =>
  h.fake
    .callsTo("chat.postMessage")
    .filter((c) => /^Employee import from /.test(String(c.body.text)) && (c.response as { ok?: boolean })?.ok);

/** The re-check and summary jobs as the job engine holds them, for a failure's message. */
async function jobsNow(): Promise<string> {
  const { rows } = await h.db.pool.query(
    `SELECT name, state, retry_count, output FROM ${JOB_SCHEMA}.job WHERE name = ANY($1) ORDER BY created_on`,
    [[QUEUES.auditVanpool, QUEUES.importSummary]],
  );
  return JSON.stringify(rows);
}

/** Both riders VP-111's case flags for distance now live in Fremont, by its work site. */
const bothMovedCloser = (rows: string[][]) => {
  for (const id of ["EMP-1028", "EMP-1083"]) {
    const row = hrisRow(rows, id);
    row[HRIS.HOME_ADDRESS] = "41 Mowry Ave";
    row[HRIS.HOME_CITY] = "Fremont";
    row[HRIS.HOME_ZIP] = "94538";
  }
};

it("posts one summary per import, details in its thread, and counts the case its re-check resolved", async () => {
  await h.audit("VP-111");
  const { id: caseId } = await waitFor(
    "VP-111's case",
    () => h.db.prisma.case.findFirst({ where: { vanpoolId: "VP-111", status: { notIn: ["resolved", "cancelled"] } } }),
    { timeoutMs: 60_000 },
  );
  // The first post fails at Slack: the job is retried and still posts one summary.
  h.fake.failNext("chat.postMessage", "internal_error");
  const file = hrisFile(bothMovedCloser);
  const imported = await runCli(["import", "employees", file, "--mapping", HRIS_MAPPING, "--as", "hr-sync"], {
    DATABASE_URL: h.db.url,
  });
  expect(imported.code, imported.stderr).toBe(0);
  const importId = /Kept as (IMP-[0-9A-F]+)/.exec(imported.stdout)?.[1];
  expect(importId, imported.stdout).toBeDefined();
  // A second poster racing the bot's job (another replica, a retry) adds no message.
  const announcer = createImportAnnouncer(h.bot.ctx);
  // (Whichever attempt meets the failed post throws; a job retries it.)
  await Promise.allSettled([announcer.announce(importId!), announcer.announce(importId!)]);

  const done = await waitFor(
    "the summary to count the resolved case",
    () => summaries().find((m) => /1 vanpool re-checked, 1 case resolved/.test(String(m.text))),
    { timeoutMs: 60_000 },
  ).catch(async (error: Error) => {
    // Once seen under load and not since: say what the channel showed and where the jobs stood.
    throw new Error(
      `${error.message}. Summaries: ${JSON.stringify(summaries().map((m) => m.text))}. Jobs: ${await jobsNow()}`,
    );
  });
  expect(done.text).toBe(
    "Employee import from workers.csv: 2 employees changed, 0 joined, 0 left; 1 vanpool re-checked, 1 case resolved, 0 new cases",
  );
  expect(await h.db.prisma.case.findUniqueOrThrow({ where: { id: caseId } })).toMatchObject({ status: "resolved" });
  await h.bot.idle();
  expect(summaries()).toHaveLength(1);
  expect(summaryPosts()).toHaveLength(1);
  // Before the re-check finished the same message said it was running: it was updated, not posted again.
  expect(h.fake.messageHistory(done.ts).map((m) => m.text)).toContainEqual(
    expect.stringMatching(/1 vanpool re-checking \(0 done\)/),
  );

  const details = await waitFor("the details in the summary's thread", () =>
    h.fake.thread(AUDIT_CHANNEL, done.ts).find((m) => /Details of the employee import/.test(String(m.text))),
  );
  const shown = JSON.stringify(details.blocks);
  expect(shown).toContain("EMP-1028 (");
  expect(shown).toContain("home address, home city, home ZIP");
  expect(shown).toContain(`VP-111: case ${caseId} resolved`);
  // The channel names the fields that changed, never the new street address.
  expect(JSON.stringify([done.text, done.blocks, details.text, details.blocks])).not.toMatch(
    /Mowry|94538|U0[A-Z0-9]{4,}/,
  );

  // Asked again (a retried job): updated in place, nothing new posted.
  await importJobs(h.jobs).summary(importId!);
  await h.bot.idle();
  await new Promise((r) => setTimeout(r, 1500));
  expect(summaries()).toHaveLength(1);
  expect(h.fake.thread(AUDIT_CHANNEL, done.ts).filter((m) => /Details of/.test(String(m.text)))).toHaveLength(1);

  // The same file again changes nothing: no second summary.
  const again = await runCli(["import", "employees", file, "--mapping", HRIS_MAPPING], { DATABASE_URL: h.db.url });
  expect(again.stdout).toMatch(/nothing changed/);
  await new Promise((r) => setTimeout(r, 1500));
  expect(summaries()).toHaveLength(1);
}, 240_000);
