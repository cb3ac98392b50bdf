// How well the reply classifier does on wording it has never seen: each labelled set of replies, written by a
// different person, is scored by a classifier trained on all the OTHER sets. Tuning on a set and then scoring it
// measures memory; this measures generalisation.
//   npx tsx scripts/reply-leave-one-set-out.ts [--failures] [--rules] [--json] [another-set.jsonl ...]
// --rules counts, for each hand-written pattern, the replies it fires on that are and are not escalations.

import type { ReplyBucket } from "../src/domain/case-lifecycle.js";
import { classifierFrom } from "../src/replies/classifier.js";
import { type LabelledReply, readReplySet, replySets } from "../src/replies/reply-corpus.js";
import { replyReader, ruleSignals } from "../src/replies/reply-rules.js";

interface SetScore {
  set: string;
  replies: number;
  correct: number;
  escalations: number;
  escalationsCaught: number;
  /** Plain confirmations sent to a person. */
  acknowledgmentsEscalated: number;
  failures: { id: string; expected: ReplyBucket; actual: ReplyBucket; body: string; reasons: string[] }[];
}

async function score(set: string, replies: LabelledReply[], training: LabelledReply[]): Promise<SetScore> {
  const classifier = classifierFrom(() => training);
  const result: SetScore = {
    set,
    replies: replies.length,
    correct: 0,
    escalations: 0,
    escalationsCaught: 0,
    acknowledgmentsEscalated: 0,
    failures: [],
  };
  for (const reply of replies) {
    const { bucket: actual, reasons } = await classifier.classify(reply.body, reply.subject);
    if (actual === reply.bucket) result.correct++;
    else result.failures.push({ id: reply.id, expected: reply.bucket, actual, body: reply.body, reasons });
    if (reply.bucket === "escalation") {
      result.escalations++;
      if (actual === "escalation") result.escalationsCaught++;
    }
    if (reply.bucket === "acknowledgment" && actual === "escalation") result.acknowledgmentsEscalated++;
  }
  return result;
}

function patternCounts(replies: LabelledReply[]): void {
  const read = replyReader(replies.map((reply) => reply.body));
  const counts = new Map<string, { escalations: number; others: string[] }>();
  for (const reply of replies)
    for (const signal of new Set(ruleSignals(read(reply.body)).filter((name) => name.startsWith("rule:")))) {
      const count = counts.get(signal) ?? { escalations: 0, others: [] };
      if (reply.bucket === "escalation") count.escalations++;
      else count.others.push(`${reply.id} (${reply.bucket})`);
      counts.set(signal, count);
    }
  console.log(`${"pattern".padEnd(40)}${"escalations".padStart(12)}${"others".padStart(8)}`);
  for (const [signal, count] of [...counts].sort(([a], [b]) => a.localeCompare(b)))
    console.log(
      `${signal.replace(/^rule:/, "").padEnd(40)}${String(count.escalations).padStart(12)}${String(count.others.length).padStart(8)}  ${count.others.slice(0, 6).join(", ")}`,
    );
}

const args = process.argv.slice(2);
const sets = [...replySets(), ...args.filter((arg) => !arg.startsWith("--"))];
const labelled = new Map(sets.map((set) => [set, readReplySet(set)]));

if (args.includes("--rules")) {
  patternCounts(sets.flatMap((set) => labelled.get(set)!));
} else {
  // One set at a time: each classifier's model is let go before the next is trained.
  const scores: SetScore[] = [];
  for (const set of sets)
    scores.push(
      await score(
        set,
        labelled.get(set)!,
        sets.filter((other) => other !== set).flatMap((other) => labelled.get(other)!),
      ),
    );
  const total = scores.reduce(
    (sum, s) => ({
      replies: sum.replies + s.replies,
      correct: sum.correct + s.correct,
      escalations: sum.escalations + s.escalations,
      escalationsCaught: sum.escalationsCaught + s.escalationsCaught,
      acknowledgmentsEscalated: sum.acknowledgmentsEscalated + s.acknowledgmentsEscalated,
    }),
    { replies: 0, correct: 0, escalations: 0, escalationsCaught: 0, acknowledgmentsEscalated: 0 },
  );
  if (args.includes("--json")) {
    console.log(JSON.stringify({ sets: scores, total }, null, 2));
  } else {
    const pct = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1)}%`;
    console.log(
      `${"set (scored by a model trained on all others)".padEnd(48)}${"replies".padStart(8)}${"accuracy".padStart(10)}${"escalations caught".padStart(20)}${"acks to a person".padStart(18)}`,
    );
    for (const s of [...scores, { set: "all sets", ...total }])
      console.log(
        `${s.set.padEnd(48)}${String(s.replies).padStart(8)}${pct(s.correct, s.replies).padStart(10)}${`${s.escalationsCaught}/${s.escalations}`.padStart(20)}${String(s.acknowledgmentsEscalated).padStart(18)}`,
      );
    if (args.includes("--failures"))
      for (const s of scores)
        for (const f of s.failures)
          console.log(
            `${s.set} ${f.id}: expected ${f.expected}, got ${f.actual} (${f.reasons.join("; ")}): ${JSON.stringify(f.body)}`,
          );
  }
}
