// Offline understanding of thread questions: causes, not examples. Known words are not
// read as typos of others, riders are told apart by a trait, policy sections are found by
// what the question is after, and a van's work site is a place that may be shown.
import { describe, expect, it } from "vitest";
import { findPolicySections, relevantSentences } from "../../src/agents/conversation/policy-search.js";
import { questionParts } from "../../src/agents/conversation/rules.js";
import {
  nameStub,
  OFF_TOPIC,
  type RosterEntry,
  understand,
  type VanpoolName,
  vanpoolsNamedIn,
} from "../../src/agents/conversation/understand.js";
import { loadPolicy } from "../../src/agents/outreach/policy.js";
import { redactFinding } from "../../src/domain/redaction.js";

const roster: RosterEntry[] = [
  {
    employee_id: "EMP-1011",
    first_name: "Brent",
    last_name: "Harlow",
    flagged: true,
    traits: ["Citrus Heights", "Swing Shift"],
  },
  {
    employee_id: "EMP-1102",
    first_name: "Lucia",
    last_name: "Bianchi",
    flagged: true,
    traits: ["Folsom", "Part-Time Mornings"],
  },
  {
    employee_id: "EMP-1054",
    first_name: "Heather",
    last_name: "Lindgren",
    flagged: false,
    traits: ["Folsom", "Day Shift"],
  },
];

describe("understanding a question", () => {
  it("does not read a known word as a typo of another ('status' is not 'stats')", () => {
    expect(understand("what's the status of this one?", roster).topics).toEqual(["status"]);
  });

  it("finds the rider a question describes by shift or home town, flagged riders first", () => {
    expect(understand("what did the part-time rider ask us", roster)).toMatchObject({
      topics: ["replies"],
      riderIds: ["EMP-1102"],
    });
    expect(understand("how far does the guy from Citrus Heights live", roster).riderIds).toEqual(["EMP-1011"]);
    // A trait every flagged rider shares tells no one apart.
    expect(understand("how do shifts work for this one", roster).riderIds).toEqual([]);
  });

  it("reads deadlines, tenure and 'what if he doesn't reply' as what they ask", () => {
    expect(understand("has the 7 day reply window run out yet?", roster).topics).toEqual(["next"]);
    expect(understand("wat happens if brent dosnt reply", roster).topics).toEqual(["next"]);
    expect(understand("how long has brent been riding with us?", roster).topics).toEqual(["checks", "replies"]);
    expect(understand("who signed off on this?", roster).topics).toEqual(["status"]);
  });
});

/** The one vanpool the question names best, if exactly one. */
const vanpoolNamedIn = (question: string, vanpools: VanpoolName[]) => {
  const best = vanpoolsNamedIn(question, vanpools);
  return best.length === 1 ? best[0]!.vanpool_id : undefined;
};

describe("a vanpool named by its name", () => {
  const vanpools = [
    { vanpool_id: "VP-101", name: "Almaden Valley Express" },
    { vanpool_id: "VP-105", name: "Night Owl Vanpool" },
    { vanpool_id: "VP-106", name: "Swing Shift Shuttle" },
    { vanpool_id: "VP-108", name: "Tracy Park & Ride" },
    { vanpool_id: "VP-114", name: "Folsom Lake Pool" },
  ];

  it("finds it by its whole name, its start before 'van', or its distinctive words", () => {
    expect(vanpoolNamedIn("what's going on with the night owl vanpool?", vanpools)).toBe("VP-105");
    expect(vanpoolNamedIn("any open case for tracy park and ride?", vanpools)).toBe("VP-108");
    expect(vanpoolNamedIn("how is the Almaden van doing", vanpools)).toBe("VP-101");
    expect(vanpoolNamedIn("and folsom lake?", vanpools)).toBe("VP-114");
  });

  it("does not read everyday words of a question as a vanpool's name", () => {
    expect(vanpoolNamedIn("who works the swing shift?", vanpools)).toBeUndefined();
    expect(vanpoolNamedIn("does she live in Folsom?", vanpools)).toBeUndefined();
    expect(vanpoolNamedIn("is the night rider flagged", vanpools)).toBeUndefined();
  });

  it("names none when two vanpools fit equally", () => {
    const twins = [...vanpools, { vanpool_id: "VP-199", name: "Almaden Hills Vanpool" }];
    expect(vanpoolNamedIn("how is the Almaden van doing", twins)).toBeUndefined();
  });
});

