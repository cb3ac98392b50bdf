// When the minutes to undo a carried-out cancellation are up, its card drops the Undo button by
// itself: nobody has to click it first to find out.
import { afterAll, beforeAll, expect, it } from "vitest";
import { ALICE, AUDIT_CHANNEL, type Harness, startHarness } from "./harness.js";

let h: Harness;
beforeAll(async () => {
  // Three seconds to undo.
  h = await startHarness({ env: { POOLPATROL_UNDO_MINUTES: "0.05" } });
});
afterAll(async () => {
  await h.close();
});

type Shown = { ts: string; text?: string; blocks?: unknown[] };
type Element = { type: string; action_id: string; value: string };
const buttonsOf = (message: { blocks?: unknown[] }) =>
  ((message.blocks ?? []) as { elements?: Element[]; accessory?: Element }[])
    .flatMap((b) => [...(b.elements ?? []), ...(b.accessory ? [b.accessory] : [])])
    .filter((e) => e.type === "button")
    .map((e) => ({ action_id: e.action_id, value: e.value }));
const alertOf = (vanpoolId: string) =>
  h.fake.messages(AUDIT_CHANNEL).find((m) => String(m.text).startsWith(vanpoolId) && String(m.text).includes("CASE-"))!;
const cardOf = (vanpoolId: string): Shown =>
  h.fake.thread(AUDIT_CHANNEL, alertOf(vanpoolId).ts).find((m) => /^Cancellation of/.test(String(m.text)))!;
const hasUndo = () => buttonsOf(cardOf("VP-102")).some((b) => b.action_id === "undo_cancellation");

async function waitFor(done: () => boolean, ms: number) {
  const until = Date.now() + ms;
  while (!done()) {
    if (Date.now() > until) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
  return true;
}

it("takes Undo off the card when its time is up, without a click", async () => {
  await h.post(
    h.fake.slashCommandBody({
      command: "/poolpatrol",
      text: "audit VP-102",
      user_id: ALICE,
      channel_id: AUDIT_CHANNEL,
    }),
  );
  await h.bot.idle();
  await h.bot.ctx.workflow.tick(new Date(Date.now() + 9 * 86_400_000));
  const { id: caseId } = await h.db.prisma.case.findFirstOrThrow({
    where: { vanpoolId: "VP-102", status: "pre_cancel" },
  });
  await h.bot.messages.syncCase(caseId);

  const remove = buttonsOf(cardOf("VP-102")).find((b) => b.action_id === "remove_rider:EMP-1065")!;
  await h.post(
    h.fake.blockActionPayload({
      user: { id: ALICE },
      channel: AUDIT_CHANNEL,
      message: cardOf("VP-102") as never,
      action: remove,
    }),
  );
  await h.bot.idle();
  expect(await waitFor(() => hasUndo(), 20_000)).toBe(true);
  expect((await h.db.prisma.case.findUniqueOrThrow({ where: { id: caseId } })).status).toBe("cancelled");

  expect(await waitFor(() => !hasUndo(), 20_000)).toBe(true);
  expect(JSON.stringify(cardOf("VP-102").blocks)).not.toMatch(/Undo is possible until/);
});
