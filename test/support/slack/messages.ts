// Reading what the bot posted to the fake Slack: a message's buttons, a vanpool's case alert, and the
// cards in its thread.
import type { Button, KnownBlock } from "@slack/types";
import type { FakeSlack, SlackMessage } from "./fake-slack.js";

/** A button the bot posted: every one has an action id. */
export type ActionButton = Button & { action_id: string };

const isActionButton = (element: { type: string; action_id?: string }): element is ActionButton =>
  element.type === "button" && typeof element.action_id === "string";

/** Every button of a message, in actions blocks and as section accessories, in the order shown. */
export function buttonsOf(message: { blocks?: unknown[] }): ActionButton[] {
  return ((message.blocks ?? []) as KnownBlock[])
    .flatMap((block) => [
      ...("elements" in block ? block.elements : []),
      ...("accessory" in block && block.accessory ? [block.accessory] : []),
    ])
    .filter(isActionButton);
}

/** The buttons in a message's rows of actions (its decisions), without section accessories such as "Show full reply". */
export function actionButtonsOf(message: { blocks?: unknown[] }): ActionButton[] {
  return ((message.blocks ?? []) as KnownBlock[])
    .flatMap((block) => (block.type === "actions" ? block.elements : []))
    .filter(isActionButton);
}

/** The message's button whose action id is `actionId` (or matches it); fails naming the buttons there. */
export function buttonOf(message: { blocks?: unknown[] }, actionId: string | RegExp): ActionButton {
  const buttons = buttonsOf(message);
  const found = buttons.find((b) =>
    typeof actionId === "string" ? b.action_id === actionId : actionId.test(b.action_id),
  );
  if (!found)
    throw new Error(`No button ${actionId} on this message; it has ${buttons.map((b) => b.action_id).join(", ")}`);
  return found;
}

/** The case alert the bot posted for a vanpool in `channel` ("VP-111 …: location check failed (CASE-…)"). */
export function alertOf(fake: FakeSlack, channel: string, vanpoolId: string): SlackMessage {
  const alert = fake
    .messages(channel)
    .find((m) => String(m.text).startsWith(`${vanpoolId} `) && String(m.text).includes("CASE-"));
  if (!alert) throw new Error(`No case alert for ${vanpoolId} in ${channel}`);
  return alert;
}

/** The first message in the thread of a vanpool's case alert that `matches`. */
export function cardOf(
  fake: FakeSlack,
  channel: string,
  vanpoolId: string,
  matches: (message: SlackMessage) => boolean,
): SlackMessage | undefined {
  return fake.thread(channel, alertOf(fake, channel, vanpoolId).ts).find(matches);
}

/** A card matcher: its text starts like this. */
export const titled =
  (start: RegExp | string) =>
  (message: SlackMessage): boolean =>
    typeof start === "string" ? String(message.text).startsWith(start) : start.test(String(message.text));

/** A card matcher: it has this button. */
export const withButton =
  (actionId: string) =>
  (message: SlackMessage): boolean =>
    buttonsOf(message).some((b) => b.action_id === actionId);
