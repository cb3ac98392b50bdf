// What an answer carries, as pure functions: mrkdwn converted once to the markdown streamed text and
// markdown blocks read, a markdown table moved into a table block, the feedback buttons and the
// correction modal within Slack's limits (checked by the same checker the local Slack enforces), and
// a correction turned into a question example the eval reads.
import { describe, expect, it } from "vitest";
import { questionKind } from "../../evals/kinds/question-kind.js";
import { tableMarkdown } from "../../src/domain/answer-table.js";
import { correctionExample, distinctiveTerms } from "../../src/domain/feedback-dataset.js";
import { validateBlocks, validateView } from "../../src/sandbox/slack/block-kit.js";
import {
  correctionModal,
  feedbackBlock,
  readFeedbackValue,
  readMustInclude,
  splitTable,
} from "../../src/slack/blocks/answer.js";
import { mrkdwnToMarkdown } from "../../src/slack/markdown.js";

describe("mrkdwn to markdown", () => {
  it("makes *bold* bold (not italics), keeps _italics_, converts strike-through and links, leaves code alone", () => {
    expect(mrkdwnToMarkdown("*📍 Location check: fail* (confidence 4/5)")).toBe(
      "**📍 Location check: fail** (confidence 4/5)",
    );
    expect(mrkdwnToMarkdown("_Sources: the location check_")).toBe("_Sources: the location check_");
    expect(mrkdwnToMarkdown("~old~ and <https://x.test/a|the case>")).toBe("~~old~~ and [the case](https://x.test/a)");
    expect(mrkdwnToMarkdown("run `a *b* c` then *d*")).toBe("run `a *b* c` then **d**");
    expect(mrkdwnToMarkdown("5 * 3 = 15, 2*x")).toBe("5 * 3 = 15, 2*x");
    expect(mrkdwnToMarkdown("• Wendell: *fails*.\n• Diego: passes.")).toBe("• Wendell: **fails**.\n• Diego: passes.");
  });
});

describe("a markdown table in an answer", () => {
  it("moves into a table block, the text around it kept", () => {
    const answer =
      "Two cases need you:\n\n| Case | Vanpool |\n| --- | --- |\n| **CASE-1** | VP-111 |\n| CASE-2 | |\n\n_Sources: cases_";
    const { text, table } = splitTable(answer);
    expect(text).toBe("Two cases need you:\n\n_Sources: cases_");
    expect(table?.rows.map((r) => r.map((c) => ("text" in c ? c.text : "")))).toEqual([
      ["Case", "Vanpool"],
      ["CASE-1", "VP-111"],
      ["CASE-2", " "],
    ]);
    expect(validateBlocks([table], "message")).toEqual([]);
    expect(splitTable("no table | here").table).toBeUndefined();
  });

  it("shows in every cell only what the channel may read, whoever wrote the table", () => {
    const cells = (markdown: string) =>
      splitTable(markdown).table?.rows.map((r) => r.map((c) => ("text" in c ? c.text : "")));
    expect(
      cells(
        "| Rider | Home | Distance |\n| --- | --- | --- |\n| Diego | 455 Mission Blvd, Hayward 94541 | 58.3 mi |\n| Wendell | diego@northwind.example | 50-75 mi |",
      ),
    ).toEqual([
      ["Rider", "Home", "Distance"],
      ["Diego", "[street address], Hayward 945xx", "50-75 mi"],
      ["Wendell", "[email address]", "50-75 mi"],
    ]);
  });

  it("a table the answer composes comes out as the rows it was given, within Slack's limits", () => {
    const table = {
      columns: ["", "Cody Rasmussen", "Tamika Howard"],
      rows: [
        ["Distance from the pickup", "50-75 mi", "10-25 mi"],
        ["Shift", "Day Shift (Mon-Fri 07:00-15:30)", "Night | Shift\nlate"],
      ],
    };
    const { text, table: block } = splitTable(`Side by side:\n\n${tableMarkdown(table)}\n_Sources: checks_`);
    expect(text).toBe("Side by side:\n\n_Sources: checks_");
    expect(block?.rows.map((r) => r.map((c) => ("text" in c ? c.text : "")))).toEqual([
      [" ", "Cody Rasmussen", "Tamika Howard"],
      ["Distance from the pickup", "50-75 mi", "10-25 mi"],
      ["Shift", "Day Shift (Mon-Fri 07:00-15:30)", "Night / Shift late"],
    ]);
    const long = { columns: ["Case"], rows: Array.from({ length: 150 }, (_, i) => [`CASE-${i}`]) };
    const clipped = splitTable(tableMarkdown(long)).table;
    expect(clipped?.rows).toHaveLength(100);
    expect(
      validateBlocks([{ type: "markdown", text }, block, feedbackBlock("ANS-0123456789ABCDEF")], "message"),
    ).toEqual([]);
    expect(validateBlocks([clipped], "message")).toEqual([]);
  });
});

