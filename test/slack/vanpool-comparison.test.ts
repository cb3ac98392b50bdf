// "Compare VP-111 and VP-115" asked of the bot over signed requests: the gist streams in words, the comparison
// arrives as one table block (a column per vanpool) within Slack's table limits, every cell as the channel may
// read it and the same for members and approvers; an unknown id or a name several vanpools fit gets a clear answer.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validateBlocks } from "../../src/sandbox/slack/block-kit.js";
import { ALICE, AUDIT_CHANNEL, CAROL, type Harness, startHarness } from "../support/bot-harness.js";
import type { SlackMessage } from "../support/slack/fake-slack.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await h.audit("VP-111");
}, 120_000);
afterAll(async () => {
  await h.close();
});

/** A thread of its own for each question: an @mention in the audit channel, by `user`. */
async function ask(question: string, user = CAROL) {
  const mention = h.fake.userMessage({ user, channel: AUDIT_CHANNEL, text: `<@${h.fake.botUserId}> ${question}` });
  await h.post(mention.body);
  await h.post(
    h.fake.eventCallbackBody({
      event: { type: "app_mention", user, text: mention.message.text, ts: mention.message.ts, channel: AUDIT_CHANNEL },
    }),
  );
  await h.bot.idle();
  const answers = h.fake.thread(AUDIT_CHANNEL, mention.message.ts).filter((m) => m.bot_id);
  expect(answers).toHaveLength(1);
  return answers[0]!;
}

type Block = { type: string; rows?: { type: string; text: string }[][]; column_settings?: { is_wrapped?: boolean }[] };

/** The blocks Slack was sent when the answer's stream stopped, and the table's cells. */
function blocksOf(answer: SlackMessage) {
  const stop = h.fake.callsTo("chat.stopStream").find((c) => c.body.ts === answer.ts)!;
  const blocks = stop.body.blocks as Block[];
  const table = blocks.find((b) => b.type === "table");
  return { blocks, rows: table?.rows?.map((row) => row.map((cell) => cell.text)) };
}

/** What was streamed into the answer, in order. */
const streamed = (answer: SlackMessage, threadTs: string) =>
  [
    ...h.fake.callsTo("chat.startStream").filter((c) => c.body.thread_ts === threadTs),
    ...h.fake.callsTo("chat.appendStream").filter((c) => c.body.ts === answer.ts),
  ]
    .map((c) => c.body.markdown_text)
    .join("");

describe("two vanpools compared in a thread", () => {
  it("streams the gist in words, then one table block with a column per vanpool, within Slack's limits", async () => {
    const answer = await ask("compare VP-111 and VP-115");
    const text = String(answer.text);
    expect(streamed(answer, String(answer.thread_ts))).toBe(text);
    // The words a notification shows: each vanpool's case, where it stands, and who is flagged on which check.
    const gist = text.split("\n")[0]!;
    expect(gist).toMatch(
      /^Bay Fair Night Run \(VP-111\) has CASE-[0-9A-F]{8,16} open since [A-Z][a-z]{2} \d+, \d{4}, /,
    );
    expect(gist).toContain("2 riders flagged on the location check.");
    expect(gist).toMatch(/Roseville-Rocklin Riders \(VP-115\) has CASE-A35B2625 open since .*2 riders flagged/);
    expect(text).not.toContain("|");
    expect(text.trimEnd()).toMatch(/_Sources: vanpool record VP-111; vanpool record VP-115; case records; [^\n]+_$/);

    const { blocks, rows } = blocksOf(answer);
    expect(blocks.map((b) => b.type)).toEqual(["table", "context_actions"]);
    expect(validateBlocks(blocks, "message")).toEqual([]);
    expect(rows!.length).toBeLessThanOrEqual(100);
    for (const row of rows!) expect(row).toHaveLength(3);
    expect(rows![0]).toEqual([" ", "Bay Fair Night Run (VP-111)", "Roseville-Rocklin Riders (VP-115)"]);
    // A column per vanpool wraps its long cells, so both fit a thread's width without scrolling sideways.
    expect(blocks[0]!.column_settings).toEqual([{ is_wrapped: false }, { is_wrapped: true }, { is_wrapped: true }]);
    expect(rows!.map((row) => row[0])).toEqual([
      " ",
      "Work site",
      "Pickup",
      "Riders",
      "Open case",
      "Failing checks",
      "Riders flagged",
      "Open since",
      "Deadline",
    ]);
    const fact = (name: string) => rows!.find((row) => row[0] === name)!.slice(1);
    expect(fact("Work site")).toEqual(["Fremont Assembly Plant", "Rancho Cordova Distribution Center"]);
    expect(fact("Pickup")).toEqual(["Fremont (the work site)", "Rancho Cordova (the work site)"]);
    expect(fact("Failing checks")).toEqual(["location", "location and shift"]);
    // The audit's exact distances reach the table as bands.
    expect(fact("Riders flagged")[0]).toMatch(/Diego Fuentes \(location: 50-75 mi\)/);
    expect(fact("Riders flagged")[0]).toMatch(/Wendell Ashby \(location: 50-75 mi\)/);
    expect(fact("Open case")[1]).toBe("CASE-A35B2625: Waiting for riders");
    expect(fact("Deadline")[1]).toMatch(
      /^replies due [A-Z][a-z]{2} \d{1,2}, \d{4}( \(passed\))?$|^reply window not started$/,
    );
    const cells = rows!.flat().join("\n");
    expect(cells).not.toMatch(/@|EMP-|\d+\.\d+ mi|\b\d{5}\b|Kato Rd|Gold Center|pending_reply|_/);
    // What Slack shows: the streamed words, then the table, then the feedback buttons.
    expect(answer.blocks?.map((b) => (b as { type: string }).type)).toEqual(["table", "context_actions"]);
  });

  it("shows an approver the same table a member sees", async () => {
    const member = blocksOf(await ask("VP-111 vs VP-115?", CAROL)).rows;
    const approver = blocksOf(await ask("VP-111 vs VP-115?", ALICE)).rows;
    expect(approver).toEqual(member);
  });

  it("finds a vanpool named by name beside one named by id", async () => {
    const answer = await ask("how does the night owl van stack up against VP-113?");
    expect(blocksOf(answer).rows![0]).toEqual([" ", "Elk Grove Commuters (VP-113)", "Night Owl Vanpool (VP-105)"]);
    expect(String(answer.text).split("\n")[0]).toMatch(/Night Owl Vanpool \(VP-105\) has no open case/);
  });
});

describe("a comparison that cannot be made", () => {
  it("names the unknown vanpool id, shows no table, and asks for another", async () => {
    const answer = await ask("compare VP-111 and VP-199");
    expect(String(answer.text)).toMatch(
      /^I found no vanpool VP-199 \(vanpool ids look like VP-101\)\. Name another vanpool to set VP-111 beside/,
    );
    expect(blocksOf(answer).blocks.map((b) => b.type)).toEqual(["context_actions"]);
  });

  it("asks which vanpool a name means when several fit", async () => {
    const answer = await ask("how does the fremont van stack up against VP-113");
    expect(String(answer.text)).toMatch(
      /^Which vanpool do you mean to compare with VP-113: Hayward-Union City Pool \(VP-107\), Tracy Park & Ride \(VP-108\), /,
    );
    expect(blocksOf(answer).rows).toBeUndefined();
  });
});
