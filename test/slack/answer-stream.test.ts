// Streamed answers over signed requests: a status line while the tools run, the text growing in
// order into one message that ends with its sources, the status cleared when Slack fails part
// way, and one answer in the thread however often the job is retried.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUDIT_CHANNEL, CAROL, type Harness, startHarness } from "../support/bot-harness.js";
import { failNextWrite, faultFired } from "../support/db-faults.js";
import type { SlackMessage } from "../support/slack/fake-slack.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await h.audit("VP-111");
}, 60_000);
afterAll(async () => {
  await h.close();
});

/** A thread of its own for each test: an @mention in the channel. */
async function mentionThread(question: string) {
  const mention = h.fake.userMessage({
    user: CAROL,
    channel: AUDIT_CHANNEL,
    text: `<@${h.fake.botUserId}> ${question}`,
  });
  await h.post(mention.body);
  await h.post(
    h.fake.eventCallbackBody({
      event: {
        type: "app_mention",
        user: CAROL,
        text: mention.message.text,
        ts: mention.message.ts,
        channel: AUDIT_CHANNEL,
      },
    }),
  );
  return mention.message.ts;
}

const answersIn = (threadTs: string): SlackMessage[] => h.fake.thread(AUDIT_CHANNEL, threadTs).filter((m) => m.bot_id);

