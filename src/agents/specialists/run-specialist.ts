// The Location, Shift and Employment Specialists. The engine computes the facts; with an LLM
// configured, the specialist agent reasons over its tools and must agree with the
// engine, or the result becomes inconclusive and goes to a human. A model that fails
// falls back to the engine's answer, and the run log says so.
import { createAgent } from "langchain";
import { z } from "zod";
import { logAgentRun } from "../../data/agent-run-repository.js";
import { countReAudit } from "../../data/case-repository.js";
import { findVanpoolSnapshot } from "../../data/vanpool-repository.js";
import { saveRuns } from "../../data/verification-repository.js";
import { reAuditBasis } from "../../domain/re-audit-pacing.js";
import type { CheckKind, SpecialistResult } from "../../domain/specialist-result.js";
import { notFound } from "../../errors.js";
import { auditWeekStart, runCheck } from "../../verification/audit.js";
import type { AgentDeps } from "../deps.js";
import { createAgentModel } from "../models/index.js";
import { withTimeout } from "../timeout.js";
import { createVerificationTools } from "../tools/verification-tools.js";
import { SPECIALIST_PROMPTS } from "./prompts.js";

export interface SpecialistOutcome {
  result: SpecialistResult & { model: string };
  run_id: string;
  re_audit_count: number | null;
}

const specialistAnswer = z
  .object({
    verdict: z.enum(["pass", "fail", "inconclusive"]),
    confidence: z.number().int().min(1).max(5),
    reasoning: z.string(),
    flagged: z.array(z.string()),
  })
  .meta({ title: "SpecialistResult" });

export async function runSpecialist(
  check: CheckKind,
  input: { vanpoolId: string; caseId?: string | null; agentRunId: string; reAuditKey: string },
  deps: Pick<AgentDeps, "defaultTimeZone" | "distance" | "now" | "policy" | "pool" | "prisma" | "settings">,
): Promise<SpecialistOutcome> {
  const snapshot = await findVanpoolSnapshot(deps.prisma, input.vanpoolId);
  if (!snapshot) throw notFound(`No vanpool ${input.vanpoolId}.`);
  const startedAt = deps.now();
  const asOf = auditWeekStart(snapshot, deps, startedAt);
  const engine = await runCheck(check, snapshot, deps, asOf);
  // The employment check only reads the HR record: no model weighs it.
  const judged = check === "employment" ? undefined : check;
  const model = judged && createAgentModel(judged, deps.settings, () => ({ final: "" }));
  let result: SpecialistResult & { model: string } = { ...engine, model: "rules" };

  if (judged && model && !model.isRules) {
    try {
      const tools = createVerificationTools(deps);
      const agent = createAgent({
        model: model.chat,
        tools:
          check === "location"
            ? [tools.getEmployeeProfile, tools.checkCommuteDistance]
            : [tools.getEmployeeShifts, tools.getVanpoolRoster],
        responseFormat: specialistAnswer,
        systemPrompt: SPECIALIST_PROMPTS[judged],
      });
      const controller = new AbortController();
      const task = {
        vanpool_id: input.vanpoolId,
        riders: snapshot.riders.map((r) => r.employee_id),
        audit_week_start: asOf,
        policy: engine.policy,
      };
      const answer = await withTimeout(
        agent.invoke({ messages: [{ role: "user", content: JSON.stringify(task) }] }, { signal: controller.signal }),
        deps.settings.modelTimeoutMs,
        `${check} specialist`,
        controller,
      );
      const said = specialistAnswer.parse(answer.structuredResponse);
      const agrees =
        said.verdict === engine.verdict && [...said.flagged].sort().join() === [...engine.flagged].sort().join();
      result = agrees
        ? { ...engine, reasoning: said.reasoning, confidence: said.confidence, model: model.name }
        : {
            ...engine,
            verdict: "inconclusive",
            flagged: [],
            confidence: 1,
            model: model.name,
            reasoning: `The ${check} specialist (${model.name}) answered ${said.verdict} (${said.flagged.join(", ") || "no riders"}) but the data gives ${engine.verdict} (${engine.flagged.join(", ") || "no riders"}). A human should look. Engine: ${engine.reasoning}`,
          };
      if (!agrees)
        await logAgentRun(deps.prisma, input.agentRunId, {
          kind: "note",
          level: "warn",
          message: `${check} specialist disagreed with the engine; result set to inconclusive`,
          data: { model: said, engine: { verdict: engine.verdict, flagged: engine.flagged } },
        });
    } catch (error) {
      await logAgentRun(deps.prisma, input.agentRunId, {
        kind: "fallback",
        level: "warn",
        message: `${check} specialist model ${model.name} failed (${(error as Error).message}); used the rules engine`,
        data: { check },
      });
    }
  }

  const [runId] = await saveRuns(deps.pool, [
    {
      vanpool_id: input.vanpoolId,
      case_id: input.caseId ?? null,
      trigger: input.caseId ? "re_audit" : "audit",
      verdict: result.verdict,
      as_of: asOf,
      started_at: startedAt,
      finished_at: deps.now(),
      results: [result],
    },
  ]);
  const reAuditCount = input.caseId
    ? await countReAudit(deps.prisma, input.caseId, {
        key: input.reAuditKey,
        basis: reAuditBasis(snapshot),
        at: startedAt,
        timeZone: snapshot.time_zone ?? deps.defaultTimeZone,
      })
    : null;
  return { result, run_id: runId!, re_audit_count: reAuditCount };
}
