import { describe, expect, it } from "vitest";
import {
  asksDisputing,
  combineSentences,
  grantsTheFinding,
  saysAlreadyAnswered,
  sentencesOf,
} from "../../src/replies/reply-sentences.js";

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

describe("saysAlreadyAnswered", () => {
  it("hears a rider saying they answered the program before, however they put it", () => {
    for (const sentence of [
      "I replied to this on Monday.",
      "Didn't you get my earlier email?",
      "See my reply from last week.",
      "I answered this already, my address is the same.",
      "I responded to the first email on the 20th.",
      "Already sent this info to you guys last week, check your inbox.",
      "I’ve already replied to you.",
    ])
      expect(saysAlreadyAnswered(sentence), sentence).toBe(true);
  });

  it("does not hear it in a reply to someone else, a promise to reply or a question about who sees a reply", () => {
    for (const sentence of [
      "I replied to HR about my shift and they updated it.",
      "I'll reply once I know.",
      "Who can see my reply?",
      "I sent my new address to HR on the 3rd.",
    ])
      expect(saysAlreadyAnswered(sentence), sentence).toBe(false);
  });
});

describe("grantsTheFinding", () => {
  it("hears a rider granting the distance or the eligibility the review found, with nothing set against it", () => {
    for (const sentence of [
      "I know it's far.",
      "Yes I realize it's a long commute.",
      "I'm aware I live outside the radius.",
      "I understand if that means I'm no longer eligible.",
    ])
      expect(grantsTheFinding(sentence), sentence).toBe(true);
    for (const sentence of [
      "I know it's far but I have ridden for years.",
      "I know it's far, though nobody told me about a limit.",
      "I understand I'm outside the radius?",
      "I know.",
      "I know the driver.",
    ])
      expect(grantsTheFinding(sentence), sentence).toBe(false);
  });
});
