// What a crashed process leaves behind is taken back when a bot starts: agent runs it left
// `running` are marked failed, and the job it was running goes back to its queue and runs
// once. Work of a process that is still alive is left alone.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createInstanceRegistry, type InstanceRegistry } from "../../src/data/instance-repository.js";
import { QUEUES } from "../../src/queue/queues.js";
import { AUDIT_CHANNEL, type Harness, startHarness } from "../support/bot-harness.js";
import { waitFor } from "../support/wait.js";

let h: Harness;
let registry: InstanceRegistry;
beforeAll(async () => {
  h = await startHarness();
  registry = createInstanceRegistry(h.db.url);
});
afterAll(async () => {
  await registry.close();
  await h.close();
});

const runningRun = (caseId: string, vanpoolId: string) =>
  h.db.prisma.agentRun.create({
    data: { agent: "case_manager", model: "rules", caseId, vanpoolId, status: "running", startedAt: new Date() },
  });

describe("start-up recovery", () => {
  it("fails the runs of a crashed process, re-runs its job once, and leaves a live process's run alone", async () => {
    const { case_id: caseId } = await h.bot.ctx.workflow.auditVanpool("VP-111");
    await h.bot.idle();
    const alert = await h.db.prisma.case.findUniqueOrThrow({ where: { id: caseId! } });

    // A process that crashed mid-work: its heartbeat lapsed, its run and its job are still marked with it.
    await h.jobs.stopWorkers();
    const crashed = await runningRun(caseId!, "VP-111");
    await registry.mark(`run:${crashed.id}`, "crashed-instance");
    await h.jobs.boss.send(QUEUES.threadNote, { caseId, text: "A note the crashed process was posting." });
    const [job] = await h.jobs.boss.fetch(QUEUES.threadNote);
    await registry.mark(`job:${QUEUES.threadNote}:${job!.id}`, "crashed-instance");
    // A replica that is alive and working.
    await registry.beat("live-instance", 600_000);
    const live = await runningRun(caseId!, "VP-111");
    await registry.mark(`run:${live.id}`, "live-instance");
    // A run with no mark that started a minute ago may still be running somewhere: not touched either.
    const unmarked = await runningRun(caseId!, "VP-111");

    await h.restart();

    expect(await h.db.prisma.agentRun.findUniqueOrThrow({ where: { id: crashed.id } })).toMatchObject({
      status: "failed",
      error: expect.stringMatching(/stopped before it finished/),
    });
    expect((await h.db.prisma.agentRun.findUniqueOrThrow({ where: { id: live.id } })).status).toBe("running");
    expect((await h.db.prisma.agentRun.findUniqueOrThrow({ where: { id: unmarked.id } })).status).toBe("running");

    const posted = () =>
      h.fake.thread(AUDIT_CHANNEL, alert.slackTs!).filter((m) => /crashed process was posting/.test(String(m.text)));
    await waitFor(
      "the crashed process's note job to complete",
      async () => (await h.jobs.boss.getJobById(QUEUES.threadNote, job!.id))?.state === "completed",
      { timeoutMs: 30_000 },
    );
    expect(posted()).toHaveLength(1);
    // A second recovery (another replica starting) finds nothing more to take back.
    expect(await h.jobs.retryOrphans()).toBe(0);
    expect(posted()).toHaveLength(1);
  });
});
