// A private note to whoever clicked a button: ephemeral in the channel where the click
// happened (cards are broadcast there), or a direct message from App Home.
import type { BlockAction } from "@slack/bolt";
import type { WebClient } from "@slack/web-api";

export async function tellClicker(
  client: WebClient,
  body: Pick<BlockAction, "channel" | "user">,
  text: string,
): Promise<void> {
  if (body.channel?.id) await client.chat.postEphemeral({ channel: body.channel.id, user: body.user.id, text });
  else await client.chat.postMessage({ channel: body.user.id, text });
}
