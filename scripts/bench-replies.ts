// How long the embedded reply classifier takes: the first reply of a process, phase by phase (reading the
// labelled sets and their stored vectors, training, loading the sentence encoder for wording no stored vector
// holds, as any real reply's is), then each reply after it. Wall time moves with the machine's load; CPU time less
// so: both are printed. Asserts nothing.   npx tsx scripts/bench-replies.ts
import { performance } from "node:perf_hooks";
import { bucketModelFrom, createRulesClassifier } from "../src/replies/classifier.js";
import { readReplySet, replySets } from "../src/replies/reply-corpus.js";
import { encode } from "../src/replies/sentence-encoder.js";

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
const rssAtStart = process.memoryUsage().rss;
let total = { wall: 0, cpu: 0 };

async function phase<T>(name: string, run: () => Promise<T>): Promise<T> {
  const rss = process.memoryUsage().rss;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const result = await run();
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000;
  total = { wall: total.wall + wall, cpu: total.cpu + cpuMs };
  console.log(
    `  ${name.padEnd(52)}${`${wall.toFixed(0)} ms`.padStart(10)}${`${cpuMs.toFixed(0)} ms CPU`.padStart(14)}${`+${mb(process.memoryUsage().rss - rss)}`.padStart(9)}`,
  );
  return result;
}

console.log("reply classifier, the first reply of a process:");
const corpus = await phase("read the labelled sets", async () => replySets().flatMap(readReplySet));
await phase("read them, the stored vectors, and train", () => bucketModelFrom(corpus));
await phase("load the sentence encoder, encode one new reply", () =>
  encode(["Hi, got your note and everything you have for me is still right."]),
);
console.log(
  `  first reply in all: ${total.wall.toFixed(0)} ms (${total.cpu.toFixed(0)} ms CPU), +${mb(process.memoryUsage().rss - rssAtStart)} resident`,
);

// What the bot does at start-up (POOLPATROL_REPLY_WARMUP), then a rider's first reply after it.
const classifier = createRulesClassifier();
await phase("a new classifier gets ready, as the bot does at start-up", () => classifier.prepare!());
total = { wall: 0, cpu: 0 };
await phase("its first reply, in new wording", () =>
  classifier.classify("Hello, thanks for writing. Everything you list for me is still how it is."),
);
const replies = readReplySet("evals/datasets/reply-unseen-3.jsonl").map((reply) => `Hello,\n${reply.body}`);
const each: number[] = [];
const cpu = process.cpuUsage();
for (const reply of replies) {
  const started = performance.now();
  await classifier.classify(reply);
  each.push(performance.now() - started);
}
const used = process.cpuUsage(cpu);
each.sort((a, b) => a - b);
const at = (q: number) => each[Math.min(each.length - 1, Math.floor(q * each.length))]!.toFixed(1);
console.log(
  `then ${each.length} replies in new wording: median ${at(0.5)} ms, p95 ${at(0.95)} ms each, ${((used.user + used.system) / 1000 / each.length).toFixed(1)} ms CPU each on average`,
);
