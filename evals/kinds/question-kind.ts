// The `question` kind: a question asked in a case's thread (after any earlier
// questions of the same thread), answered by the Case Manager's conversation agent
// from what the scenario stored. The answer must contain each expected fact (any of
// "a|b"), case-insensitively, and none of the forbidden ones.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { createConversation } from "../../src/agents/conversation/agent.js";
import { buildAppDeps } from "../../src/app/container.js";
import { createCaseWorkflow } from "../../src/cases/case-workflow.js";
import { seedFolder } from "../../src/cases/seed-folder.js";
import { PROJECT_ROOT } from "../../src/config/settings.js";
import { listCases } from "../../src/data/case-repository.js";
import { insertFixturesInBulk } from "../../src/data/seed.js";
import { employeeFixture, shiftFixture, vanpoolFixture } from "../../src/domain/fixture-schema.js";
import { redactFinding } from "../../src/domain/redaction.js";
import { outboxSender } from "../../src/integrations/email/outbox.js";
import { type ScenarioPlay, scenarioEvent, scenarioPlayer } from "../scenario-events.js";
import type { EvalContext, EvalKind, ExampleResult } from "./kind.js";

const inputs = z.object({
  data: z
    .object({ vanpools: z.array(vanpoolFixture), employees: z.array(employeeFixture), shifts: z.array(shiftFixture) })
    .optional(),
  events: z.array(scenarioEvent).optional(),
  vanpool_id: z.string(),
  now: z.iso.datetime().optional(),
  /** false: asked outside the case's thread (an @mention or a DM). */
  in_thread: z.boolean().optional(),
  thread: z.array(z.string()).optional(),
  question: z.string().min(1),
  user: z.enum(["approver", "member"]).optional(),
});
const expected = z.object({
  must_include: z.array(z.string()),
  must_not_include: z.array(z.string()).optional(),
  clarify: z.boolean().optional(),
});
type Inputs = z.infer<typeof inputs>;
type Expected = z.infer<typeof expected>;
interface Actual {
  answer: string;
  sources: string[];
  clarified: boolean;
}

const DEFAULT_NOW = "2026-11-24T16:00:00Z";
/** The scenario the store holds now, so questions on the same scenario do not replay it. */
let loaded: { key: string; conversation: ReturnType<typeof createConversation>; caseId: string | null } | undefined;
let asked = 0;

async function prepare(example: Inputs, context: EvalContext) {
  const key = JSON.stringify([example.data ?? "mock", example.events ?? [], example.vanpool_id, example.now]);
  if (loaded?.key === key) return loaded;
  const store = await context.scenarioStore();
  await store.reset();
  if (example.data) await insertFixturesInBulk(store.prisma, { ...example.data, cases: [], emailThreads: [] });
  else await seedFolder(store, path.join(PROJECT_ROOT, "mock"));
  const outbox = fs.mkdtempSync(path.join(os.tmpdir(), "poolpatrol-eval-outbox-"));
  let player!: ScenarioPlay;
  const deps = await buildAppDeps(store, context.settings, {
    now: () => player.clock(),
    sender: outboxSender(outbox),
  });
  const workflow = createCaseWorkflow(deps);
  player = scenarioPlayer(store, workflow, example.vanpool_id, new Date(example.now ?? DEFAULT_NOW));
  await player.play(example.events ?? []);
  fs.rmSync(outbox, { recursive: true, force: true });
  // The thread asked in is the newest case's: its alert is the one the channel shows last.
  const [latest] = (await listCases(store.prisma, { vanpoolId: example.vanpool_id })).sort(
    (a, b) => b.created_at.getTime() - a.created_at.getTime(),
  );
  const conversation = createConversation(deps, {
    async recheck(caseId) {
      const result = await workflow.auditVanpool(latest!.vanpool_id);
      loaded = undefined; // the scenario changed: the next question replays it
      return {
        text: `🔁 Re-checked: ${redactFinding(result.reasoning)}`,
        sources: [`new audit of ${caseId}'s vanpool`],
      };
    },
    async draftFollowUp(caseId, employeeId) {
      loaded = undefined; // a draft now waits: the next question replays the scenario
      return workflow.draftFollowUp(caseId, employeeId);
    },
  });
  loaded = { key, conversation, caseId: latest?.case_id ?? null };
  return loaded;
}

export const questionKind: EvalKind<Inputs, Expected, Actual> = {
  inputs,
  expected,
  async run(example, context) {
    const scenario = await prepare(example, context);
    const threadId = `eval-${++asked}`;
    const base = {
      threadId,
      caseId: example.in_thread === false ? null : scenario.caseId,
      askerIsApprover: example.user !== "member",
    };
    for (const earlier of example.thread ?? []) await scenario.conversation.ask({ ...base, question: earlier });
    const { answer, sources, clarified } = await scenario.conversation.ask({ ...base, question: example.question });
    return { answer, sources, clarified };
  },
  passed(e, a) {
    const text = a.answer.toLowerCase();
    const has = (fact: string) => fact.split("|").some((alt) => text.includes(alt.toLowerCase()));
    return (
      e.must_include.every(has) &&
      !(e.must_not_include ?? []).some(has) &&
      (e.clarify === undefined || e.clarify === a.clarified) &&
      (a.clarified || a.sources.length > 0)
    );
  },
  metrics(results: ExampleResult<Expected, Actual>[]) {
    const n = results.length;
    return {
      examples: n,
      accuracy: results.filter((r) => r.pass).length / n,
      clarification_rate: results.filter((r) => r.actual.clarified).length / n,
      answers_with_sources: results.filter((r) => r.actual.clarified || r.actual.sources.length > 0).length / n,
    };
  },
  describeMetrics(m) {
    const x = m as Record<string, number>;
    const pct = (v: number) => `${(v * 100).toFixed(1)}%`;
    return [
      `answer accuracy ${pct(x.accuracy!)} of ${x.examples}, clarification rate ${pct(x.clarification_rate!)}, answers naming sources ${pct(x.answers_with_sources!)}`,
    ];
  },
};
