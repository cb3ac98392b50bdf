// When the minutes to undo a carried-out cancellation are up, its card drops the Undo button by
// itself: nobody has to click it first to find out.
import { afterAll, beforeAll, expect, it } from "vitest";
import { buttonsOf } from "../support/slack/messages.js";
import { waitFor } from "../support/wait.js";
import { ALICE, AUDIT_CHANNEL, type Harness, startHarness } from "./harness.js";

let h: Harness;
beforeAll(async () => {
  // Three seconds to undo.
  h = await startHarness({ env: { POOLPATROL_UNDO_MINUTES: "0.05" } });
});
afterAll(async () => {
  await h.close();
});

const hasUndo = () => buttonsOf(h.cancellationCardOf("VP-102")).some((b) => b.action_id === "undo_cancellation");

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

  await h.click(ALICE, h.cancellationCardOf("VP-102"), "remove_rider:EMP-1065");
  await waitFor("the Undo button", hasUndo);
  expect((await h.db.prisma.case.findUniqueOrThrow({ where: { id: caseId } })).status).toBe("cancelled");

  await waitFor("the Undo button to go", () => !hasUndo());
  expect(JSON.stringify(h.cancellationCardOf("VP-102").blocks)).not.toMatch(/Undo is possible until/);
});
