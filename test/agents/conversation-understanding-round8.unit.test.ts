// What round 8 of fresh questions showed the offline understanding missing, as causes: the words of a question
// pick the check ("how far off is his schedule" is a shift gap), where a distance is measured from is the rule
// applied to the rider, a draft someone edited is an email, a van's earlier cases are the van's, a request outside
// the program is said to be one, and vanpools compared keep the order they were named in.
import { describe, expect, it } from "vitest";
import {
  asksAtTheLimit,
  OFF_TOPIC,
  type RosterEntry,
  understand,
  vanpoolsComparedIn,
} from "../../src/agents/conversation/understand.js";

const roster: RosterEntry[] = [
  { employee_id: "EMP-1062", first_name: "Derek", last_name: "Sandoval", flagged: true, traits: ["Night Shift"] },
  { employee_id: "EMP-1065", first_name: "Maribel", last_name: "Quintero", flagged: false, traits: ["Los Banos"] },
];
const derek = roster.slice(0, 1);
const maribel: RosterEntry[] = [{ ...roster[1]!, flagged: true }];

describe("understanding what round 8 missed", () => {
  it("reads 'how far off is his schedule' as the shift check, not an exact distance", () => {
    const u = understand("how far off is his schedule exactly", derek, { topics: ["checks"], riderIds: ["EMP-1062"] });
    expect(u).toMatchObject({ topics: ["checks"], check: "shift", riderIds: ["EMP-1062"] });
    expect(u.exact).toBeUndefined();
    // A distance asked exactly is still the location check's band.
    expect(understand("how far does derek live exactly", derek)).toMatchObject({ check: "location", exact: true });
  });

  it("answers where a distance is measured from with the rule and the rider's own result", () => {
    const u = understand("so do we measure from her sister's place?", maribel);
    expect(u).toMatchObject({ topics: ["policy", "checks"], check: "location", claim: true, riderIds: ["EMP-1065"] });
    expect(understand("she boards at her sisters, doesnt that count?", maribel).topics).toEqual(["policy", "checks"]);
  });

  it("takes 'the version I edited' as the emails sent, quoted", () => {
    expect(understand("did the version I edited go to derek?", derek)).toMatchObject({
      topics: ["emails"],
      quote: true,
      riderIds: ["EMP-1062"],
    });
  });

  it("tells a van's earlier cases from a rider's", () => {
    expect(understand("has this van had any cases before?", derek)).toMatchObject({
      topics: ["history"],
      vanpoolHistory: true,
    });
    expect(understand("has derek been flagged before?", derek).vanpoolHistory).toBeUndefined();
  });

  it("reads 'pull X off' as a cancellation and X as someone to look for elsewhere", () => {
    expect(understand("pull tamika off this one", derek)).toMatchObject({ action: "cancel", otherNames: ["tamika"] });
    // "before I sign off" approves nothing.
    expect(understand("derek's history before i sign off", derek).action).toBeUndefined();
  });

  it("says a request outside the program is one, even when a word looks like ours by a typo", () => {
    expect(understand("can you book conference room B for 3pm", []).clarify).toBe(OFF_TOPIC);
    expect(understand("tell me a joke", []).clarify).toBe(OFF_TOPIC);
    expect(understand("does the weather count as an excuse for the shift check?", derek).clarify).toBeUndefined();
  });

  it("reads a van's past asked in other words as its history, and 'who is on nights' as the shift check", () => {
    for (const q of [
      "tri-valley: any past flags?",
      "did VP-109 ever have a case?",
      "is this the first time this van has been flagged?",
    ])
      expect(understand(q, []).topics).toEqual(["history"]);
    expect(understand("who is on nights?", derek)).toMatchObject({ topics: ["checks"], check: "shift" });
    expect(understand("who is on the van", derek).topics).toEqual(["vanpool"]);
  });

  it("knows a figure exactly at the limit is asked about", () => {
    expect(asksAtTheLimit("is exactly 50 miles within the limit?")).toBe(true);
    expect(asksAtTheLimit("does 50 miles on the dot count as within")).toBe(true);
    expect(asksAtTheLimit("a rider 50 miles away exactly - ok or not?")).toBe(true);
    expect(asksAtTheLimit("is 50 miles the limit?")).toBe(false);
    // His own distance asked exactly is no question about the rule.
    expect(understand("is he exactly 85 miles out", derek).exact).toBe(true);
  });

  it("keeps vanpools compared by name in the order the question names them", () => {
    const vans = [
      { vanpool_id: "VP-102", name: "Evergreen Commuter" },
      { vanpool_id: "VP-113", name: "Elk Grove Commuters" },
    ];
    const order = (q: string) =>
      vanpoolsComparedIn(q, vans)
        .sort((a, b) => a.at - b.at)
        .map((v) => v.vanpool_id);
    expect(order("elk grove commuters vs evergreen commuter")).toEqual(["VP-113", "VP-102"]);
    expect(order("evergreen commuter vs elk grove commuters")).toEqual(["VP-102", "VP-113"]);
  });
});
