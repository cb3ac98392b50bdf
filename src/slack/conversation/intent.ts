// Understanding a question in a case thread, offline: intents by cue words, with a
// confidence. Below 0.65 the bot asks one clarifying question instead of guessing
// (seed 002's confidence gate). Pure; the thread's earlier messages resolve "the
// other rider" and similar follow-ups.
export type Intent = "why_failed" | "rider_said" | "flagged" | "status" | "recheck";

export interface Understanding {
  intent: Intent | null;
  confidence: number;
  check?: "location" | "shift";
  employeeId?: string;
  wantsOtherRider?: boolean;
}

export const CONFIDENCE_GATE = 0.65;

const CUES: Record<Intent, RegExp[]> = {
  why_failed: [/\bwhy\b/, /\b(fail(ed|ing|s)?|flag(ged)?|reason|evidence|wrong|problem)\b/],
  rider_said: [
    /\b(say|said|saying|repl(y|ied|ies)|wrote|write|answer(ed)?|respond(ed)?|email(ed)?)\b/,
    /\b(rider|they|he|she|employee|him|her)\b|EMP-\d+/i,
  ],
  flagged: [/\b(which|who|list)\b/, /\b(riders?|people|employees?|flagged)\b/],
  status: [/\b(status|where (does|do) (it|this|things) stand|what happens next|next step|timeline|history|deadline)\b/],
  recheck: [/\b(re-?check|re-?audit|check again|run (the )?checks?|verify again)\b/],
};

export function understand(text: string, previous: string[] = []): Understanding {
  const lower = text.toLowerCase();
  const employeeId = /EMP-\d+/i.exec(text)?.[0]?.toUpperCase();
  const check = /\b(location|distance|address|zip|miles?)\b/.test(lower)
    ? "location"
    : /\b(shift|schedule|hours?)\b/.test(lower)
      ? "shift"
      : undefined;
  const wantsOtherRider =
    /\b(the other|other one|the second|another) ?(rider|one|person|employee)?\b|\band (him|her|them)\b/.test(lower);
  const scores = (Object.keys(CUES) as Intent[]).map((intent) => {
    const hits = CUES[intent].filter((p) => p.test(lower) || p.test(text)).length;
    return [intent, hits / CUES[intent].length] as const;
  });
  const [intent, best] = [...scores].sort((a, b) => b[1] - a[1])[0]!;
  // A short follow-up ("and the other rider?") continues the previous question.
  if (best < CONFIDENCE_GATE && (wantsOtherRider || (employeeId && lower.split(/\s+/).length <= 5))) {
    const earlier = [...previous]
      .reverse()
      .map((p) => understand(p))
      .find((u) => u.intent && u.confidence >= CONFIDENCE_GATE);
    if (earlier?.intent)
      return { intent: earlier.intent, confidence: 0.7, check: check ?? earlier.check, employeeId, wantsOtherRider };
  }
  const confidence = intent === "recheck" && best > 0 ? Math.max(best, 0.9) : best;
  return confidence >= CONFIDENCE_GATE
    ? { intent, confidence, check, employeeId, wantsOtherRider }
    : { intent: null, confidence, check, employeeId, wantsOtherRider };
}

export const CLARIFYING_QUESTION =
  "I'm not sure what you're asking. Do you want to know *why the case failed*, *what the rider said*, *which riders are flagged*, or *where it stands*? (Approvers can also say _re-check location_.)";
