// A Case Manager answer in Slack: a status line while its tools run ("is reading the location
// check…"), then the text streamed into the thread as it is written, ending with its sources.
// Posted once like every other message (post-once.ts): a retry after a crash mid-stream finishes
// the message it started, so a thread never shows two answers; the status is cleared on failure.
// The answer's mrkdwn is sent as standard markdown (markdown.ts), a table it wrote as a table block.
import type { KnownBlock, TableBlock } from "@slack/types";
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

export interface AnswerPlace {
  channel: string;
  /** Streaming needs a thread; a top-level DM question is answered with one message. */
  threadTs: string | undefined;
  /** Who asked, and their team: Slack streams to a person in a channel. */
  userId: string;
  teamId: string | undefined;
}

/**
 * The thread's status line; best effort: an answer never fails because its status could not be shown. One call at
 * a time, and only the latest status waits for its turn: tools that start while a call is out are not shown one by
 * one, so the answer never waits behind statuses it has outrun.
 */
export function statusLine(client: WebClient, place: AnswerPlace, log: (message: string) => void) {
  let wanted = "";
  let shown = "";
  let held = false;
  let out: Promise<void> | undefined;
  const pump = () => {
    const { threadTs } = place;
    if (out || held || !threadTs || wanted === shown) return;
    const status = wanted;
    shown = status;
    out = client.assistant.threads
      .setStatus({ channel_id: place.channel, thread_ts: threadTs, status })
      .then(
        () => undefined,
        (error: Error) => log(`Could not set the thread's status to "${status}": ${error.message}`),
      )
      .finally(() => {
        out = undefined;
        pump();
      });
  };
  /** Waits until no call is out. */
  const idle = async () => {
    while (out) await out;
  };
  return {
    set(status: string) {
      wanted = status;
      pump();
    },
    /** The answer starts: no status is sent after the call that is out, which this waits for. */
    hold() {
      held = true;
      return idle();
    },
    /** Takes the status line down (a failure, or an answer finished by an update, leaves it up). */
    clear() {
      held = false;
      wanted = "";
      pump();
      return idle();
    },
  };
}

