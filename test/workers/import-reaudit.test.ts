// An import that changes a rider of a vanpool with an open case queues that vanpool's re-audit
// (test/cli/import.test.ts); here the bot runs it and says so in the case's thread.
import { afterAll, beforeAll, expect, it } from "vitest";
import { AUDIT_CHANNEL, type Harness, startHarness } from "../support/bot-harness.js";
import { runCli } from "../support/cli.js";
import { diegoMoved, HRIS_MAPPING, hrisFile } from "../support/hris.js";
import { waitFor } from "../support/wait.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

it("the bot re-audits the vanpool of an open case whose rider an import moved, and notes it in the case thread", async () => {
  await h.audit("VP-111");
  const alert = h.alertOf("VP-111");
  const runsBefore = await h.db.prisma.verificationRun.count({ where: { vanpoolId: "VP-111" } });

  const imported = await runCli(["import", "employees", hrisFile(diegoMoved), "--mapping", HRIS_MAPPING], {
    DATABASE_URL: h.db.url,
  });
  expect(imported.code, imported.stderr).toBe(0);
  expect(imported.stdout).toContain(
    "Re-checks queued for (a rider's home, shift, PTO, work site or employment changed): VP-111",
  );

  const note = await waitFor("the re-audit's note in the case thread", () =>
    h.fake
      .thread(AUDIT_CHANNEL, alert.ts)
      .find((m) => /^🔁 Re-checked after workers\.csv changed a rider: /.test(String(m.text))),
  );
  // In words: the result of each check (a home as a city and ZIP3, a distance band) and where the case stands.
  expect(String(note.text)).toMatch(/location (still fails|passes)/);
  expect(String(note.text)).toMatch(/The case is now \*Waiting for riders\*\.$/);
  expect(String(note.text)).not.toMatch(/\b\d{5}\b|@/);
  await h.bot.idle();
  expect(await h.db.prisma.verificationRun.count({ where: { vanpoolId: "VP-111" } })).toBeGreaterThan(runsBefore);
});
