// A Case Manager answer in Slack: a status line while its tools run ("is reading the location
// check…"), then the text streamed into the thread as it is written, ending with its sources.
// Posted once like every other message (post-once.ts): a retry after a crash mid-stream finishes
// the message it started, so a thread never shows two answers; the status is cleared on failure.
// The answer's mrkdwn is sent as standard markdown (markdown.ts), a table it wrote as a table block.
import type { KnownBlock } from "@slack/types";
import type { WebClient } from "@slack/web-api";
import { keptPost } from "../data/slack-post-repository.js";
import { splitTable } from "./blocks/answer.js";
import { mrkdwnToMarkdown } from "./markdown.js";
import { type PostOnceDeps, postKeptOnce, postOnce } from "./post-once.js";

const CHECKS: Record<string, string> = { location: "the location check", shift: "the shift check" };

/** What the status line says while a tool runs, after the app's name as Slack shows it: "Pool Patrol is reading the location check…". */
export function toolStatus(tool: string, input: string): string {
  let args: { check?: string } = {};
  try {
    args = JSON.parse(input) as { check?: string };
  } catch {
    // A tool called with no arguments: the status needs none.
  }
  switch (tool) {
    case "case_overview":
      return "is reading the case…";
    case "check_results":
      return `is reading ${CHECKS[args.check ?? ""] ?? "the check results"}…`;
    case "rider_replies":
      return "is reading the riders' replies…";
    case "emails_sent":
      return "is reading the emails sent…";
    case "next_steps":
      return "is looking at what comes next…";
    case "policy_sections":
      return "is reading the program policy…";
    case "vanpool_overview":
      return "is reading the vanpool…";
    case "program_figures":
      return "is counting the program's cases…";
    case "recheck":
      return "is re-checking the vanpool…";
    case "draft_follow_up":
      return "is drafting the follow-up…";
    case "approval_card":
      return "is finding the approval card…";
    default:
      return "is looking it up…";
  }
}

/** The answer in the pieces it is streamed in: line by line, so the sources arrive last. */
export function answerChunks(text: string): string[] {
  return text.split(/(?<=\n)/).filter((piece) => piece !== "");
}

export interface AnswerPlace {
  channel: string;
  /** Streaming needs a thread; a top-level DM question is answered with one message. */
  threadTs: string | undefined;
  /** Who asked, and their team: Slack streams to a person in a channel. */
  userId: string;
  teamId: string | undefined;
}

/** The thread's status line; best effort: an answer never fails because its status could not be shown. */
export function statusLine(client: WebClient, place: AnswerPlace, log: (message: string) => void) {
  let queue = Promise.resolve();
  let shown = "";
  const set = (status: string) => {
    const { threadTs } = place;
    if (!threadTs || status === shown) return queue;
    shown = status;
    queue = queue
      .then(() => client.assistant.threads.setStatus({ channel_id: place.channel, thread_ts: threadTs, status }))
      .then(
        () => undefined,
        (error: Error) => log(`Could not set the thread's status to "${status}": ${error.message}`),
      );
    return queue;
  };
  return {
    set: (status: string) => void set(status),
    clear: () => set(""),
    /** Waits for the status calls made so far. */
    settled: () => queue,
  };
}

/**
 * Posts the answer `answer` (mrkdwn) once for `key`, its table and then `blocks` after its text: streamed into its
 * thread, or as one message at the top of a DM.
 */
export async function postAnswerOnce(
  deps: PostOnceDeps,
  key: string,
  place: AnswerPlace,
  answer: string,
  extra: KnownBlock[] = [],
): Promise<{ channel: string; ts: string }> {
  const { text, table } = splitTable(mrkdwnToMarkdown(answer));
  const after: KnownBlock[] = [...(table ? [table] : []), ...extra];
  const blocks = after.length > 0 ? after : undefined;
  const { threadTs } = place;
  if (!threadTs)
    return postKeptOnce(deps, key, {
      channel: place.channel,
      text: answer,
      blocks: [{ type: "markdown", text }, ...after],
    });
  const { client } = deps;
  const channel = place.channel;
  return postOnce(deps, {
    key,
    args: { channel, thread_ts: threadTs, text: answer },
    posted: () => keptPost(deps.prisma, key),
    async deliver({ unfinished, started, metadata }) {
      if (unfinished) {
        // An earlier attempt's stream stopped part way: it becomes the whole answer.
        await client.chat.stopStream({ channel, ts: unfinished }).catch(() => undefined);
        await client.chat.update({
          channel,
          ts: unfinished,
          text: answer,
          blocks: [{ type: "markdown", text }, ...after],
          metadata,
        });
        return { channel, ts: unfinished };
      }
      const [first = text, ...rest] = answerChunks(text);
      const recipient = channel.startsWith("D")
        ? {}
        : { recipient_user_id: place.userId, ...(place.teamId ? { recipient_team_id: place.teamId } : {}) };
      const stream = await client.chat.startStream({
        channel,
        thread_ts: threadTs,
        markdown_text: first,
        ...recipient,
      });
      const ts = stream.ts!;
      await started(ts);
      for (const piece of rest) await client.chat.appendStream({ channel, ts, markdown_text: piece });
      await client.chat.stopStream({ channel, ts, metadata, ...(blocks ? { blocks } : {}) });
      return { channel, ts };
    },
  });
}
