// Feedback on the Case Manager's answers over signed requests: every answer carries 👍/👎; a 👍 is
// stored; a 👎 opens a modal asking for the right answer, stored with the question, the answer and the
// facts it was built from; tampered or unknown buttons are refused and store nothing. The round trip:
// a correction exported as a `question` dataset line that the eval runner reads and runs.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evalContext, runDataset } from "../../evals/runner.js";
import { parseSettings } from "../../src/config/settings.js";
import { listCorrections } from "../../src/data/answer-repository.js";
import { correctionExample } from "../../src/domain/feedback-dataset.js";
import { ANSWER_FEEDBACK } from "../../src/slack/blocks/answer.js";
import { ALICE, AUDIT_CHANNEL, CAROL, type Harness, startHarness } from "../support/bot-harness.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";
import type { SlackMessage } from "../support/slack/fake-slack.js";

let h: Harness;
let scenarioDb: TestDatabase | undefined;
beforeAll(async () => {
  h = await startHarness();
  await h.audit("VP-111");
}, 60_000);
afterAll(async () => {
  await h.close();
  await scenarioDb?.drop();
});

async function askInThread(question: string): Promise<SlackMessage> {
  const mention = h.fake.userMessage({
    user: CAROL,
    channel: AUDIT_CHANNEL,
    text: `<@${h.fake.botUserId}> ${question}`,
  });
  await h.post(mention.body);
  await h.post(mention.mention!);
  await h.bot.idle();
  await expect
    .poll(
      () => h.fake.thread(AUDIT_CHANNEL, mention.message.ts).filter((m) => m.bot_id && m.streaming === false).length,
      {
        timeout: 20_000,
      },
    )
    .toBe(1);
  return h.fake.thread(AUDIT_CHANNEL, mention.message.ts).find((m) => m.bot_id)!;
}

interface Buttons {
  positive_button: { value: string };
  negative_button: { value: string };
}
const buttonsOf = (message: SlackMessage): Buttons => {
  const block = (message.blocks ?? []).find((b) => b.type === "context_actions") as
    | { elements: (Buttons & { action_id: string })[] }
    | undefined;
  const element = block?.elements.find((e) => e.action_id === ANSWER_FEEDBACK);
  if (!element) throw new Error("the answer carries no feedback buttons");
  return element;
};

/** `user` clicks 👍 or 👎 on `message`; `value` overrides what the button sends (a tampered request). */
async function clickFeedback(user: string, message: SlackMessage, rating: "up" | "down", value?: string) {
  const buttons = buttonsOf(message);
  const sent = rating === "up" ? buttons.positive_button.value : buttons.negative_button.value;
  let body = h.fake.blockActionPayload({
    user: { id: user },
    channel: AUDIT_CHANNEL,
    message,
    action: { action_id: ANSWER_FEEDBACK, value: sent },
  });
  if (value !== undefined) {
    const payload = JSON.parse(new URLSearchParams(body).get("payload")!) as { actions: { value: string }[] };
    payload.actions[0]!.value = value;
    body = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
  }
  const response = await h.post(body);
  await h.bot.idle();
  return response;
}

const feedbackRows = () => h.db.prisma.answerFeedback.findMany({ orderBy: { id: "asc" } });

