import { describe, expect, it } from "vitest";
import { spellingCorrector } from "../../src/replies/reply-spelling.js";

const known = [
  "My address is correct and my family lives there.",
  "The address and the schedule are correct, my family is the same.",
  "The van starts at six and the shift starts at seven.",
  "Nothing to add, I did not move.",
  "Nothing new, no move planned, no party.",
  "The party is over.",
  "I corrected it and it is corrected now.",
];
const corrector = spellingCorrector(known);

describe("reply spelling", () => {
  it("spells out texting shorthand", () => {
    expect(corrector.normalise("r u checking ur records pls")).toBe("are you checking your records please");
  });

  it("corrects a slip in a word the replies use often", () => {
    expect(corrector.normalise("my adress is corect, my familly")).toBe("my address is correct, my family");
  });

  it("leaves word forms, short words and unknown words alone", () => {
    // "started" is two edits from the known "starts", but another form of it, not a typo.
    expect(corrector.normalise("I started")).toBe("i started");
    // "more" is one letter from the known "move": too short to tell a slip from another word.
    expect(corrector.normalise("nothing more")).toBe("nothing more");
    expect(corrector.normalise("parts of Escalon")).toBe("parts of escalon");
    // A known stem with an ending two letters from the known one is another form (here Spanish), not a slip.
    expect(corrector.normalise("datos correctos")).toBe("datos correctos");
  });
});
