// How long the embedded reply classifier takes: the first reply of a process, phase by phase (reading the model the
// build trained, dist/reply-model.json; then loading the sentence encoder for wording no stored vector holds, as any
// real reply's is), then each reply after it. Wall time moves with the machine's load; CPU time less so: both are
// printed. Asserts nothing.   npm run build && npx tsx scripts/bench-replies.ts
import { performance } from "node:perf_hooks";
import { createRulesClassifier } from "../src/replies/classifier.js";
import { readReplySet } from "../src/replies/reply-corpus.js";
import { readSavedModel, SAVED_MODEL_FILE } from "../src/replies/reply-model-file.js";

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
    `  ${name.padEnd(58)}${`${wall.toFixed(0)} ms`.padStart(10)}${`${cpuMs.toFixed(0)} ms CPU`.padStart(14)}${`+${mb(process.memoryUsage().rss - rss)}`.padStart(9)}`,
  );
  return result;
}

console.log("reply classifier, the first reply of a process:");
const classifier = createRulesClassifier();
await phase("a reply a sure pattern decides: the model, no meaning", () =>
  classifier.classify("Please take me off this list, I'm not comfortable sharing that."),
);
await phase("then a reply in new wording: the sentence encoder loads", () =>
  classifier.classify("Hello, thanks for writing. Everything you list for me is still how it is."),
);
console.log(
  `  first reply in all: ${total.wall.toFixed(0)} ms (${total.cpu.toFixed(0)} ms CPU), +${mb(process.memoryUsage().rss - rssAtStart)} resident`,
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
// Asked after the measuring, since reading the file costs memory of its own.
if (!readSavedModel())
  console.log(`(no ${SAVED_MODEL_FILE} trained from the sets as they are: \`npm run build\`; this run trained)`);
