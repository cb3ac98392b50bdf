// `poolpatrol jobs` and `poolpatrol quarantine`, with the context each needs.

import { loadSettings, withContext, withDatabase } from "../app/context.js";
import { out } from "./command-kit.js";
import { jobsCommand, jobsReport } from "./jobs-command.js";

const given = (args: (string | undefined)[]) => args.filter((a): a is string => a !== undefined);

export async function jobs(args: (string | undefined)[]): Promise<void> {
  // The report only reads; a retry needs the job engine (and works the case queues).
  if (given(args).length === 0) {
    await withDatabase(loadSettings(), async (db) => out(`${await jobsReport(db)}\n`));
    return;
  }
  await withContext(loadSettings(), async (ctx) => out(`${await jobsCommand(ctx, given(args))}\n`), {
    jobs: "worker",
  });
}

/**
 * `list` only reads; an assigned email is taken in as that thread's reply: its case jobs run before
 * the command exits.
 */
export async function quarantine(args: (string | undefined)[]): Promise<void> {
  if (given(args).length === 1 && args[0] === "list") {
    const { listQuarantine } = await import("./quarantine-command.js");
    await withDatabase(loadSettings(), async (db) => out(`${await listQuarantine(db.prisma)}\n`));
    return;
  }
  const [{ createCaseWorkflow }, { quarantineCommand }] = await Promise.all([
    import("../cases/case-workflow.js"),
    import("./quarantine-command.js"),
  ]);
  await withContext(
    loadSettings(),
    async (ctx) => {
      const deps = { prisma: ctx.db.prisma, workflow: createCaseWorkflow(ctx.agentDeps), now: ctx.agentDeps.now };
      out(`${await quarantineCommand(deps, given(args))}\n`);
    },
    { jobs: "worker" },
  );
}
