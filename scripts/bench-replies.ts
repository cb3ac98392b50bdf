// How long the embedded reply classifier takes: the first reply of a process (loading the sentence encoder and
// training on every labelled set) and each reply after it, in wording the stored vectors do not hold. Prints
// numbers; asserts nothing.   npx tsx scripts/bench-replies.ts
import { performance } from "node:perf_hooks";
import { createRulesClassifier } from "../src/replies/classifier.js";
import { readReplySet } from "../src/replies/reply-corpus.js";

const replies = readReplySet("evals/datasets/reply-unseen-3.jsonl").map(
  (reply) => `${reply.body}\n\nSent from my phone`,
);
const classifier = createRulesClassifier();
const rssBefore = process.memoryUsage().rss;
let started = performance.now();
await classifier.classify(replies[0]!);
const first = performance.now() - started;
const rssAfter = process.memoryUsage().rss;
const each: number[] = [];
for (const reply of replies.slice(1)) {
  started = performance.now();
  await classifier.classify(reply);
  each.push(performance.now() - started);
}
each.sort((a, b) => a - b);
const at = (q: number) => each[Math.min(each.length - 1, Math.floor(q * each.length))]!.toFixed(1);
console.log(
  `reply classifier: first reply ${first.toFixed(0)} ms (loads the sentence encoder, trains on every labelled set)`,
);
console.log(`  then ${each.length} replies: median ${at(0.5)} ms, p95 ${at(0.95)} ms each`);
console.log(
  `  resident memory ${(rssBefore / 2 ** 20).toFixed(0)} MB before the first reply, ${(rssAfter / 2 ** 20).toFixed(0)} MB after`,
);
