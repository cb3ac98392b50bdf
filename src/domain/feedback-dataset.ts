// An auditor's correction of a Case Manager answer as a `question` eval example (the format of
// evals/datasets/question-2.jsonl): the question as asked, in its thread, on the vanpool it was about,
// expecting the facts the correction names. The wrong answer, the correction and the facts the answer
// was built from travel in metadata, for the person who reviews the example.

/** One tool result an answer was built from, as the tool read it. */
export interface AnswerFact {
  tool: string;
  text: string;
}

export interface CorrectionInput {
  answerId: string;
  question: string;
  answer: string;
  correction: string;
  mustInclude: string[];
  facts: AnswerFact[];
  caseId: string | null;
  vanpoolId: string | null;
  askerIsApprover: boolean;
  askedAt: Date;
  earlier: string[];
  correctedBy: string;
  correctedAt: Date;
}

export interface QuestionExample {
  id: string;
  kind: "question";
  inputs: {
    vanpool_id: string;
    events: { type: "audit" }[];
    now: string;
    in_thread: boolean;
    thread?: string[];
    question: string;
    user: "approver" | "member";
  };
  expected: { must_include: string[] };
  metadata: Record<string, unknown>;
}

const MAX_TERMS = 4;
/** Words too common to tell a right answer from a wrong one. */
const COMMON = new Set(
  "about after again also because before being could their there these those which while would should the and for with that this from have what when where will your they them case rider riders answer".split(
    " ",
  ),
);

/** Ids, numbers and names first (what a right answer must get right), then longer words; none the wrong answer had. */
export function distinctiveTerms(correction: string, wrongAnswer: string): string[] {
  const wrong = wrongAnswer.toLowerCase();
  const fresh = (term: string) => !wrong.includes(term.toLowerCase()) && !COMMON.has(term.toLowerCase());
  const strong = [
    ...correction.matchAll(/\b(?:[A-Z]+-[0-9A-F]{3,16}|\d+(?:[.:/-]\d+)*|(?<=\S\s+)[A-Z][a-z]{2,})\b/g),
  ].map((m) => m[0]);
  const words = [...correction.matchAll(/\b[a-zA-Z]{5,}\b/g)].map((m) => m[0]);
  return [...new Set([...strong, ...words].filter(fresh))].slice(0, MAX_TERMS);
}

/** The example, or why the correction cannot be one. */
export function correctionExample(c: CorrectionInput): QuestionExample | { skipped: string } {
  if (!c.vanpoolId) return { skipped: `${c.answerId}: the question named no vanpool or case to replay` };
  const terms = c.mustInclude.length > 0 ? c.mustInclude : distinctiveTerms(c.correction, c.answer);
  if (terms.length === 0)
    return { skipped: `${c.answerId}: the correction names nothing the answer lacked; give the words it must contain` };
  return {
    id: `feedback-${c.answerId.replace(/^ANS-/, "").toLowerCase()}`,
    kind: "question",
    inputs: {
      vanpool_id: c.vanpoolId,
      events: [{ type: "audit" }],
      now: c.askedAt.toISOString(),
      in_thread: c.caseId !== null,
      ...(c.earlier.length > 0 ? { thread: c.earlier } : {}),
      question: c.question,
      user: c.askerIsApprover ? "approver" : "member",
    },
    expected: { must_include: terms },
    metadata: {
      category: "auditor-correction",
      answer_given: c.answer,
      correction: c.correction,
      corrected_by: c.correctedBy,
      corrected_at: c.correctedAt.toISOString(),
      case_id: c.caseId,
      facts: c.facts,
    },
  };
}
