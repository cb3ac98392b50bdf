// A private note to whoever clicked a button: ephemeral in the thread of the message
// clicked (cards live in a case's thread), or a direct message from App Home.
import type { BlockAction } from "@slack/bolt";
import type { WebClient } from "@slack/web-api";

export interface ClickPlace {
  user: { id: string };
  channel?: { id: string };
  /** The thread of the message clicked: its own thread_ts, or its ts when it starts the thread. */
  threadTs?: string;
}

export function clickPlace(body: BlockAction): ClickPlace {
  const message = body.message as { ts?: string; thread_ts?: string } | undefined;
  const container = body.container as { thread_ts?: string; message_ts?: string } | undefined;
  return {
    user: body.user,
    channel: body.channel ? { id: body.channel.id } : undefined,
    threadTs: message?.thread_ts ?? container?.thread_ts ?? message?.ts ?? container?.message_ts,
  };
}

export async function tellClicker(client: WebClient, place: ClickPlace | BlockAction, text: string): Promise<void> {
  const where = "type" in place ? clickPlace(place) : place;
  if (where.channel?.id)
    await client.chat.postEphemeral({
      channel: where.channel.id,
      user: where.user.id,
      text,
      ...(where.threadTs ? { thread_ts: where.threadTs } : {}),
    });
  else await client.chat.postMessage({ channel: where.user.id, text });
}
