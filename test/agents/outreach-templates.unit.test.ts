// The emails as a rider reads them: no template stitches one sentence into another.
import { describe, expect, it } from "vitest";
import { followUpEmail, type RiderFacts, reminderEmail } from "../../src/agents/outreach/templates.js";

const facts: RiderFacts = {
  first_name: "Wendell",
  vanpool_id: "VP-111",
  vanpool_name: "Bay Fair Night Run",
  location: { home_city: "Oakdale", home_zip: "95361", distance_miles: 62, threshold_miles: 50, pickup: "Hayward" },
};

describe("a reminder an approver asked for", () => {
  it("says each fact once, in whole sentences, never 'Our records still show: Our records show'", () => {
    const { body } = reminderEmail(facts);
    expect(body).not.toMatch(/show:\s*Our records show/);
    expect(body.match(/Our records show/g)).toHaveLength(1);
    // Every paragraph is a sentence of its own: none ends in a colon that a fact paragraph would complete.
    for (const paragraph of body.split("\n\n").slice(0, -1)) expect(paragraph).not.toMatch(/:$/);
  });

  it("reads like the follow-up a rider gets after an update, with the same facts", () => {
    const paragraphs = followUpEmail(facts)
      .body.split("\n\n")
      .filter((p) => p.startsWith("Our records show"));
    expect(reminderEmail(facts).body).toContain(paragraphs[0]);
  });
});