describe("feedback buttons on every answer", () => {
  it("carries 👍/👎 naming the stored answer, which keeps the question, the answer and the facts it was built from", async () => {
    const answer = await askInThread("why did VP-111 fail?");
    const buttons = buttonsOf(answer);
    expect(buttons.positive_button.value).toMatch(/^up:ANS-[0-9A-F]{16}$/);
    const id = buttons.positive_button.value.slice(3);
    const stored = await h.db.prisma.caseAnswer.findUniqueOrThrow({ where: { id } });
    expect(stored.question).toBe("why did VP-111 fail?");
    expect(stored.vanpoolId).toBe("VP-111");
    expect(stored.answer).toMatch(/Location check: fail/);
    const facts = stored.facts as { tool: string; text: string }[];
    expect(facts.map((f) => f.tool)).toContain("check_results");
    expect(facts.some((f) => /50-75 mi/.test(f.text))).toBe(true);
  });

  it("stores a 👍 with who gave it, and thanks them privately", async () => {
    const answer = await askInThread("what emails went out on VP-111?");
    const before = (await feedbackRows()).length;
    expect((await clickFeedback(CAROL, answer, "up")).status).toBe(200);
    const rows = await feedbackRows();
    expect(rows).toHaveLength(before + 1);
    expect(rows.at(-1)).toMatchObject({ userId: CAROL, userName: "carol", rating: "up", correction: null });
    await expect
      .poll(() => h.fake.ephemerals(CAROL).map((e) => String(e.message.text)))
      .toContain("Thanks, noted that this answer was right.");
  });

  it("refuses a tampered or unknown button and stores nothing", async () => {
    const answer = await askInThread("who is flagged on VP-111?");
    const other = await askInThread("what did the riders of VP-111 say?");
    const otherId = buttonsOf(other).positive_button.value.slice(3);
    const before = await feedbackRows();
    const views = h.fake.views(CAROL).length;
    for (const value of ["up:ANS-0000000000000000", `up:${otherId}`, "sideways", `down:${otherId}`]) {
      expect((await clickFeedback(CAROL, answer, value.startsWith("down") ? "down" : "up", value)).status).toBe(200);
    }
    expect(await feedbackRows()).toEqual(before);
    const notices = h.fake.ephemerals(CAROL).map((e) => String(e.message.text));
    expect(notices.filter((t) => /names no answer Pool Patrol gave/.test(t)).length).toBeGreaterThanOrEqual(3);
    // The 👎 opened its modal at once and says the same in it, asking nothing.
    const modal = h.fake.views(CAROL).slice(views).at(-1)!;
    expect(JSON.stringify(modal.blocks)).toMatch(/names no answer Pool Patrol gave/);
    expect(JSON.stringify(modal.blocks)).not.toMatch(/plain_text_input/);
  });

  it("a 👎 asks for the right answer; the correction is stored, exported as a question dataset line, and the eval runs it", async () => {
    // Carol (not an approver) asks; Alice corrects.
    const answer = await askInThread("how far does Diego live from the VP-111 pickup?");
    expect((await clickFeedback(ALICE, answer, "down")).status).toBe(200);
    const modal = h.fake.views(ALICE).at(-1)!;
    expect(JSON.stringify(modal.blocks)).toContain("What should the answer have said?");
    expect(JSON.stringify(modal.blocks)).toContain("how far does Diego live");
    const id = buttonsOf(answer).negative_button.value.slice(5);
    expect((await feedbackRows()).filter((r) => r.answerId === id)).toMatchObject([
      { rating: "down", correction: null },
    ]);

    // Too short a correction is refused in the modal, which stays open.
    const short = await h.post(
      h.fake.viewSubmissionPayload({ user: { id: ALICE }, view: modal, values: { correction: "no" } }),
    );
    expect(JSON.stringify(await short.json())).toMatch(/at least 5 characters/);
    // A submission whose answer id was tampered with stores nothing.
    const forged = await h.post(
      h.fake.viewSubmissionPayload({
        user: { id: ALICE },
        view: { ...modal, private_metadata: "ANS-0000000000000000" },
        values: { correction: "Diego lives 50-75 mi from the pickup.", must_include: "" },
      }),
    );
    expect(JSON.stringify(await forged.json())).toMatch(/names no answer/);

    const correction = "Diego Fuentes lives in Salinas, 50-75 mi from the pickup; over the 50 mi limit.";
    const submitted = await h.post(
      h.fake.viewSubmissionPayload({
        user: { id: ALICE },
        view: modal,
        values: { correction, must_include: "Diego, 50-75 mi, Salinas" },
      }),
    );
    expect(submitted.status).toBe(200);
    expect(JSON.stringify(await submitted.json())).toMatch(/becomes a test case/);
    const rows = (await feedbackRows()).filter((r) => r.answerId === id);
    expect(rows).toMatchObject([
      { userId: ALICE, rating: "down", correction, mustInclude: ["Diego", "50-75 mi", "Salinas"] },
    ]);

    // Export: one line in the question kind's format, which the eval runner reads and runs.
    const lines = (await listCorrections(h.db.prisma)).map(correctionExample);
    expect(lines).toHaveLength(1);
    const line = lines[0]!;
    if ("skipped" in line) throw new Error(line.skipped);
    expect(line).toMatchObject({
      kind: "question",
      inputs: { vanpool_id: "VP-111", question: "how far does Diego live from the VP-111 pickup?", user: "member" },
      expected: { must_include: ["Diego", "50-75 mi", "Salinas"] },
      metadata: { category: "auditor-correction", correction, corrected_by: "alice" },
    });
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "poolpatrol-feedback-")), "feedback.jsonl");
    fs.writeFileSync(file, `${JSON.stringify(line)}\n`);
    scenarioDb = await createTestDatabase();
    const report = await runDataset(file, evalContext(parseSettings({}), scenarioDb.url));
    expect(report.kind).toBe("question");
    expect(report.results).toHaveLength(1);
    expect(report.results[0]!.pass).toBe(true);
  }, 120_000);
});
