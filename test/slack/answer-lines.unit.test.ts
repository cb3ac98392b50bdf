// An answer streamed as it is written: whole lines in order as standard markdown, a markdown table held back
// as the table block (Slack shows tables only as blocks), and a failure reaching whoever reads the answer.
import { describe, expect, it } from "vitest";
import { answerFeed, answerLines } from "../../src/slack/answer-stream.js";

async function linesOf(pieces: string[]) {
  const feed = answerFeed();
  const table: { block?: import("@slack/types").TableBlock } = {};
  const read = (async () => {
    const lines: string[] = [];
    for await (const line of answerLines(feed.read(), table)) lines.push(line);
    return lines;
  })();
  for (const piece of pieces) feed.write(piece);
  feed.end();
  return { lines: await read, table: table.block };
}

describe("an answer's lines as it is written", () => {
  it("streams whole lines in order, however the text was cut, in standard markdown", async () => {
    const { lines, table } = await linesOf(["*Location check:* fa", "il\nCody is 50-75 mi", " away\n_Sources: case_"]);
    expect(lines).toEqual(["**Location check:** fail\n", "Cody is 50-75 mi away\n", "_Sources: case_"]);
    expect(table).toBeUndefined();
  });

  it("holds a table back as a table block and streams the text around it once", async () => {
    const { lines, table } = await linesOf([
      "Two riders are flagged:\n\n| Rider | Check |\n| --- | --- |\n| Cody | *location* |\n",
      "| Tamika | shift |\n\n_Sources: case CASE-1_",
    ]);
    expect(lines.join("")).toBe("Two riders are flagged:\n\n_Sources: case CASE-1_");
    expect(table?.rows.map((row) => row.map((cell) => ("text" in cell ? cell.text : "")))).toEqual([
      ["Rider", "Check"],
      ["Cody", "*location*"],
      ["Tamika", "shift"],
    ]);
  });

  it("streams rows that are no table (no --- row) as text", async () => {
    const { lines, table } = await linesOf(["| not | a table |\nend"]);
    expect(lines.join("")).toBe("| not | a table |\nend");
    expect(table).toBeUndefined();
  });

  it("hands a failure to the reader after the words written before it, and to a post still waiting", async () => {
    const feed = answerFeed();
    feed.write("first line\n");
    const lines: string[] = [];
    const read = (async () => {
      for await (const line of answerLines(feed.read(), {})) lines.push(line);
    })();
    feed.fail(new Error("the model failed"));
    await expect(read).rejects.toThrow("the model failed");
    expect(lines).toEqual(["first line\n"]);

    const unstarted = answerFeed();
    unstarted.fail(new Error("no words"));
    await expect(unstarted.started).rejects.toThrow("no words");
  });
});
