import { describe, expect, it } from "vitest";
import type { ReplyBucket } from "../../src/domain/case-lifecycle.js";
import { classifierFrom } from "../../src/replies/classifier.js";

const examples: { body: string; bucket: ReplyBucket }[] = [
  { body: "Thanks, all correct.", bucket: "acknowledgment" },
  { body: "I moved to Lodi on May 3.", bucket: "update" },
  { body: "When is the deadline?", bucket: "question" },
  { body: "This is wrong, I never moved.", bucket: "escalation" },
];

describe("getting the reply reader ready before the first reply", () => {
  it("trains once, however often it is asked, and the first reply reuses that training", async () => {
    let trainings = 0;
    const classifier = classifierFrom(() => {
      trainings++;
      return examples;
    });
    await Promise.all([classifier.prepare!(), classifier.prepare!()]);
    expect(trainings).toBe(1);
    const first = await classifier.classify("Thanks a lot, that's all correct for me.");
    expect(first.bucket).not.toBe("question");
    expect(trainings).toBe(1);
  }, 120_000);

  it("tries again on the next call when training failed, instead of keeping the failure", async () => {
    let calls = 0;
    const classifier = classifierFrom(() => {
      if (++calls === 1) throw new Error("the labelled sets could not be read");
      return examples;
    });
    await expect(classifier.prepare!()).rejects.toThrow("could not be read");
    await classifier.prepare!();
    expect(calls).toBe(2);
  }, 120_000);
});
