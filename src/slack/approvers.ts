// Who may decide: Slack user ids listed in POOLPATROL_APPROVERS, or members of a
// user group listed there (resolved through usergroups.users.list, briefly cached).
import type { WebClient } from "@slack/web-api";

const CACHE_MS = 5 * 60_000;

export function createApproverCheck(client: WebClient, approvers: string[]) {
  const users = new Set(approvers.filter((id) => !id.startsWith("S")));
  const groups = approvers.filter((id) => id.startsWith("S"));
  let cache: { members: Set<string>; at: number } | undefined;

  async function groupMembers(): Promise<Set<string>> {
    if (cache && Date.now() - cache.at < CACHE_MS) return cache.members;
    const members = new Set<string>();
    for (const usergroup of groups) {
      const result = await client.usergroups.users.list({ usergroup });
      for (const id of result.users ?? []) members.add(id);
    }
    cache = { members, at: Date.now() };
    return members;
  }

  return async function isApprover(userId: string): Promise<boolean> {
    if (users.has(userId)) return true;
    return groups.length > 0 && (await groupMembers()).has(userId);
  };
}
