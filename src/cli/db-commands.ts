// `db migrate` and `db seed`.
import path from "node:path";
import { loadSettings, withContext } from "../app/context.js";
import { log } from "../app/log.js";
import { type SeedResult, seedFolder } from "../cases/seed-folder.js";
import { PROJECT_ROOT } from "../config/settings.js";
import { insertFixturesInBulk, type WriteCounts } from "../data/seed.js";
import { generateSyntheticFixtures } from "../data/synthetic.js";
import { auditSeededCases } from "../verification/seeded-case-audits.js";
import { UsageError } from "./command-kit.js";

export async function migrateCommand(): Promise<void> {
  // Opening the context applies anything pending.
  await withContext(loadSettings(), async () => log("Database is up to date."));
}

export async function seedCommand(options: { from?: string; synthetic?: string; asWritten?: boolean }): Promise<void> {
  if (options.from && options.synthetic) throw new UsageError("Use --from or --synthetic, not both.");
  const settings = loadSettings();
  if (options.synthetic !== undefined) {
    const count = Number(options.synthetic);
    if (!Number.isInteger(count) || count < 1 || count > 100_000)
      throw new UsageError("--synthetic takes a whole number of vanpools between 1 and 100000.");
    await withContext(settings, async ({ db }) => {
      const started = Date.now();
      const fixtures = generateSyntheticFixtures(count);
      await insertFixturesInBulk(db.prisma, fixtures);
      log(
        `Seeded ${count} synthetic vanpools (${fixtures.employees.length} riders) in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
      );
    });
    return;
  }
  const dir = path.resolve(options.from ?? path.join(PROJECT_ROOT, "mock"));
  await withContext(settings, async ({ db, auditDeps }) => {
    const started = Date.now();
    // The bundled story is moved to end today, so its waiting cases are not overdue; a folder of one's own is as written.
    const seeded = await seedFolder(db, dir, options.from || options.asWritten ? {} : { asOf: new Date() });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const lines = seedLines(seeded);
    if (lines.length === 0) {
      log(`Seeded from ${dir}: nothing changed, every record is as stored (${seconds} s).`);
      return;
    }
    const audited = await auditSeededCases(auditDeps, seeded.cases);
    log(
      [
        `Seeded from ${dir} in ${seconds} s; the changes are kept in the history as "seed":`,
        ...lines.map((l) => `  ${l}`),
        `Audited the vanpools of ${audited.length} open cases.`,
      ].join("\n"),
    );
  });
}

/** A line for each kind the seed changed: what was added, changed and left. */
function seedLines(seeded: SeedResult): string[] {
  const counts = (parts: [string, number][]) =>
    parts
      .filter(([, n]) => n > 0)
      .map(([what, n]) => `${n} ${what}`)
      .join(", ");
  const writes = (name: string, c: WriteCounts) =>
    c.added + c.changed > 0
      ? `${name}: ${counts([
          ["added", c.added],
          ["changed", c.changed],
        ])}`
      : null;
  return [
    ...seeded.imports.map(({ kind, result }) =>
      result.added.length + result.changed.length + result.leaving.length > 0
        ? `${kind}: ${counts([
            ["added", result.added.length],
            ["changed", result.changed.length],
            ["left (absent from the folder)", result.leaving.length],
          ])}`
        : null,
    ),
    writes("cases", seeded.caseCounts.cases),
    writes("email threads", seeded.caseCounts.emailThreads),
    writes("messages", seeded.caseCounts.messages),
  ].filter((l): l is string => l !== null);
}