describe("policy sections", () => {
  const policy = loadPolicy();
  const headings = (question: string) => findPolicySections(policy, question).map((s) => s.heading);

  it("answers 'shifts' with the shift rule and 'change his shift' with how to update it", () => {
    expect(headings("what does the policy say about shifts")[0]).toBe("Shift rule");
    expect(headings("how does someone fix a wrong shift in the system")[0]).toBe("How to update your shift");
    expect(headings("if he wants to fight this what does he do")[0]).toBe("Appeals");
  });

  it("quotes the sentence that answers, and no email address", () => {
    const distance = policy.find((s) => s.heading === "Distance rule")!;
    expect(relevantSentences(distance.text, "does it count if she drives to a friend's place")).toMatch(
      /Where you park or meet the van doesn't change anything/,
    );
    const appeals = policy.find((s) => s.heading === "Appeals")!;
    expect(relevantSentences(appeals.text, "how to appeal")).not.toMatch(/@/);
  });
});

describe("redacting a finding", () => {
  it("shows the van's work site but never a home street address or an exact distance", () => {
    const finding =
      "All riders live within 50 miles of the work site (10850 Gold Center Dr, Rancho Cordova, CA 95670); Omar at 12 Oak Lane is 18.4 mi away.";
    const shown = redactFinding(finding, ["10850 Gold Center Dr, Rancho Cordova, CA 95670"]);
    expect(shown).toContain("10850 Gold Center Dr, Rancho Cordova");
    expect(shown).not.toContain("12 Oak Lane");
    expect(shown).not.toContain("18.4");
    expect(redactFinding(finding)).not.toContain("Gold Center Dr");
  });
});

describe("understanding what an auditor asks (issue 26)", () => {
  it("splits a multi-part question and answers each part, a rider carried into the next part", () => {
    expect(questionParts("why did Brent fail, and has Lucia replied?")).toEqual([
      "why did Brent fail",
      "has Lucia replied?",
    ]);
    expect(questionParts("compare brent and lucia")).toEqual(["compare brent and lucia"]);
  });

  it("reads a question about the rule as a policy question, even with a case's riders at hand", () => {
    for (const q of [
      "how is the distance limit measured?",
      "can pool patrol cancel someone on its own?",
      "how many re-checks before a person looks at it?",
      "does a distance of exactly 50 miles pass?",
    ]) {
      const u = understand(q, roster);
      expect(u.topics[0], q).toBe("policy");
      expect(u.action, q).toBeUndefined();
    }
  });

  it("tells a rider's exact distance from the rule about 'exactly 50 miles'", () => {
    expect(understand("what's Brent's exact distance?", roster)).toMatchObject({ exact: true, check: "location" });
    expect(understand("does a distance of exactly 50 miles pass?", roster).exact).toBeUndefined();
  });

  it("checks a rider's claim against the record instead of quoting it", () => {
    expect(understand("lucia says she's back on days - why is she still flagged?", roster)).toMatchObject({
      claim: true,
      topics: ["checks"],
      riderIds: ["EMP-1102"],
    });
  });

  it("names a person not on the roster for a look-up, but not an everyday word", () => {
    expect(understand("cancel Diego now", roster).otherNames).toContain("diego");
    expect(understand("cancel Diego now", roster).otherNames).not.toContain("now");
    expect(understand("is there a grace period for replies?", roster).otherNames).toBeUndefined();
  });

  it("asks a rider's history for 'flagged before', and 'we just approved' for what was sent", () => {
    expect(understand("has Brent been flagged before?", roster)).toMatchObject({
      topics: ["history"],
      riderIds: ["EMP-1011"],
    });
    const approved = understand("did lucia get the email we just approved?", roster);
    expect(approved.action).toBeUndefined();
    expect(approved.topics[0]).toBe("emails");
  });

  it("reads 'by when does he have to respond' as a deadline", () => {
    expect(understand("by when does Brent have to respond", roster).topics[0]).toBe("next");
  });
});