/** A promise with its settling functions at hand (Promise.withResolvers, which Node 20 lacks). */
function settleable() {
  let resolve = () => {};
  let reject: (error: unknown) => void = () => {};
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** An answer as it is written: pieces of mrkdwn in order, then its end, or its failure. */
export function answerFeed() {
  const pieces: string[] = [];
  let ended = false;
  let failure: { error: unknown } | undefined;
  let changed = settleable();
  const notify = () => {
    const woken = changed;
    changed = settleable();
    woken.resolve();
  };
  const first = settleable();
  const begin = () => first.resolve();
  const abort = (error: unknown) => first.reject(error);
  // Read only by a post that is still being claimed: a failure before then is the post's to report.
  first.promise.catch(() => undefined);
  return {
    write(piece: string) {
      if (ended || piece === "") return;
      pieces.push(piece);
      begin();
      notify();
    },
    end() {
      ended = true;
      begin();
      notify();
    },
    fail(error: unknown) {
      if (ended) return;
      ended = true;
      failure = { error };
      abort(error);
      notify();
    },
    /** Settles at the first words (or an answer of none); rejects when the answer failed before them. */
    started: first.promise,
    /** Every piece from the first, waiting for those still to come; throws when the answer fails. */
    async *read(): AsyncGenerator<string> {
      for (let at = 0; ; ) {
        if (failure) throw failure.error;
        if (at < pieces.length) yield pieces[at++]!;
        else if (ended) return;
        else await changed.promise;
      }
    },
  };
}

export type AnswerFeed = ReturnType<typeof answerFeed>;

const isTableRow = (line: string) => /^\s*\|.*\|\s*$/.test(line);

/**
 * The answer's markdown line by line as it is written, so the sources arrive last; its first markdown table is
 * held back into `table` (Slack shows a table only as a block, after the text), other rows stream as text.
 */
export async function* answerLines(
  pieces: AsyncIterable<string>,
  table: { block?: TableBlock },
): AsyncGenerator<string> {
  let partial = "";
  let held: string[] = [];
  let afterTable = false;
  function* release(): Generator<string> {
    if (held.length === 0) return;
    const rows = held.join("");
    held = [];
    const split = table.block ? { text: rows } : splitTable(rows);
    if (split.table) {
      table.block = split.table;
      afterTable = true;
    } else yield* answerChunks(split.text);
  }
  function* line(text: string): Generator<string> {
    if (isTableRow(text)) {
      held.push(text);
      return;
    }
    yield* release();
    // The blank line that stood around the table is not written twice.
    if (afterTable && text.trim() === "") return;
    afterTable = false;
    yield mrkdwnToMarkdown(text);
  }
  for await (const piece of pieces) {
    const lines = answerChunks(partial + piece);
    partial = lines.at(-1)?.endsWith("\n") ? "" : (lines.pop() ?? "");
    for (const whole of lines) yield* line(whole);
  }
  if (partial) yield* line(partial);
  yield* release();
}

/** Text in the pieces it is streamed in: line by line. */
function answerChunks(text: string): string[] {
  return text.split(/(?<=\n)/).filter((piece) => piece !== "");
}

/**
 * Posts the answer `answer` once for `key` as it is written, its table and then the blocks `after` gives (once the
 * text is whole) after its text: streamed into its thread, or as one message at the top of a DM. The post is claimed,
 * and its channel's turn taken, while the answer is still being written.
 */
export async function postAnswerOnce(
  deps: PostOnceDeps,
  key: string,
  place: AnswerPlace,
  answer: AnswerFeed,
  after: () => Promise<KnownBlock[]>,
): Promise<{ channel: string; ts: string }> {
  const table: { block?: TableBlock } = {};
  const whole = async () => {
    let text = "";
    for await (const line of answerLines(answer.read(), table)) text += line;
    const blocks: KnownBlock[] = [
      { type: "markdown", text },
      ...(table.block ? [table.block] : []),
      ...(await after()),
    ];
    return { text, blocks };
  };
  const { threadTs } = place;
  if (!threadTs) {
    const { text, blocks } = await whole();
    return postKeptOnce(deps, key, { channel: place.channel, text, blocks });
  }
  const { client } = deps;
  const channel = place.channel;
  return postOnce(deps, {
    key,
    args: { channel, thread_ts: threadTs, text: "" },
    posted: () => keptPost(deps.prisma, key),
    ready: answer.started,
    async deliver({ unfinished, started, metadata }) {
      if (unfinished) {
        // An earlier attempt's stream stopped part way: it becomes the whole answer.
        const { text, blocks } = await whole();
        await client.chat.stopStream({ channel, ts: unfinished }).catch(() => undefined);
        await client.chat.update({ channel, ts: unfinished, text, blocks, metadata });
        return { channel, ts: unfinished };
      }
      const recipient = channel.startsWith("D")
        ? {}
        : { recipient_user_id: place.userId, ...(place.teamId ? { recipient_team_id: place.teamId } : {}) };
      let ts: string | undefined;
      for await (const line of answerLines(answer.read(), table)) {
        if (ts) await client.chat.appendStream({ channel, ts, markdown_text: line });
        else {
          const stream = await client.chat.startStream({
            channel,
            thread_ts: threadTs,
            markdown_text: line,
            ...recipient,
          });
          ts = stream.ts!;
          await started(ts);
        }
      }
      if (!ts) throw new Error("The answer had no words to post.");
      const blocks = [...(table.block ? [table.block] : []), ...(await after())];
      await client.chat.stopStream({ channel, ts, metadata, ...(blocks.length > 0 ? { blocks } : {}) });
      return { channel, ts };
    },
  });
}
