// With a model configured, free-form questions are understood by it (structured
// output: intent, check, rider, confidence); the answers still come from stored
// facts. A model that fails falls back to the offline understanding.
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { z } from "zod";
import { CONFIDENCE_GATE, type Understanding, understand } from "./intent.js";

const schema = z
  .object({
    intent: z.enum(["why_failed", "rider_said", "flagged", "status", "recheck", "unclear"]),
    check: z.enum(["location", "shift", "none"]),
    employee_id: z.string().describe("EMP-… if one rider is meant, else empty"),
    refers_to_other_rider: z.boolean(),
    confidence: z.number().min(0).max(1),
  })
  .meta({ title: "CaseQuestion" });

const PROMPT = `You route questions auditors ask in a vanpool case's Slack thread. Pick the intent: why_failed (why the case or a check failed), rider_said (what a rider replied), flagged (which riders are flagged), status (where the case stands, what happens next, its history), recheck (run the checks again), unclear. Use the earlier messages to resolve follow-ups such as "and the other rider?". Give your confidence from 0 to 1.`;

export async function understandWithModel(
  model: BaseChatModel,
  text: string,
  previous: string[],
): Promise<Understanding> {
  try {
    const structured = model.withStructuredOutput(schema);
    const said = schema.parse(
      await structured.invoke([
        { role: "system", content: PROMPT },
        { role: "user", content: JSON.stringify({ earlier_questions: previous.slice(-6), question: text }) },
      ]),
    );
    if (said.intent === "unclear" || said.confidence < CONFIDENCE_GATE)
      return { intent: null, confidence: said.confidence };
    return {
      intent: said.intent,
      confidence: said.confidence,
      check: said.check === "none" ? undefined : said.check,
      employeeId: /^EMP-\d+$/.test(said.employee_id) ? said.employee_id : undefined,
      wantsOtherRider: said.refers_to_other_rider,
    };
  } catch {
    return understand(text, previous);
  }
}
