// A re-check or a follow-up asked for in a case thread whose work fails (the database drops out): the person who
// asked is told it did not happen, in the thread, instead of an answer that leaves it out.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALICE, AUDIT_CHANNEL, type Harness, startHarness } from "../support/bot-harness.js";
import { failNextInsert, faultFired } from "../support/db-faults.js";

let h: Harness;
let alertTs: string;
beforeAll(async () => {
  h = await startHarness();
  await h.audit("VP-111");
  alertTs = h.alertOf("VP-111").ts;
}, 60_000);
afterAll(async () => {
  await h.close();
});

async function ask(text: string) {
  await h.post(h.fake.userMessage({ user: ALICE, channel: AUDIT_CHANNEL, text, thread_ts: alertTs }).body);
  await h.bot.idle();
  return String(
    h.fake
      .thread(AUDIT_CHANNEL, alertTs)
      .filter((m) => m.bot_id)
      .at(-1)!.text,
  );
}

describe("an action asked for in conversation that fails", () => {
  it("a re-check whose audit could not start says it did not finish", async () => {
    await failNextInsert(h.db.prisma, { name: "recheck_run", table: "agent_runs" });
    const answer = await ask("re-check location please");
    expect(await faultFired(h.db.prisma, "recheck_run")).toBe(true);
    expect(answer).toMatch(/The re-check of VP-111 did not finish/);
    expect(answer).not.toMatch(/Re-checked VP-111/);
    expect(answer).not.toMatch(/injected fault|agent_runs/);
  });

  it("a follow-up whose draft could not be stored says nothing was drafted", async () => {
    const approvals = await h.db.prisma.approvalRequest.count();
    await failNextInsert(h.db.prisma, { name: "follow_up_draft", table: "approval_requests" });
    const answer = await ask("draft a follow-up to Diego");
    expect(await faultFired(h.db.prisma, "follow_up_draft")).toBe(true);
    expect(answer).toMatch(/The follow-up to Diego Fuentes \(EMP-1083\) was not drafted/);
    expect(answer).not.toMatch(/injected fault|approval_requests/);
    expect(await h.db.prisma.approvalRequest.count()).toBe(approvals);
  });
});
