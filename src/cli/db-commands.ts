// `db migrate` and `db seed`.
import path from "node:path";
import { loadSettings, withContext } from "../app/context.js";
import { log } from "../app/log.js";
import { PROJECT_ROOT } from "../config/settings.js";
import { readFixtureDir } from "../data/fixtures.js";
import { insertFixturesInBulk, seedFixtures } from "../data/seed.js";
import { generateSyntheticFixtures } from "../data/synthetic.js";
import { auditSeededCases } from "../verification/seeded-case-audits.js";
import { UsageError } from "./command-kit.js";

export async function migrateCommand(): Promise<void> {
  // Opening the context applies anything pending.
  await withContext(loadSettings(), async () => log("Database is up to date."));
}

export async function seedCommand(options: { from?: string; synthetic?: string }): Promise<void> {
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
  const fixtures = readFixtureDir(dir);
  await withContext(settings, async ({ db, auditDeps }) => {
    const counts = await seedFixtures(db.prisma, fixtures);
    const audited = await auditSeededCases(auditDeps, fixtures.cases);
    log(
      `Seeded from ${dir}: ${Object.entries(counts)
        .map(([k, v]) => `${v} ${k}`)
        .join(", ")}; audited the vanpools of ${audited.length} open cases.`,
    );
  });
}
