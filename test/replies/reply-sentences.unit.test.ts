import { describe, expect, it } from "vitest";
import { asksDisputing, combineSentences, sentencesOf } from "../../src/replies/reply-sentences.js";

describe("a reply's sentences", () => {
  it("splits the rider's words into sentences, whatever ends them", () => {
    expect(sentencesOf("Thanks for checking! I moved on May 3.\nIs that a problem?  👍")).toEqual([
      "Thanks for checking!",
      "I moved on May 3.",
      "Is that a problem?",
    ]);
  });
});

describe("a dispute put as a question", () => {
  it("asks how or why the finding can be so against what the rider says has always been true", () => {
    for (const sentence of [
      "How can my address be too far when it's the same address I've had for ten years?",
      "Why would my shift not match when I've worked the same early start since I was hired?",
      "Why does it say I'm on nights when I'm on days?",
      "How is my home outside the limit if nothing has changed since I joined the van?",
      "how could I be flagged for distance if I'm still at the same place on Elm?",
      "So why is my schedule a problem now, when it has been the same for years?",
      "What makes you think my hours don't match, I clock in at 6 every day?",
    ])
      expect(asksDisputing(sentence), sentence).toBe(true);
  });

  it("leaves questions about how to do something, or what happens, as questions", () => {
    for (const sentence of [
      "How can I update my address when I move next month?",
      "Why do I need to send proof if I'm still on days?",
      "How does the distance check work?",
      "Is my shift still listed as days?",
      "How can I check which address you have on file?",
      "Why is the deadline seven days?",
      "How would I change my pickup point if I'm moving to nights?",
    ])
      expect(asksDisputing(sentence), sentence).toBe(false);
  });
});

describe("DESIGN's combining rules over the sentences", () => {
  it("makes a reply with any dispute an escalation, wherever the dispute is", () => {
    const readings = [
      { sentence: "Thanks for the email.", bucket: "acknowledgment" as const },
      { sentence: "Have a good weekend.", bucket: "acknowledgment" as const },
      { sentence: "That distance is wrong.", bucket: "escalation" as const, dispute: "disputes the data" },
    ];
    expect(combineSentences(readings, "acknowledgment")).toEqual({
      bucket: "escalation",
      reason: 'a sentence disputes the data: "That distance is wrong."',
    });
    expect(combineSentences(readings.slice(0, 2), "acknowledgment")).toBeUndefined();
  });

  it("makes an update with a polite question an update, and a confirmation with a question a question", () => {
    const update = { sentence: "I moved to Lodi on March 2.", bucket: "update" as const };
    const question = { sentence: "Does that change my seat?", bucket: "question" as const };
    const thanks = { sentence: "All correct, thanks.", bucket: "acknowledgment" as const };
    expect(combineSentences([update, question], "question")?.bucket).toBe("update");
    expect(combineSentences([thanks, question], "acknowledgment")?.bucket).toBe("question");
    expect(combineSentences([thanks, { sentence: "Hm." }], "acknowledgment")).toBeUndefined();
  });

  it("never turns an escalation of the whole reply into an answerable bucket", () => {
    const update = { sentence: "I moved to Lodi on March 2.", bucket: "update" as const };
    expect(combineSentences([update, { sentence: "Please call me." }], "escalation")).toBeUndefined();
  });
});
