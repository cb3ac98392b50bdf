// `poolpatrol jobs` and `poolpatrol quarantine`, with the context each needs.
import { createCaseWorkflow } from "../cases/case-workflow.js";
import { out } from "./command-kit.js";
import { loadSettings, withContext } from "./context.js";
import { jobsCommand } from "./jobs-command.js";
import { quarantineCommand } from "./quarantine-command.js";

const given = (args: (string | undefined)[]) => args.filter((a): a is string => a !== undefined);

export async function jobs(args: (string | undefined)[]): Promise<void> {
  await withContext(loadSettings(), async (ctx) => out(`${await jobsCommand(ctx, given(args))}\n`), {
    jobs: "worker",
  });
}

/** An assigned email is taken in as that thread's reply: its case jobs run before the command exits. */
export async function quarantine(args: (string | undefined)[]): Promise<void> {
  await withContext(
    loadSettings(),
    async (ctx) => {
      const deps = { prisma: ctx.db.prisma, workflow: createCaseWorkflow(ctx.agentDeps), now: ctx.agentDeps.now };
      out(`${await quarantineCommand(deps, given(args))}\n`);
    },
    { jobs: "worker" },
  );
}
