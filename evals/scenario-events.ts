// The events of a case scenario (audit, replies, data changes, timeouts, decisions)
// and how each is played through the product's workflow on a scratch database, with
// a clock the scenario controls. Shared by the `case` and `question` kinds.
import { z } from "zod";
import type { CaseWorkflow } from "../src/cases/case-workflow.js";
import { findThreadForCase } from "../src/data/email-repository.js";
import { replyDeadline } from "../src/domain/case-lifecycle.js";
import { coordsSchema } from "../src/domain/fixture-schema.js";
import { AppError } from "../src/errors.js";
import type { ScenarioStore } from "./scenario-store.js";

export const scenarioEvent = z.discriminatedUnion("type", [
  z.object({ type: z.literal("audit") }),
  z.object({ type: z.literal("reply"), from: z.string(), body: z.string() }),
  z.object({ type: z.literal("timeout") }),
  /** Time passes: `days` more on the scenario's clock (replies a business day apart each count as a re-audit). */
  z.object({ type: z.literal("wait"), days: z.number().positive() }),
  z.object({
    type: z.literal("decision"),
    decision: z.enum(["approve", "edit", "reject"]),
    body: z.string().optional(),
    reason: z.string().optional(),
  }),
  z.object({
    type: z.literal("update_data"),
    employee_id: z.string(),
    changes: z.object({
      home_zip: z.string().optional(),
      home_coords: coordsSchema.nullable().optional(),
      shift_id: z.string().nullable().optional(),
    }),
  }),
]);
export type ScenarioEvent = z.infer<typeof scenarioEvent>;

const HOUR = 3_600_000;
const MINUTE = 60_000;
const DAY = 24 * HOUR;

export interface ScenarioPlay {
  clock(): Date;
  /** Plays the events in order, an hour apart; returns how many steps the product refused and decided. */
  play(events: ScenarioEvent[]): Promise<{ decisions: number; refusals: number }>;
}

export function scenarioPlayer(
  store: ScenarioStore,
  workflow: CaseWorkflow,
  vanpoolId: string,
  start: Date,
): ScenarioPlay {
  let clock = start;
  const currentCase = () => store.prisma.case.findFirst({ where: { vanpoolId }, orderBy: { createdAt: "desc" } });

  async function runStep(step: ScenarioEvent): Promise<boolean> {
    switch (step.type) {
      case "audit":
        await workflow.auditVanpool(vanpoolId);
        return false;
      case "reply": {
        const open = await currentCase();
        const thread = open ? await findThreadForCase(store.prisma, open.id) : undefined;
        if (thread) await workflow.receiveReply({ threadId: thread.thread_id, from: step.from, body: step.body });
        return false;
      }
      case "update_data": {
        const c = step.changes;
        await store.prisma.employee.update({
          where: { id: step.employee_id },
          data: {
            ...(c.home_zip !== undefined ? { homeZip: c.home_zip } : {}),
            ...(c.home_coords !== undefined
              ? { homeLat: c.home_coords?.lat ?? null, homeLng: c.home_coords?.lng ?? null }
              : {}),
            ...(c.shift_id !== undefined ? { shiftId: c.shift_id } : {}),
          },
        });
        return false;
      }
      case "wait":
        clock = new Date(clock.getTime() + step.days * DAY);
        return false;
      case "timeout": {
        const open = await currentCase();
        const from = open?.lastOutboundAt ?? clock;
        clock = new Date(Math.max(clock.getTime(), replyDeadline(from).getTime() + MINUTE));
        await workflow.tick(clock);
        return false;
      }
      case "decision": {
        const oldest = await store.prisma.approvalRequest.findFirst({
          where: { status: "pending", case: { vanpoolId } },
          orderBy: { createdAt: "asc" },
        });
        if (!oldest) return false;
        await workflow.decide(oldest.id, step.decision, "eval-reviewer", {
          body: step.body ?? (step.decision === "edit" ? "Edited by the reviewer." : undefined),
          reason: step.reason,
        });
        return true;
      }
    }
  }

  return {
    clock: () => clock,
    async play(events) {
      let decisions = 0;
      let refusals = 0;
      for (const step of events) {
        try {
          if (await runStep(step)) decisions++;
        } catch (error) {
          // The product refusing a step (an unknown sender, a decided request) is behaviour to score, not a crash.
          if (!(error instanceof AppError)) throw error;
          refusals++;
        }
        clock = new Date(clock.getTime() + HOUR);
      }
      return { decisions, refusals };
    },
  };
}
