// Updating a message Pool Patrol posted earlier, which people may have deleted since: Slack then
// answers with one of these errors, and the caller posts the message again instead of failing.
import type { ChatUpdateArguments, WebClient } from "@slack/web-api";
import type { ChannelPacer } from "./channel-pacer.js";

const GONE = new Set(["message_not_found", "cant_update_message", "channel_not_found", "is_archived"]);

/** Updates a message in place, paced; false when Slack no longer has it. */
export function updateInPlace(client: WebClient, pacer: ChannelPacer, args: ChatUpdateArguments): Promise<boolean> {
  return pacer.run(args.channel, async () => {
    try {
      await client.chat.update(args);
      return true;
    } catch (error) {
      if (GONE.has((error as { data?: { error?: string } }).data?.error ?? "")) return false;
      throw error;
    }
  });
}