describe("feedback buttons and the correction modal", () => {
  const id = "ANS-0123456789ABCDEF";
  it("carry the answer and the rating, and read back only values of that form", () => {
    const [buttons] = feedbackBlock(id).elements as unknown as [
      { positive_button: { value: string }; negative_button: { value: string } },
    ];
    expect(readFeedbackValue(buttons.positive_button.value)).toEqual({ rating: "up", answerId: id });
    expect(readFeedbackValue(buttons.negative_button.value)).toEqual({ rating: "down", answerId: id });
    for (const forged of ["up:ANS-1", "sideways:ANS-0123456789ABCDEF", `up:${id} `, "", "down:CASE-0123456789ABCDEF"])
      expect(readFeedbackValue(forged)).toBeUndefined();
    expect(readMustInclude(" VP-111, 50-75 mi,,VP-111 ")).toEqual(["VP-111", "50-75 mi"]);
  });

  it("stay within Slack's limits, even for a very long question and answer", () => {
    expect(validateBlocks([{ type: "markdown", text: "x" }, feedbackBlock(id)], "message")).toEqual([]);
    const modal = correctionModal({ id, question: "q".repeat(5000), answer: "a".repeat(20000) });
    expect(validateView(modal, "modal")).toEqual([]);
  });
});

describe("the Block Kit limits checker", () => {
  const feedback = (value: string, label = "ok") => ({
    type: "feedback_buttons",
    action_id: "f",
    positive_button: { text: { type: "plain_text", text: "👍" }, value, accessibility_label: label },
    negative_button: { text: { type: "plain_text", text: "👎" }, value: "down" },
  });
  const raw = (text: string) => ({ type: "raw_text", text });
  it("refuses what Slack refuses in the AI blocks", () => {
    const problems = (blocks: unknown[]) => validateBlocks(blocks, "message").join("\n");
    expect(problems([{ type: "context_actions", elements: [feedback("v".repeat(2001))] }])).toMatch(
      /must be less than 2001 characters \[json-pointer:\/blocks\/0\/elements\/0\/positive_button\/value\]/,
    );
    expect(problems([{ type: "context_actions", elements: [feedback("up", "l".repeat(76))] }])).toMatch(
      /accessibility_label/,
    );
    const six = Array.from({ length: 6 }, (_, i) => ({ ...feedback("up"), action_id: `f${i}` }));
    expect(problems([{ type: "context_actions", elements: six }])).toMatch(/no more than 5 items allowed/);
    const table = { type: "table", rows: [[raw("a")]] };
    expect(problems([table, table])).toMatch(/only one table block is allowed per message/);
    expect(problems([{ type: "table", rows: Array.from({ length: 101 }, () => [raw("a")]) }])).toMatch(
      /\/blocks\/0\/rows\]/,
    );
    expect(problems([{ type: "table", rows: [Array.from({ length: 21 }, () => raw("a"))] }])).toMatch(
      /\/blocks\/0\/rows\/0\]/,
    );
    expect(problems([{ type: "table", rows: [[{ type: "mrkdwn", text: "a" }]] }])).toMatch(/raw_text/);
    const half = { type: "markdown", text: "m".repeat(6001) };
    expect(problems([half, half])).toMatch(/markdown blocks must be less than 12001 characters together/);
    expect(
      problems([
        { type: "markdown", text: "m".repeat(6000) },
        { type: "markdown", text: "m".repeat(6000) },
      ]),
    ).toBe("");
  });
});

describe("a correction as a question example", () => {
  const correction = {
    answerId: "ANS-0123456789ABCDEF",
    question: "exact miles for Diego?",
    answer: "Diego lives 50-75 mi from the pickup.",
    correction: "Diego's own email says about 58 miles from VP-111's pickup.",
    mustInclude: [],
    facts: [{ tool: "check_results", text: "Diego: 50-75 mi" }],
    caseId: "CASE-0123456789ABCDEF",
    vanpoolId: "VP-111",
    askerIsApprover: true,
    askedAt: new Date("2026-11-24T16:00:00Z"),
    earlier: ["why did this case fail?"],
    correctedBy: "Alex Rivera",
    correctedAt: new Date("2026-11-24T16:05:00Z"),
  };
  it("expects what the correction names that the answer lacked, and is read by the question kind", () => {
    expect(distinctiveTerms(correction.correction, correction.answer)).toEqual(["58", "VP-111", "email", "miles"]);
    const example = correctionExample(correction);
    if ("skipped" in example) throw new Error(example.skipped);
    expect(example.expected.must_include).toEqual(["58", "VP-111", "email", "miles"]);
    expect(example.inputs).toMatchObject({ in_thread: true, thread: ["why did this case fail?"], user: "approver" });
    expect(questionKind.inputs.parse(example.inputs)).toBeTruthy();
    expect(questionKind.expected.parse(example.expected)).toBeTruthy();
  });

  it("is left out, saying why, when there is no vanpool to replay or nothing to expect", () => {
    expect(correctionExample({ ...correction, vanpoolId: null })).toMatchObject({ skipped: /no vanpool/ });
    expect(correctionExample({ ...correction, correction: "Diego lives 50-75 mi" })).toMatchObject({
      skipped: /names nothing/,
    });
  });
});
