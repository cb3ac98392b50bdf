// The `case` kind: a whole lifecycle scenario (audit, replies, data changes,
// timeouts, decisions) run through the product's own workflow, agents and tools on
// a scratch database, with a clock the scenario controls.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { buildAppDeps } from "../../src/app/container.js";
import { createCaseWorkflow } from "../../src/cases/case-workflow.js";
import { insertFixturesInBulk } from "../../src/data/seed.js";
import { employeeFixture, shiftFixture, vanpoolFixture } from "../../src/domain/fixture-schema.js";
import { outboxSender } from "../../src/integrations/email/outbox.js";
import { type ScenarioPlay, scenarioEvent, scenarioPlayer } from "../scenario-events.js";
import type { EvalKind, ExampleResult } from "./kind.js";

const inputs = z.object({
  data: z.object({
    vanpools: z.array(vanpoolFixture),
    employees: z.array(employeeFixture),
    shifts: z.array(shiftFixture),
  }),
  vanpool_id: z.string(),
  now: z.iso.datetime(),
  events: z.array(scenarioEvent).min(1),
});
// Any subset of these: a field the policy does not fix is left out, and then not scored.
const expected = z
  .object({
    status: z.string().nullable().optional(),
    outcome: z.string().nullable().optional(),
    emails_sent: z.number().int().optional(),
    approvals: z.array(z.enum(["escalation_reply", "cancellation"])).optional(),
    tools: z.array(z.string()).optional(),
  })
  .strict()
  .refine(
    (e) => Object.keys(e).length > 0,
    "expects nothing; give at least one of status, outcome, emails_sent, approvals, tools",
  );
type Expected = z.infer<typeof expected>;
type Actual = {
  status: string | null;
  outcome: string | null;
  emails_sent: number;
  approvals: string[];
  tools: string[];
  tool_calls: number;
  human_decisions: number;
  refusals: number;
};

export const caseKind: EvalKind<z.infer<typeof inputs>, Expected, Actual> = {
  inputs,
  expected,
  async run(scenario, context) {
    const store = await context.scenarioStore();
    await store.reset();
    await insertFixturesInBulk(store.prisma, { ...scenario.data, cases: [], emailThreads: [] });
    const outbox = fs.mkdtempSync(path.join(os.tmpdir(), "poolpatrol-eval-outbox-"));
    let player!: ScenarioPlay;
    const workflow = createCaseWorkflow(
      await buildAppDeps(store, context.settings, { now: () => player.clock(), sender: outboxSender(outbox) }),
    );
    player = scenarioPlayer(store, workflow, scenario.vanpool_id, new Date(scenario.now));
    const currentCase = () =>
      store.prisma.case.findFirst({ where: { vanpoolId: scenario.vanpool_id }, orderBy: { createdAt: "desc" } });

    try {
      const { decisions, refusals } = await player.play(scenario.events);
      const finalCase = await currentCase();
      const approvals = await store.prisma.approvalRequest.findMany({ orderBy: { createdAt: "asc" } });
      const toolRows = await store.prisma.agentRunLog.findMany({
        where: { kind: "tool_call", run: { agent: "case_manager" } },
      });
      return {
        status: finalCase?.status ?? null,
        outcome: finalCase ? finalCase.outcome : "verified",
        emails_sent: await store.prisma.message.count({ where: { direction: "outbound", status: "sent" } }),
        approvals: approvals.map((a) => a.kind),
        tools: [...new Set(toolRows.map((r) => r.message))].sort(),
        tool_calls: toolRows.length,
        human_decisions: decisions,
        refusals,
      };
    } finally {
      fs.rmSync(outbox, { recursive: true, force: true });
    }
  },
  passed(e, a) {
    return (
      (e.status === undefined || e.status === a.status) &&
      (e.outcome === undefined || e.outcome === a.outcome) &&
      (e.emails_sent === undefined || e.emails_sent === a.emails_sent) &&
      (e.approvals === undefined || e.approvals.join() === a.approvals.join()) &&
      (e.tools === undefined || [...e.tools].sort().join() === a.tools.join())
    );
  },
  metrics(results: ExampleResult<Expected, Actual>[]) {
    const n = results.length;
    /** The share of the examples that fix a field in which it matched; null when none fixes it. */
    const share = (fixes: (e: Expected) => boolean, matches: (r: ExampleResult<Expected, Actual>) => boolean) => {
      const scored = results.filter((r) => fixes(r.expected));
      return scored.length ? scored.filter(matches).length / scored.length : null;
    };
    const cancelled = results.filter((r) => r.actual.status === "cancelled" && r.expected.status !== undefined);
    const withCase = results.filter((r) => r.actual.status !== null);
    const closedAlone = results.filter(
      (r) => ["resolved", "cancelled", null].includes(r.actual.status) && r.actual.approvals.length === 0,
    );
    return {
      examples: n,
      accuracy: results.filter((r) => r.pass).length / n,
      outcome_accuracy: share(
        (e) => e.status !== undefined || e.outcome !== undefined,
        ({ expected: e, actual: a }) =>
          (e.status === undefined || e.status === a.status) && (e.outcome === undefined || e.outcome === a.outcome),
      ),
      hitl_match: share(
        (e) => e.approvals !== undefined,
        (r) => r.expected.approvals!.join() === r.actual.approvals.join(),
      ),
      emails_match: share(
        (e) => e.emails_sent !== undefined,
        (r) => r.expected.emails_sent === r.actual.emails_sent,
      ),
      cancel_precision: cancelled.length
        ? cancelled.filter((r) => r.expected.status === "cancelled").length / cancelled.length
        : null,
      automation_rate: closedAlone.length / n,
      tool_choice_accuracy: share(
        (e) => e.tools !== undefined,
        (r) => [...r.expected.tools!].sort().join() === r.actual.tools.join(),
      ),
      average_tool_calls_per_case: withCase.length
        ? withCase.reduce((s, r) => s + r.actual.tool_calls, 0) / withCase.length
        : null,
    };
  },
  describeMetrics(m) {
    const x = m as Record<string, number | null>;
    const pct = (v: number | null | undefined) => (v === null || v === undefined ? "n/a" : `${(v * 100).toFixed(1)}%`);
    return [
      `scenarios passed ${pct(x.accuracy)} of ${x.examples}: outcome ${pct(x.outcome_accuracy)}, hitl ${pct(x.hitl_match)}, emails ${pct(x.emails_match)}`,
      `cancel precision ${pct(x.cancel_precision)}, automation rate ${pct(x.automation_rate)}, tool-choice accuracy ${pct(x.tool_choice_accuracy)}, average tool calls per case ${x.average_tool_calls_per_case?.toFixed(2) ?? "n/a"}`,
    ];
  },
};
