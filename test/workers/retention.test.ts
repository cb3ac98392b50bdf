// The retention job (injected clock): checkpoint threads of work finished longer than
// POOLPATROL_CHECKPOINT_RETENTION_DAYS ago are deleted; a thread with a pending interrupt
// never is, however old; the records of Slack posts kept as their own record (thread notes) go
// after the same time, never a post still under way.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changeCase } from "../../src/data/case-repository.js";
import { holdPost } from "../../src/data/slack-post-repository.js";
import { AUDIT_CHANNEL, type Harness, startHarness } from "../support/bot-harness.js";

const DAY = 86_400_000;
let offset = 0;
const now = () => new Date(Date.now() + offset);
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ now, env: { POOLPATROL_CHECKPOINT_RETENTION_DAYS: "30" } });
});
afterAll(async () => {
  await h.close();
});

async function threads(pattern: string): Promise<string[]> {
  const { rows } = await h.db.pool.query<{ thread_id: string }>(
    `SELECT DISTINCT thread_id FROM langgraph.checkpoints WHERE thread_id LIKE $1 ORDER BY thread_id`,
    [pattern],
  );
  return rows.map((r) => r.thread_id);
}

async function runRetention(at: Date) {
  offset = at.getTime() - Date.now();
  await h.clock.fireRetention(at);
  await h.bot.idle();
}

describe("checkpoint retention", () => {
  it("deletes the threads of cases closed more than 30 days ago, never one with a pending interrupt", async () => {
    // A cancellation waiting on a person, on a case then closed by other means: its interrupt stays pending.
    const waiting = await h.bot.ctx.workflow.auditVanpool("VP-111");
    await h.bot.ctx.workflow.tick(new Date(Date.now() + 9 * DAY)); // no reply: a cancellation is proposed
    const approval = await h.db.prisma.approvalRequest.findFirstOrThrow({
      where: { caseId: waiting.case_id!, status: "pending" },
    });
    // A case that went its way and was closed.
    const done = await h.bot.ctx.workflow.auditVanpool("VP-109");
    await h.bot.idle();
    for (const caseId of [waiting.case_id!, done.case_id!])
      await changeCase(h.db.prisma, caseId, {
        status: "resolved",
        why: "settled by hand",
        actor: "person:U0ALICE",
        now: now(),
      });
    const interrupted = approval.graphThreadId!;
    const before = await threads("%");
    expect(before).toContain(interrupted);

    await runRetention(new Date(Date.now() + 29 * DAY));
    expect(await threads("%")).toEqual(before);

    await runRetention(new Date(Date.now() + 31 * DAY));
    const ours = (list: string[]) =>
      list.filter((t) => t.startsWith("audit:") || [waiting.case_id!, done.case_id!].some((id) => t.includes(id)));
    expect(ours(before).length).toBeGreaterThan(3);
    const after = await threads("%");
    expect(ours(after)).toEqual([interrupted]);
    // Threads of other cases, still open, are all kept.
    expect(after.filter((t) => !ours(before).includes(t))).toEqual(before.filter((t) => !ours(before).includes(t)));
  });
});

describe("records of Slack posts", () => {
  it("deletes the records of notes posted more than 30 days ago, never a post still under way", async () => {
    const { case_id: caseId } = await h.bot.ctx.workflow.auditVanpool("VP-102");
    await h.bot.idle();
    const record = await h.db.prisma.case.findUniqueOrThrow({ where: { id: caseId! } });
    await h.bot.messages.postInThread(record.id, "A note whose record outlives its retries.", "retention-note");
    // A post claimed and held (by a process at work on it), and one whose attempt never finished.
    await holdPost(h.db.prisma, { key: "note:retention-held", channel: AUDIT_CHANNEL, holder: "a", holdMs: 60 * DAY });
    await holdPost(h.db.prisma, { key: "note:retention-unfinished", channel: AUDIT_CHANNEL, holder: "b", holdMs: 0 });
    const keys = async () =>
      (await h.db.prisma.slackPostIntent.findMany({ where: { key: { startsWith: "note:retention-" } } }))
        .map((r) => r.key)
        .sort();
    const all = ["note:retention-held", "note:retention-note", "note:retention-unfinished"];
    expect(await keys()).toEqual(all);

    // Other nights than the test above's: one retention job per nightly slot.
    await runRetention(new Date(Date.now() + 28 * DAY));
    expect(await keys()).toEqual(all);

    await runRetention(new Date(Date.now() + 32 * DAY));
    expect(await keys()).toEqual(["note:retention-held", "note:retention-unfinished"]);
    // The note itself stays in Slack.
    const notes = h.fake
      .thread(AUDIT_CHANNEL, record.slackTs!)
      .filter((m) => /outlives its retries/.test(String(m.text)));
    expect(notes).toHaveLength(1);
  });
});
