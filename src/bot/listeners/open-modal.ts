// A modal opened at once: Slack's trigger id lasts 3 seconds, so the modal opens with a loading view
// before anything is looked up, then `fill` replaces it with the real view, or with a notice saying why
// there is nothing to show (a string). The lookups take their turn after other requests' acks (after-ack.ts).
import type { ModalView } from "@slack/types";
import { loadingModal, noticeModal } from "../../slack/blocks/modals.js";
import type { SlackContext } from "../slack-context.js";
import { afterAck } from "./after-ack.js";
import { databaseTrouble } from "./before-ack.js";

export const LOAD_FAILED = "Something went wrong looking this up. Close this and try again.";

export async function openModalAtOnce(
  ctx: Pick<SlackContext, "client" | "log">,
  triggerId: string,
  title: string,
  fill: () => Promise<ModalView | string>,
): Promise<void> {
  const opened = await ctx.client.views.open({ trigger_id: triggerId, view: loadingModal(title) });
  const viewId = opened.view?.id;
  if (!viewId) throw new Error("Slack opened the modal without saying its id.");
  await afterAck(async () => {
    let view: ModalView;
    try {
      const filled = await fill();
      view = typeof filled === "string" ? noticeModal(title, filled) : filled;
    } catch (error) {
      ctx.log.error(`${title}: ${(error as Error).message}`);
      view = noticeModal(title, databaseTrouble(error) ?? LOAD_FAILED);
    }
    await ctx.client.views.update({ view_id: viewId, view });
  });
}