describe("a streamed answer", () => {
  it("shows what it is reading, then writes the answer in order into one message ending with its sources", async () => {
    const thread = await mentionThread("why did VP-111 fail?");
    await h.bot.idle();
    const [answer] = answersIn(thread);
    expect(answersIn(thread)).toHaveLength(1);
    const text = String(answer!.text);
    expect(text).toMatch(/Location check: fail/);
    expect(text.trimEnd()).toMatch(/_Sources: [^\n]+_$/);

    const statuses = h.fake.statuses(AUDIT_CHANNEL, thread);
    expect(statuses[0]).toBe("is reading the question…");
    // Tools that start while a status call is out are not shown one by one: each status shown names what is read.
    const shown = statuses.slice(1).filter((s) => s !== "");
    for (const status of shown) expect(status).toMatch(/^is [a-z-]+ the [a-z' ]+…$/);
    expect(statuses.at(-1)).toBe(""); // the answer replaced the status line

    // Slack saw the text grow: each version extends the last, and the final message is the streamed text.
    const versions = h.fake.messageHistory(answer!.ts).map((m) => String(m.text));
    expect(versions.length).toBeGreaterThan(2);
    versions.slice(1).forEach((v, i) => expect(v.startsWith(versions[i]!)).toBe(true));
    const streamed = [
      h.fake.lastCall("chat.startStream") && h.fake.callsTo("chat.startStream").at(-1)!.body.markdown_text,
      ...h.fake
        .callsTo("chat.appendStream")
        .filter((c) => c.body.ts === answer!.ts)
        .map((c) => c.body.markdown_text),
    ].join("");
    expect(streamed).toBe(text);
    expect(h.fake.callsTo("chat.stopStream").at(-1)!.body.ts).toBe(answer!.ts);
  });

  it("clears the status when Slack fails mid-stream, and the retried job finishes the same message", async () => {
    h.fake.serverErrorNext("chat.appendStream");
    const thread = await mentionThread("why did VP-111 fail?");
    await h.bot.idle();
    await expect.poll(() => String(answersIn(thread)[0]?.text), { timeout: 20_000 }).toMatch(/_Sources: /);
    await h.bot.idle();
    expect(answersIn(thread)[0]?.streaming).toBe(false);
    expect(answersIn(thread)).toHaveLength(1);
    const text = String(answersIn(thread)[0]!.text);
    expect(text).toMatch(/Location check: fail/);
    expect(text.trimEnd()).toMatch(/_Sources: [^\n]+_$/);
    // The failed attempt took its status line down before the retry put up its own.
    const statuses = h.fake.statuses(AUDIT_CHANNEL, thread);
    const failedAt = statuses.indexOf("");
    expect(failedAt).toBeGreaterThan(0);
    expect(statuses.indexOf("is reading the question…", failedAt)).toBeGreaterThan(failedAt);
    // Finished by an update rather than a new post, the answer takes the status line down itself.
    await expect.poll(() => h.fake.statuses(AUDIT_CHANNEL, thread).at(-1), { timeout: 10_000 }).toBe("");
  });

  it("clears the status when the answer cannot start at all, and answers once on the retry", async () => {
    h.fake.failNext("chat.startStream", "internal_error");
    const thread = await mentionThread("what emails went out on VP-111?");
    await h.bot.idle();
    await expect.poll(() => answersIn(thread).length, { timeout: 20_000 }).toBe(1);
    await h.bot.idle();
    expect(answersIn(thread)).toHaveLength(1);
    expect(h.fake.statuses(AUDIT_CHANNEL, thread).filter((s) => s === "").length).toBeGreaterThanOrEqual(2);
  });
});

describe("an answer that reads best as a table", () => {
  it("streams its gist in words, then ends with a table block (a row per flagged rider) and its feedback buttons", async () => {
    const thread = await mentionThread("who is flagged across the open cases?");
    await h.bot.idle();
    const [answer] = answersIn(thread);
    const text = String(answer!.text);
    // The words a notification or a client without tables shows: who, without the rows.
    const open = await h.db.prisma.case.findMany({ where: { status: { notIn: ["resolved", "cancelled"] } } });
    const flagged = open.flatMap((c) => (c.meta as { flagged: string[] }).flagged);
    expect(text).toMatch(new RegExp(`^${flagged.length} riders are flagged on ${open.length} open cases: [A-Z]`));
    expect(text.split("\n")[0]).toContain("Wendell Ashby");
    expect(text).not.toContain("|");
    expect(text.trimEnd()).toMatch(/_Sources: [^\n]+_$/);
    const streamed = [
      ...h.fake.callsTo("chat.startStream").filter((c) => c.body.thread_ts === thread),
      ...h.fake.callsTo("chat.appendStream").filter((c) => c.body.ts === answer!.ts),
    ]
      .map((c) => c.body.markdown_text)
      .join("");
    expect(streamed).toBe(text);

    const stop = h.fake.callsTo("chat.stopStream").find((c) => c.body.ts === answer!.ts)!;
    const blocks = stop.body.blocks as { type: string; rows?: { text: string }[][] }[];
    expect(blocks.map((b) => b.type)).toEqual(["table", "context_actions"]);
    const rows = blocks[0]!.rows!.map((row) => row.map((cell) => cell.text));
    expect(rows[0]).toEqual(["Rider", "Vanpool", "Check", "Distance or shift", "Flagged since", "Case"]);
    expect(rows).toHaveLength(flagged.length + 1);
    const vp111 = rows.filter((row) => row[1] === "VP-111").map((row) => row.slice(0, 4));
    expect(vp111.sort()).toEqual([
      ["Diego Fuentes", "VP-111", "location", "50-75 mi"],
      ["Wendell Ashby", "VP-111", "location", "50-75 mi"],
    ]);
    for (const row of rows.slice(1)) expect(row[3]).not.toMatch(/\d+\.\d|^\d+ mi/);
    // What Slack shows: the streamed text, then the table, then the buttons.
    expect(answer!.blocks?.map((b) => (b as { type: string }).type)).toEqual(["table", "context_actions"]);
  });
});

describe("a crash between starting the stream and storing where it is", () => {
  /** The thread holds one answer, finished (no longer streaming), ending with its sources. */
  async function oneFinishedAnswer(thread: string) {
    await expect
      .poll(() => answersIn(thread).map((m) => `${m.streaming}:${/_Sources: /.test(String(m.text))}`), {
        timeout: 20_000,
      })
      .toEqual(["false:true"]);
    await h.bot.idle();
    expect(answersIn(thread)).toHaveLength(1);
    expect(h.fake.callsTo("chat.startStream").filter((c) => c.body.thread_ts === thread)).toHaveLength(1);
  }

  it("Slack took chat.startStream but its answer was lost: the retry finishes that message, not a second one", async () => {
    h.fake.loseResponseNext("chat.startStream");
    const thread = await mentionThread("why did VP-111 fail?");
    await h.bot.idle();
    await oneFinishedAnswer(thread);
    expect(String(answersIn(thread)[0]!.text)).toMatch(/Location check: fail/);
  });

  it("the write of the stream's message failed after it started: the retry finishes that message", async () => {
    await failNextWrite(h.db.prisma, {
      name: "stream_ts",
      table: "slack_post_intents",
      column: "stream_ts",
      when: "NEW.key LIKE 'answer:%'",
    });
    const thread = await mentionThread("what did the riders of VP-111 say?");
    await h.bot.idle();
    await oneFinishedAnswer(thread);
    expect(await faultFired(h.db.prisma, "stream_ts")).toBe(true);
  });
});

describe("the direct message with Pool Patrol as an assistant thread", () => {
  it("offers questions about the cases open now, and answers one in the thread, streamed", async () => {
    const dm = "D0CAROL";
    // Slack starts the thread when the person opens the assistant view.
    const root = h.fake.userMessage({ user: CAROL, channel: dm, text: "Hi" }).message.ts;
    await h.post(
      h.fake.eventCallbackBody({
        event: {
          type: "assistant_thread_started",
          assistant_thread: { user_id: CAROL, channel_id: dm, thread_ts: root, context: {} },
          event_ts: root,
        },
      }),
    );
    await h.bot.idle();
    await expect.poll(() => h.fake.suggestedPrompts(dm, root)?.prompts.length, { timeout: 10_000 }).toBeGreaterThan(2);
    const prompts = h.fake.suggestedPrompts(dm, root)!.prompts;
    expect(prompts.length).toBeLessThanOrEqual(4);
    expect(prompts.map((p) => p.message)).toContain("Which cases need me?");
    const vp111 = prompts.find((p) => p.message === "Why did VP-111 fail?");
    expect(vp111).toBeDefined();

    await h.post(h.fake.userMessage({ user: CAROL, channel: dm, text: vp111!.message, thread_ts: root }).body);
    await h.bot.idle();
    const answers = h.fake.thread(dm, root).filter((m) => m.bot_id);
    expect(answers).toHaveLength(1);
    expect(String(answers[0]!.text)).toMatch(/Location check: fail/);
    expect(h.fake.callsTo("chat.startStream").at(-1)!.body.channel).toBe(dm);
  });
});