describe("understanding by meaning, not by phrasing (issue 26, second round)", () => {
  const van = [
    ...roster,
    { employee_id: "EMP-1002", first_name: "Trung", last_name: "Nguyen", flagged: false, traits: ["San Leandro"] },
    { employee_id: "EMP-1026", first_name: "Yesenia", last_name: "Mora", flagged: false, traits: ["San Leandro"] },
  ];

  it("reads where a case stands, what it waits on and whether a rider is off the van as status and next steps", () => {
    expect(understand("where's this case at", roster).topics).toEqual(expect.arrayContaining(["status", "next"]));
    expect(understand("so what's it waiting on now", roster).topics[0]).toBe("next");
    expect(understand("anything waiting on me here?", roster).topics[0]).toBe("next");
    expect(understand("is brent actually off the van now?", roster).topics[0]).toBe("status");
    // "we approved the cancellation" is about the case; "the email we approved" about what was sent.
    expect(understand("we approved the cancellation, is it done?", roster).topics[0]).toBe("status");
    expect(understand("did the email we approved go to lucia?", roster).topics[0]).toBe("emails");
  });

  it("answers 'what would he need to pass' and a hypothetical with what would change the result", () => {
    for (const q of [
      "what would brent have to change to pass",
      "if lucia moved to a full day schedule would she pass?",
      "lucia says she's on days now, is that what we have?",
    ])
      expect(understand(q, roster), q).toMatchObject({ claim: true, topics: ["checks"] });
  });

  it("reads 'does an hour count?' as the rule, and 'starts' is not a typo of 'stats'", () => {
    const u = understand("lucia starts an hour late, doesn't that count?", roster);
    expect(u.topics).toContain("policy");
    expect(u.topics).not.toContain("program");
  });

  it("asks about the riders who were not flagged when the question says so", () => {
    const u = understand("why only those two? what about the rest", roster, { topics: ["flagged"], riderIds: [] });
    expect(u).toMatchObject({ unflagged: true, riderIds: ["EMP-1054"], topics: ["checks"] });
  });

  it("asks which rider when a description fits two", () => {
    expect(understand("what about the san leandro rider", van).clarify).toMatch(/Trung Nguyen .* or Yesenia Mora/);
  });

  it("quotes an email when its wording is asked", () => {
    expect(understand("what exactly did we send lucia?", roster)).toMatchObject({ topics: ["emails"], quote: true });
    expect(understand("did we email lucia?", roster).quote).toBeUndefined();
  });

  it("says honestly what the record cannot give: contact details, opens, and facts it does not hold", () => {
    expect(understand("need brent's phone number", roster).offRecord).toEqual({ kind: "contact" });
    // Who may see an address is the privacy rule, not a request for one.
    expect(understand("who can see his home address?", roster).offRecord).toBeUndefined();
    expect(understand("did lucia ever open the email", roster).offRecord).toEqual({ kind: "untracked" });
    expect(understand("what's brent's salary?", roster)).toMatchObject({
      offRecord: { kind: "unknown", words: ["salary"] },
      riderIds: ["EMP-1011"],
    });
    expect(understand("will it rain in folsom tomorrow", roster).clarify).toBe(OFF_TOPIC);
    // A follow-up carries the thread's topic: nothing in it is off the record.
    expect(understand("and lucia?", roster, { topics: ["checks"], riderIds: [] }).offRecord).toBeUndefined();
  });

  it("reads 'the last case' and 'ever flagged' as a rider's history", () => {
    expect(understand("did lucia push back on the last case?", roster).topics).toEqual(["history"]);
    expect(understand("has brent ever been flagged", roster).topics).toEqual(["history"]);
  });

  it("splits a question joined by '+' into its parts", () => {
    expect(questionParts("why did brent fail + when is his reply due")).toEqual([
      "why did brent fail",
      "when is his reply due",
    ]);
  });
});

describe("vanpools named by part of their name", () => {
  const vanpools = [
    { vanpool_id: "VP-105", name: "Night Owl Vanpool" },
    { vanpool_id: "VP-111", name: "Bay Fair Night Run" },
    { vanpool_id: "VP-113", name: "Elk Grove Commuters" },
  ];
  const ids = (q: string) => vanpoolsNamedIn(q, vanpools).map((v) => v.vanpool_id);

  it("finds a vanpool by the first words of its name, and every vanpool a word like 'the night van' fits", () => {
    expect(ids("why did bay fair fail")).toEqual(["VP-111"]);
    expect(ids("is the night van ok?")).toEqual(["VP-105", "VP-111"]);
    expect(ids("is the night owl van ok?")).toEqual(["VP-105"]);
  });
});

