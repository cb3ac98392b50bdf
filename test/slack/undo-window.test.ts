// When the minutes to undo a carried-out cancellation are up, its card drops the Undo button by
// itself: nobody has to click it first to find out.
import { afterAll, beforeAll, expect, it } from "vitest";
import { ALICE, type Harness, startHarness } from "../support/bot-harness.js";
import { buttonsOf } from "../support/slack/messages.js";
import { waitFor } from "../support/wait.js";

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
  await h.audit("VP-102");
  const { caseId } = await h.cancellationProposedFor("VP-102");

  await h.click(ALICE, h.cancellationCardOf("VP-102"), "remove_rider:EMP-1065");
  await waitFor("the Undo button", hasUndo);
  expect((await h.db.prisma.case.findUniqueOrThrow({ where: { id: caseId } })).status).toBe("cancelled");

  await waitFor("the Undo button to go", () => !hasUndo());
  expect(JSON.stringify(h.cancellationCardOf("VP-102").blocks)).not.toMatch(/Undo is possible until/);
});
