// Slack users' display names, asked for once per process (users.info): what the web pages and the
// report's case register show instead of raw user ids.
import type { WebClient } from "@slack/web-api";

const KEEP = 1000;

export function createUserNames(client: WebClient): (userId: string) => Promise<string> {
  const names = new Map<string, Promise<string>>();
  return (userId) => {
    if (!names.has(userId)) {
      if (names.size >= KEEP) names.clear();
      names.set(
        userId,
        client.users
          .info({ user: userId })
          .then(({ user }) => user?.real_name || user?.name || "a Slack user")
          .catch(() => "a Slack user"),
      );
    }
    return names.get(userId)!;
  };
}