describe("how auditors actually type", () => {
  const crew: RosterEntry[] = [
    { employee_id: "EMP-1045", first_name: "Gregory", last_name: "Pruitt", flagged: true },
    { employee_id: "EMP-1024", first_name: "Tamika", last_name: "Howard", flagged: true },
    { employee_id: "EMP-1031", first_name: "Sandra", last_name: "Whitfield", flagged: false },
  ];

  it("reads swapped letters, the start of a first name and shorthand", () => {
    expect(understand("whys tamkia flaged", crew).riderIds).toEqual(["EMP-1024"]);
    expect(understand("greg's sched ok?", crew)).toMatchObject({
      topics: ["checks"],
      check: "shift",
      riderIds: ["EMP-1045"],
    });
    expect(understand("greg's sched ok?", crew).otherNames).toBeUndefined();
    expect(understand("tamika loc check result", crew).check).toBe("location");
  });

  it("says a question about something else cannot be answered, and keeps questions about riders", () => {
    expect(understand("who won the game last night", crew).clarify).toBe(OFF_TOPIC);
    expect(understand("who passed?", crew)).toMatchObject({ unflagged: true, riderIds: ["EMP-1031"] });
  });

  it("reads a comparison written with 'than', and asks nothing it cannot answer about it", () => {
    const u = understand("is greg further out than tamika?", crew);
    expect(u).toMatchObject({ compare: true, topics: ["checks"] });
    expect(u.offRecord).toBeUndefined();
  });

  it("does not take 'the draft' someone approved for a request to draft one", () => {
    expect(understand("ok I approved the draft. when did it go out?", crew).action).toBeUndefined();
    expect(understand("draft a follow-up to greg", crew).action).toBe("follow_up");
    expect(understand("that reply we signed off on, did it go to greg?", crew).topics[0]).toBe("emails");
  });

  it("reads when a record changed as its import history, and how to change it as policy", () => {
    expect(understand("when did greg's address change?", crew).topics).toEqual(["changes"]);
    expect(understand("how does greg update his address?", crew).topics).not.toContain("changes");
  });

  it("reads who was kept, and a rider's deadline to answer, as the case's facts", () => {
    expect(understand("who got kept and until when?", crew).topics).toContain("checks");
    expect(understand("what's the cutoff date for greg to respond", crew).topics).toEqual(["next"]);
    expect(understand("how many people got flagged here", crew).topics).toEqual(["flagged"]);
  });

  it("names someone on another case instead of asking which rider 'he' is", () => {
    const u = understand("what about cody, did he reply?", crew);
    expect(u.clarify).toBeUndefined();
    expect(u.otherNames).toEqual(["cody"]);
  });

  it("splits numbered parts and 'then'", () => {
    expect(questionParts("1) what failed for tamika 2) what happens if she ignores us")).toEqual([
      "what failed for tamika",
      "what happens if she ignores us",
    ]);
    expect(questionParts("Give me Wendell's result, then Diego's.")).toEqual(["Give me Wendell's result", "Diego's."]);
  });

  it("finds the policy section a rule question is after", () => {
    const policy = loadPolicy();
    const headings = (question: string) => findPolicySections(policy, question).map((s) => s.heading);
    expect(headings("how many days does a rider get to respond per the rules?")).toEqual(["Review timeline"]);
    expect(headings("remind me of the limit")[0]).toBe("Distance rule");
    expect(headings("if someone is exactly 50.0 mi out do they pass?")[0]).toBe("Distance rule");
  });

  it("does not read 'shift riders' as the Swing Shift Shuttle", () => {
    const vanpools = [{ vanpool_id: "VP-106", name: "Swing Shift Shuttle" }];
    expect(vanpoolsNamedIn("what about night shift riders on a day van?", vanpools)).toEqual([]);
  });
});

describe("what an auditor asks of a case", () => {
  const crew: RosterEntry[] = [
    { employee_id: "EMP-1028", first_name: "Wendell", last_name: "Ashby", flagged: true },
    { employee_id: "EMP-1083", first_name: "Diego", last_name: "Fuentes", flagged: true },
    { employee_id: "EMP-1026", first_name: "Yesenia", last_name: "Mora", flagged: false },
  ];

  it("reads who decided, who it waits on, when it opened and which case a rider is on as the case's state", () => {
    expect(understand("who made the call on this case?", crew).topics).toEqual(["status"]);
    expect(understand("who's it waiting on now", crew).topics).toEqual(["next"]);
    expect(understand("when did this case open and why", crew).topics).toEqual(["status"]);
    expect(understand("which case is diego on?", crew).topics).toEqual(["status"]);
  });

  it("lists a van's riders rather than the flagged ones when asked for its riders", () => {
    expect(understand("list the riders on this van", crew).topics).toEqual(["vanpool"]);
  });

  it("quotes the email someone approved when asked what it said", () => {
    expect(understand("what did the answer we just okayed tell diego", crew)).toMatchObject({
      topics: ["emails"],
      quote: true,
    });
  });

  it("reads 'both on the same check?' as a comparison, with nothing off the record", () => {
    const u = understand("wendell and diego - both on the same check?", crew);
    expect(u).toMatchObject({ compare: true, topics: ["checks"] });
    expect(u.offRecord).toBeUndefined();
  });
});

