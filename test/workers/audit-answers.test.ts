// `/poolpatrol audit` with models that answer garbage (the OpenAI stub): what the person is
// told comes from the stored check results. No "passes both checks" unless both stored
// results of that audit pass, whatever the Case Manager claims.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findLatestResults } from "../../src/data/verification-repository.js";
import { ALICE, AUDIT_CHANNEL, type Harness, startHarness } from "../support/bot-harness.js";
import { type OpenAIStub, startOpenAIStub, turnOf } from "../support/openai-stub.js";

let h: Harness;
let stub: OpenAIStub;
beforeAll(async () => {
  stub = await startOpenAIStub();
  h = await startHarness({
    env: { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: stub.baseUrl, POOLPATROL_MODEL_TIMEOUT_MS: "1500" },
  });
});
afterAll(async () => {
  await h.close();
  await stub.close();
});

const CASE_MANAGER = "Pool Patrol's Case Manager";
const LOCATION = "Pool Patrol's Location Specialist";
const SHIFT = "Pool Patrol's Shift Specialist";
const CLAIM = "Both checks pass for this vanpool; no case is needed. It passes both checks.";

async function audit(vanpoolId: string): Promise<string> {
  const before = h.fake.responses().length;
  const response = await h.post(
    h.fake.slashCommandBody({
      command: "/poolpatrol",
      text: `audit ${vanpoolId}`,
      user_id: ALICE,
      channel_id: AUDIT_CHANNEL,
    }),
  );
  expect(response.status).toBe(200);
  await h.bot.idle();
  const answers = h.fake.responses().slice(before);
  expect(answers).toHaveLength(1);
  return (answers[0]!.body as { text: string }).text;
}

/** The Case Manager runs the specialists it is told to, then claims a pass without opening a case. */
const claimsPassAfter =
  (calls: { name: string; args: Record<string, unknown> }[]) => (request: Parameters<typeof turnOf>[0]) =>
    turnOf(request).called.length === 0 ? { toolCalls: calls } : { content: CLAIM };

describe("audit answers come from the stored results", () => {
  it("a Case Manager that claims a pass without running any check is not believed", async () => {
    stub.script(CASE_MANAGER, () => ({ content: CLAIM }));
    const text = await audit("VP-111");
    expect(text).not.toMatch(/passes (both|every) checks?/);
    expect(text).toMatch(/VP-111 was audited but the location check did not run and the shift check did not run/);
  });

  it("specialists answering nonsense or errors fall back to the data; the Case Manager's false pass is not repeated", async () => {
    stub.script(
      CASE_MANAGER,
      claimsPassAfter([
        { name: "run_location_specialist", args: { vanpool_id: "VP-111" } },
        { name: "run_shift_specialist", args: { vanpool_id: "VP-111" } },
      ]),
    );
    stub.script(LOCATION, () => ({ content: "lol it's fine {{{ not json" }));
    stub.script(SHIFT, () => ({ httpStatus: 500 }));
    const text = await audit("VP-111");
    expect(text).not.toMatch(/passes (both|every) checks?/);
    expect(text).toMatch(/the location check failed/);
    expect((await findLatestResults(h.db.prisma, "VP-111")).location?.verdict).toBe("fail");
  });

  it("invalid tool calls (an unknown tool, missing arguments) never turn into a pass", async () => {
    stub.script(
      CASE_MANAGER,
      claimsPassAfter([
        { name: "approve_everything", args: { vanpool_id: "VP-111" } },
        { name: "run_location_specialist", args: { wrong: true } },
      ]),
    );
    const text = await audit("VP-111");
    expect(text).toMatch(/VP-111/);
    expect(text).not.toMatch(/passes (both|every) checks?/);
  });

  it("says a vanpool passes when its stored results do", async () => {
    stub.script(
      CASE_MANAGER,
      claimsPassAfter([
        { name: "run_location_specialist", args: { vanpool_id: "VP-101" } },
        { name: "run_shift_specialist", args: { vanpool_id: "VP-101" } },
      ]),
    );
    stub.script(LOCATION, () => ({ httpStatus: 500 }));
    stub.script(SHIFT, () => ({ httpStatus: 500 }));
    const text = await audit("VP-101");
    const stored = await findLatestResults(h.db.prisma, "VP-101");
    expect([stored.location?.verdict, stored.shift?.verdict]).toEqual(["pass", "pass"]);
    expect(text).toBe("VP-101 passes every check; no case needed.");
  });
});