describe("what is not a kept rider or another person", () => {
  it("reads an exception for a kind of rider as the rule, and 'she' as no one's name", () => {
    expect(understand("is there an exception for people who drive part of the way?", roster).topics).not.toContain(
      "checks",
    );
    const u = understand("what did she say?", roster);
    expect(u.clarify).toMatch(/^Which rider do you mean/);
    expect(u.otherNames).toBeUndefined();
  });
});

describe("a question about an action is not the action", () => {
  const crew: RosterEntry[] = [
    { employee_id: "EMP-1083", first_name: "Diego", last_name: "Fuentes", flagged: true },
    { employee_id: "EMP-1026", first_name: "Yesenia", last_name: "Mora", flagged: false },
  ];

  it("answers 'did we already re-check this?' without re-checking, and points 'can I keep him?' to the card", () => {
    expect(understand("did we already re-check this?", crew)).toMatchObject({ topics: ["status"] });
    expect(understand("did we already re-check this?", crew).action).toBeUndefined();
    expect(understand("re-check location", crew).action).toBe("recheck");
    expect(understand("can I still keep diego?", crew).action).toBe("cancel");
    expect(understand("what does diego need to keep his seat", crew).action).toBeUndefined();
  });

  it("answers about a re-check named as a thing, and still re-checks when asked to run one", () => {
    for (const question of [
      "1) when did the emails go out 2) anyone replied yet 3) re-audit count?",
      "what did the re-check show",
      "how many rechecks so far",
      "is the re-audit result in?",
    ])
      expect(understand(question, crew).action, question).toBeUndefined();
    for (const question of [
      "re-audit this one",
      "please recheck diego",
      "run another re-check",
      "can you re-check it now",
    ])
      expect(understand(question, crew).action, question).toBe("recheck");
  });

  it("does not take a decision's verb for a rider's name ('keep one and drop the other')", () => {
    for (const question of [
      "what exactly am i deciding here, can i keep one and drop the other?",
      "so we keep and remove who?",
    ])
      expect(understand(question, crew).otherNames, question).toBeUndefined();
    expect(understand("drop priya", crew).otherNames).toEqual(["priya"]);
  });

  it("does not read everyday words as riders' names ('more' is not Mora)", () => {
    expect(understand("how many more reminders before this goes to an approver", crew)).toMatchObject({
      topics: ["next"],
      riderIds: [],
    });
  });

  it("asks which rider 'him' is before any removal when two riders are flagged", () => {
    expect(understand("remove him", roster).clarify).toContain("Brent Harlow");
    expect(understand("drop him from the van", roster).clarify).toContain("Lucia Bianchi");
    expect(understand("cancel him", roster, { topics: ["replies"], riderIds: ["EMP-1011"] })).toMatchObject({
      action: "cancel",
      riderIds: ["EMP-1011"],
    });
  });

  it("reads a decision in the past tense as the case's state, never as a new action", () => {
    expect(understand("why did we keep them again?", crew)).toMatchObject({ topics: ["status"] });
    expect(understand("why did we keep them again?", crew).action).toBeUndefined();
    expect(understand("did the cancellation go through?", crew).topics).toEqual(["status"]);
    expect(understand("when was the cancellation approved and by who", crew).topics).toContain("status");
    expect(understand("is this case still open?", crew).topics).toEqual(["status"]);
    expect(understand("why is it with a human though", crew).topics).toContain("status");
    expect(understand("did someone sign off on removing them yet?", crew)).toMatchObject({ topics: ["status"] });
    expect(understand("did the cancellation actually happen or is it still pending", crew).topics).toContain("status");
    expect(understand("when did it time out", crew).topics).toContain("status");
    expect(understand("when does it time out", crew).topics).toEqual(["next"]);
  });

  it("answers contact details with what may be shown, and the full wording of a reply with who may read it", () => {
    for (const asked of ["whats tamika's personal email", "gregs address pls", "derek's full zip code and street?"])
      expect(understand(asked, roster).offRecord).toEqual({ kind: "contact" });
    expect(understand("what's brent's address", roster)).toMatchObject({ topics: ["checks"], check: "location" });
    expect(understand("when did brent's address change?", roster).offRecord).toBeUndefined();
    expect(understand("what exactly did lucia write back? paste the whole thing", roster).fullReply).toBe(true);
    expect(understand("how far exactly does brent live?", roster).exact).toBe(true);
    expect(understand("is brent exactly 85 miles out or what", roster).exact).toBe(true);
    expect(understand("is exactly 50 miles a pass", roster)).toMatchObject({ topics: ["policy"] });
    expect(understand("what if brent lives exactly 50 miles away", roster).exact).toBeUndefined();
    expect(understand("pls forward me lucia's reply in full, unedited", roster).fullReply).toBe(true);
    expect(understand("show me everything lucia wrote, nothing blanked out", roster).fullReply).toBe(true);
  });

  it("reads 'any exceptions here?' and 'override the rule for him' as who is kept", () => {
    expect(understand("any exceptions on this case? until when?", roster).kept).toBe(true);
    expect(understand("can an approver override the 50 mile rule for brent?", roster).kept).toBe(true);
    expect(understand("is there an exception for people who drive part of the way?", roster).kept).toBeUndefined();
  });

  it("answers a question about nothing of the program's with what it can answer, not the case", () => {
    for (const asked of ["where should we go for lunch", "did the kings win last night", "write me a poem"])
      expect(understand(asked, roster).clarify).toBe(OFF_TOPIC);
    // About a rider, what the record lacks is said as such.
    expect(understand("what's brent's salary?", roster).clarify).not.toBe(OFF_TOPIC);
  });

  it("leans a short follow-up on the turn before it", () => {
    const onBrent = { topics: ["checks" as const], riderIds: ["EMP-1011"], check: "shift" as const };
    expect(understand("and hers?", roster, onBrent).riderIds).toEqual(["EMP-1102"]);
    expect(understand("both of them?", roster, onBrent)).toMatchObject({ topics: ["checks"], riderIds: [] });
    expect(understand("and why not all of them?", roster, onBrent)).toMatchObject({ riderIds: ["EMP-1054"] });
    expect(understand("so what do i need to do", roster, onBrent).topics).toEqual(["next"]);
  });

  it("reads 'can it drop him by itself?' as the rule and his case, never as a cancellation", () => {
    const onBrent = { topics: ["checks" as const], riderIds: ["EMP-1011"] };
    const u = understand("can it drop him by itself?", roster, onBrent);
    expect(u).toMatchObject({ topics: ["why_not_cancel"], riderIds: ["EMP-1011"] });
    expect(u.action).toBeUndefined();
    expect(understand("drop him", roster, onBrent).action).toBe("cancel");
  });

  it("reads what became of a drafted email as the emails, quoted", () => {
    expect(understand("what went out after my edit?", roster)).toMatchObject({ topics: ["emails"], quote: true });
    expect(understand("we rejected that draft so nothing went out?", roster).topics).toEqual(["emails"]);
  });

  it("takes the start of a first name for the rider it begins ('luc' for Lucia), never an everyday word", () => {
    expect(understand("luc's shift?", roster).riderIds).toEqual(["EMP-1102"]);
    expect(nameStub("dan")).toBe(true);
    expect(nameStub("yes")).toBe(false);
    expect(nameStub("far")).toBe(false);
  });
});

describe("a vanpool named by its work site's place", () => {
  const vanpools: VanpoolName[] = [
    { vanpool_id: "VP-108", name: "Tracy Park & Ride", work_site: "Fremont Assembly Plant" },
    { vanpool_id: "VP-110", name: "Fremont 4x10 Crew", work_site: "Fremont Assembly Plant" },
    { vanpool_id: "VP-111", name: "Bay Fair Night Run", work_site: "Fremont Assembly Plant" },
    { vanpool_id: "VP-113", name: "Elk Grove Commuters", work_site: "Rancho Cordova Distribution Center" },
    { vanpool_id: "VP-115", name: "Roseville-Rocklin Riders", work_site: "Rancho Cordova Distribution Center" },
  ];

  it("fits every van going there, so the question is asked back", () => {
    const ids = (q: string) => vanpoolsNamedIn(q, vanpools).map((v) => v.vanpool_id);
    expect(ids("what's going on with the fremont van?")).toEqual(["VP-108", "VP-110", "VP-111"]);
    expect(ids("any issues on the rancho cordova van?")).toEqual(["VP-113", "VP-115"]);
    expect(ids("how is the tracy van doing")).toEqual(["VP-108"]);
    expect(ids("riders who live in fremont")).toEqual([]);
  });
});
