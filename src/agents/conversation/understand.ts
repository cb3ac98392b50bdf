// Offline understanding of a question about a case: what it asks about (one or more
// topics, or an action), which check, which riders (by id, first or last name,
// "she", "the other one"), and whether it names another case or vanpool. Words are
// matched with typos allowed; the thread's earlier turns resolve follow-ups. Pure.
import { distance } from "fastest-levenshtein";
import type { CheckKind } from "../../domain/specialist-result.js";

export type Topic =
  | "checks"
  | "replies"
  | "emails"
  | "next"
  | "status"
  | "flagged"
  | "policy"
  | "why_not_cancel"
  | "program"
  | "vanpool"
  | "history"
  | "changes";
export type Action = "recheck" | "cancel" | "approve" | "follow_up";

export interface RosterEntry {
  employee_id: string;
  first_name: string;
  last_name: string;
  flagged: boolean;
  /** What else tells a rider apart ("the part-time rider", "the one in Chico"): home city, shift name. */
  traits?: string[];
}

/** What the thread established before this question. */
export interface ThreadContext {
  topics: Topic[];
  riderIds: string[];
  check?: CheckKind;
}

export interface Understanding {
  topics: Topic[];
  action?: Action;
  check?: CheckKind;
  /** Riders the question is about; empty means every flagged rider. */
  riderIds: string[];
  clarify?: string;
  /** The exact distance is asked for: answer with the band and where the exact figure is. */
  exact?: boolean;
  /** Someone says a rider's facts changed ("she says she's back on days"): check it against the record. */
  claim?: boolean;
  /** Riders or vanpools are compared. */
  compare?: boolean;
  /** Words that may be names of people not on this case ("cancel Diego" in another case's thread). */
  otherNames?: string[];
  /** The riders the case did not flag are asked about ("why only those 2? what about the other 3"). */
  unflagged?: boolean;
  /** What an email said is asked, not only that it went ("what exactly did we send greg?"). */
  quote?: boolean;
  /** Something the record does not hold, or the channel never shows: answered honestly, then what is known. */
  offRecord?: OffRecord;
  /** Whether riders are kept by an exception is asked. */
  kept?: boolean;
  /** A reply's full, unredacted wording is asked for. */
  fullReply?: boolean;
  /** The earlier cases of a vanpool are asked, not of a rider ("has this van had cases before?"). */
  vanpoolHistory?: boolean;
}

/** Asked-for things the answer cannot give: contact details (never shown), what is not tracked, anything else unknown. */
export type OffRecord = { kind: "contact" } | { kind: "untracked" } | { kind: "unknown"; words: string[] };

export interface NamedSubject {
  caseId?: string;
  vanpoolId?: string;
}

const LEXICON: Record<Topic, Record<string, number>> = {
  checks: words(
    "why:2 fail:3 failed:3 failing:3 fails:3 failure:3 missing:3 incomplete:3 inconclusive:3 unknown:2 undecided:3 reason:2 reasons:2 wrong:2 problem:2 issue:2 pass:2 passed:2 check:1 checks:1 verdict:3 evidence:3 far:3 farthest:3 furthest:3 closest:3 nearest:3 distance:3 miles:3 mile:3 live:2 lives:2 commute:2 shift:2 schedule:2 hours:2 band:3 confidence:3 confident:3 compatible:3 mismatch:3 match:2 matches:2 result:2 results:2 eligible:2 qualify:2 works:1 work:1 reference:2 location:2 away:2 address:1 zip:2 town:2 city:2 hometown:2 night:1 proof:2 findings:2 found:2",
  ),
  replies: words(
    "say:3 said:3 says:3 saying:3 reply:3 replied:3 replies:3 respond:3 responded:3 response:3 responses:3 wrote:2 written:3 writes:2 answer:2 answered:2 answers:2 hear:3 heard:3 told:2 explain:1 explained:2 claim:2 claimed:2 mention:2 mentioned:2 write:1 back:1 inbound:3 excuse:2 side:1 ask:2 asked:2 asking:2 question:2 questions:2",
  ),
  emails: words(
    "email:2 emails:3 emailed:3 sent:3 send:2 mail:2 contacted:3 contact:1 outreach:3 notified:3 notify:2 letter:2 message:1 messages:1 outbound:3 wrote:1 reached:2 receive:2 received:2 version:1",
  ),
  next: words(
    "when:2 deadline:3 due:3 timeout:3 expire:3 expires:3 expiry:3 until:2 next:3 happens:2 happen:2 date:1 overdue:3 clock:2 soon:2 time:1 long:1 left:1 wait:1 waiting:1 after:1 then:1 window:3 expired:3 lapse:3 lapsed:3 cutoff:3",
  ),
  status: words(
    "updates:3 latest:1 timed:2 status:3 stand:3 stands:3 standing:2 state:2 history:3 timeline:3 happened:3 opened:3 progress:2 summary:3 summarize:3 summarise:3 overview:3 deal:2 closed:2 resolved:2 cancelled:2 decided:2 outcome:3 story:2 going:1 recap:3 update:1 doing:2 audited:1 reaudits:2 reaudit:1 recheck:2 rechecked:3 rechecks:2 reaudited:3 removed:3 member:2 membership:3 signed:2 decision:2",
  ),
  flagged: words("who:2 which:1 riders:2 rider:1 flagged:2 people:2 employees:2 involved:3 names:2 list:2 members:2"),
  policy: words(
    "policy:3 process:3 procedure:3 rule:3 rules:3 limit:3 allowed:2 allow:2 exception:3 exceptions:3 appeal:3 appeals:3 eligibility:3 threshold:3 tolerance:3 privacy:3 program:1 covers:2 requirement:3 requirements:3 guideline:3 minutes:1 percent:3 percentage:3 pto:3 vacation:3 private:3 confidential:3 visible:3 fight:3 contest:3 dispute:3 challenge:3 disagree:3 overturn:3 measured:2",
  ),
  why_not_cancel: {},
  history: {},
  changes: {},
  program: words(
    "many:2 total:2 program:1 overall:2 backlog:3 figures:3 stats:3 statistics:3 automation:3 queue:2 cases:1 open:1 saved:2",
  ),
  vanpool: words("vanpool:1 van:1 roster:2 capacity:3 site:1 seats:2 coordinator:3 pickup:1"),
};

const ACTIONS: Record<Action, RegExp> = {
  recheck:
    /\b(re-?check|re-?audit|re-?run|re-?verify|check (it |them |him |her |this )?again|audit (it |this )?again|run (the )?(checks?|audit) again|verify (it )?again)\b/,
  cancel:
    /\b(cancel|remove|kick|terminate|drop|revoke)\b|\b(pull|take|boot) (\w+ ){0,2}(off|out of)\b|\b(keep|spare) (him|her|them)\b(?! (seat|spot|place))|\bcan (i|we) (still )?keep\b/,
  approve: /\b(approve|approved|sign off|go ahead|okay it|ok it)\b/,
  follow_up:
    /(?<!\b(the|that|this|our|your|his|her) )\b(draft|follow[- ]?up|nudge|remind|reminder|write (to|him|her|them)|email (him|her|them) again)\b/,
};

const CHECK_WORDS: Record<CheckKind, Record<string, number>> = {
  location: words(
    "location:3 distance:3 far:3 farthest:3 furthest:3 closest:3 nearest:3 miles:3 mile:3 live:3 lives:3 living:2 home:2 address:3 zip:3 town:3 city:2 hometown:3 commute:2 pickup:2 away:2 moved:2 move:1",
  ),
  shift: words(
    "shift:3 shifts:3 schedule:3 hours:3 time:1 runs:1 run:1 night:2 nights:2 swing:2 compatible:2 days:1 works:1 graveyard:2 roster:1 match:2 line:2 overlap:2 align:2 matches:2 start:2 starts:2 started:1 end:1 ends:2 early:1 late:1",
  ),
  employment: words(
    "employment:3 employed:3 terminated:3 termination:3 quit:2 left:2 leaves:1 separation:3 departed:3 hr:2 fired:3 resigned:3",
  ),
};

/** "what the policy says" is about the policy, not a rider's reply. */
const POLICY_SAYS = /\b(policy|rules?|guidelines?|procedure) (says?|states?)\b/;
/** "did we follow up with Diego?" asks what happened; it does not ask for a follow-up. */
const ASKS_ABOUT_THE_PAST = /^(did|have|has|had|was|were|when|who|why|how)\b/;
/**
 * A re-check named as a thing ("re-audit count?", "the re-check", "how many rechecks") is asked about, not
 * asked for, unless a verb asks for one ("run a re-check"). Read with hyphens removed, as ACTIONS.recheck is.
 */
const RECHECK_AS_A_THING =
  /\b(the|a|an|any|another|how many|number of|first|second|third|last|next|each|every|its|his|her|their|our)\s+re(check|audit)s?\b|\bre(check|audit)s\b|\bre(check|audit) (count|number|total|tally|so far|left|remaining|history|result|outcome|status)\b/;
const RECHECK_ASKED_FOR =
  /\b(run|do|trigger|start|kick off|queue|schedule|request|order)\s+(a|an|another|one more|the)?\s*re(check|audit)\b/;
const asksForARecheck = (unhyphenated: string) =>
  ACTIONS.recheck.test(unhyphenated) &&
  !ASKS_ABOUT_THE_PAST.test(unhyphenated) &&
  (!RECHECK_AS_A_THING.test(unhyphenated) || RECHECK_ASKED_FOR.test(unhyphenated));
const PRONOUNS = new Set(["he", "him", "his", "she", "her", "hers", "himself", "herself"]);
const PLURAL = new Set(["they", "them", "their", "both", "everyone", "all", "each"]);
const STOP = new Set(
  "a an the and or of to in on at is are was were be been do does did has have had it its this that what whats thats hows hes shes theres how i me my we us our you your for with from about any there can could would should will just please pool patrol case ok okay so hey hi".split(
    " ",
  ),
);

function words(spec: string): Record<string, number> {
  return Object.fromEntries(spec.split(" ").map((w) => [w.split(":")[0]!, Number(w.split(":")[1])]));
}

/** Short words too small for typo matching, as people mistype them. */
const SMALL_TYPOS: Record<string, string> = {
  wat: "what",
  whos: "who is",
  wht: "what",
  waht: "what",
  wats: "whats",
  hw: "how",
  wen: "when",
  whn: "when",
  wher: "where",
  dosnt: "doesnt",
  doesnt: "doesnt",
  dont: "dont",
  didnt: "didnt",
  hasnt: "hasnt",
  havent: "havent",
  isnt: "isnt",
  wont: "wont",
  cant: "cant",
};

/** Shorthand auditors type ("greg's sched", "loc check", "re-chks left b4 escalation"). */
const SHORTHAND: Record<string, string> = {
  sched: "schedule",
  scheds: "schedules",
  dist: "distance",
  loc: "location",
  chk: "check",
  chks: "checks",
  chkd: "checked",
  b4: "before",
  ppl: "people",
  addr: "address",
  addy: "address",
  hrs: "hours",
  msg: "message",
  msgs: "messages",
  thru: "through",
  y: "why",
  u: "you",
  ur: "your",
  r: "are",
  bc: "because",
  cuz: "because",
  tmrw: "tomorrow",
  wk: "week",
  excep: "exception",
  pls: "please",
  plz: "please",
};

/** The question with mistyped small words and shorthand put right ("wat happens if he dosnt reply"). */
export function normalize(text: string): string {
  return text.replace(/[a-z0-9]+/gi, (w) => SMALL_TYPOS[w.toLowerCase()] ?? SHORTHAND[w.toLowerCase()] ?? w);
}

export function tokens(text: string): string[] {
  return (
    text
      .toLowerCase()
      .replace(/['’]s\b/g, "")
      .replace(/re-(check|audit|run|verify)/g, "re$1")
      .replace(/%/g, " percent ")
      .match(/[a-z0-9]+/g) ?? []
  );
}

/** Typo-tolerant match of a typed word against a known word. */
export function sameWord(typed: string, known: string): boolean {
  if (typed === known) return true;
  if (typed.length < 4 || known.length < 4) return false;
  if (typed[0] !== known[0] && typed.length < 6) return false;
  const allowed = known.length >= 8 ? 2 : 1;
  return distance(typed, known) <= allowed || swapsTwoLetters(typed, known);
}

/** "tamkia" for "tamika": two neighbouring letters typed the other way round. */
function swapsTwoLetters(typed: string, known: string): boolean {
  if (typed.length !== known.length) return false;
  const at = [...typed].findIndex((c, i) => c !== known[i]);
  return (
    at >= 0 && typed[at] === known[at + 1] && typed[at + 1] === known[at] && typed.slice(at + 2) === known.slice(at + 2)
  );
}

/** Every word the lexicons know: a known word is never read as a typo of another ("status" is not "stats"). */
const KNOWN = new Set([...Object.values(LEXICON), ...Object.values(CHECK_WORDS)].flatMap((l) => Object.keys(l)));

function score(toks: string[], lexicon: Record<string, number>): number {
  let total = 0;
  for (const t of toks) {
    if (STOP.has(t) || (FILLER.has(t) && !KNOWN.has(t))) continue;
    let best = 0;
    const exact = KNOWN.has(t);
    for (const [w, weight] of Object.entries(lexicon))
      if (weight > best && (exact ? t === w : sameWord(t, w))) best = weight;
    total += best;
  }
  return total;
}

/** A case or vanpool id named in the question ("case 48f81374", "VP 102"). */
export function namedSubject(text: string): NamedSubject {
  const hex =
    /\bcase[\s#:-]*([0-9a-f]{16}|[0-9a-f]{8})\b/i.exec(text)?.[1] ??
    /\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])([0-9a-f]{16}|[0-9a-f]{8})\b/i.exec(text)?.[1];
  const vp = /\b(?:vp|vanpool|van)[\s#:-]*(\d{3})\b/i.exec(text)?.[1];
  return { ...(hex ? { caseId: `CASE-${hex.toUpperCase()}` } : {}), ...(vp ? { vanpoolId: `VP-${vp}` } : {}) };
}

/** Words any vanpool's name may carry: they do not tell one vanpool from another. */
const GENERIC_NAME_WORDS = new Set(
  "vanpool vanpools van pool express commuter commuters riders crew run shuttle the and".split(" "),
);
/** Words after part of a name that show a vanpool is meant ("the Almaden van"). */
const VEHICLE_WORDS = new Set(["van", "vanpool", "pool", "shuttle", "crew", "express", "riders", "group", "run"]);
/** The words after an everyday word ("night") that still make it a vanpool's name: "the night van". */
const VANS = new Set(["van", "vanpool", "shuttle"]);

export interface VanpoolName {
  vanpool_id: string;
  name: string | null;
  work_site?: string;
}

/** Words of a work site's name that say what kind of place it is, not where ("San Jose HQ", "Fremont Assembly Plant"). */
const GENERIC_SITE_WORDS = new Set(
  "hq headquarters plant assembly center centre distribution office campus site building warehouse depot the".split(
    " ",
  ),
);

/** "the Fremont van", "vans to Rancho Cordova": the place of its work site, which several vans may share. */
function siteStrength(asked: string[], site: string): number {
  const key = tokens(site).filter((t) => !GENERIC_SITE_WORDS.has(t));
  if (key.length === 0) return 0;
  return indexOfRun(asked, key).some(
    (i) => VEHICLE_WORDS.has(asked[i + key.length] ?? "") || ["to", "at"].includes(asked[i - 1] ?? ""),
  )
    ? key.length
    : 0;
}

/** The question's words worth looking for in vanpool names. */
export function nameSearchWords(question: string): string[] {
  return [...new Set(tokens(question).filter((t) => t.length >= 3 && !STOP.has(t) && !GENERIC_NAME_WORDS.has(t)))];
}

function indexOfRun(haystack: string[], run: string[]): number[] {
  const found: number[] = [];
  for (let i = 0; i + run.length <= haystack.length; i++) if (run.every((w, j) => haystack[i + j] === w)) found.push(i);
  return found;
}

/**
 * How surely the question names this vanpool: its whole name ("Night Owl Vanpool", "tracy park
 * and ride"), the start of its name followed by a word like "van" ("the Almaden van"), or all its
 * distinctive words when none of them is an everyday word of these questions ("Folsom Lake").
 */
function nameStrength(asked: string[], name: string): number {
  const all = tokens(name).filter((t) => t !== "and");
  const key = all.filter((t) => !GENERIC_NAME_WORDS.has(t));
  if (key.length === 0) return 0;
  if (indexOfRun(asked, all).length > 0) return all.length + 1;
  for (let k = key.length; k >= 1; k--) {
    const at = indexOfRun(asked, key.slice(0, k));
    if (at.some((i) => VEHICLE_WORDS.has(asked[i + k] ?? ""))) return k;
    // "why did bay fair fail": the start of a name, two words or more that are no everyday word here.
    if (at.length > 0 && k >= 2 && key.slice(0, k).every((w) => !KNOWN.has(w))) return k;
  }
  // "the night van": a word anywhere in the name, then a word like "van" ("shift riders" is no name).
  return key.some((w) =>
    indexOfRun(asked, [w]).some((i) => (KNOWN.has(w) ? VANS : VEHICLE_WORDS).has(asked[i + 1] ?? "")),
  )
    ? 1
    : 0;
}

/** The vanpools among `candidates` the question names best by their name: one, several that fit equally, or none. */
export function vanpoolsNamedIn(question: string, candidates: VanpoolName[]): VanpoolName[] {
  const asked = tokens(question).filter((t) => t !== "and");
  const scored = candidates
    .map((c) => ({
      c,
      strength: Math.max(c.name ? nameStrength(asked, c.name) : 0, c.work_site ? siteStrength(asked, c.work_site) : 0),
    }))
    .filter((c) => c.strength > 0)
    .sort((a, b) => b.strength - a.strength);
  return scored.filter((s) => s.strength === scored[0]!.strength).map((s) => s.c);
}

/**
 * The vanpools a comparison names by name ("evergreen commuter vs elk grove commuters"), each named surely (its
 * whole name, or two words of it), with where in the question it is named, to keep the order asked.
 */
export function vanpoolsComparedIn(question: string, candidates: VanpoolName[]): { vanpool_id: string; at: number }[] {
  const asked = tokens(question).filter((t) => t !== "and");
  const lower = question.toLowerCase();
  return candidates
    .filter((c) => c.name && nameStrength(asked, c.name) >= 2)
    .map((c) => {
      const key = tokens(c.name!).filter((t) => !GENERIC_NAME_WORDS.has(t) && t !== "and");
      return { vanpool_id: c.vanpool_id, at: lower.search(new RegExp(`\\b${key[0]}\\b`)) };
    });
}

function mentionedRiders(text: string, toks: string[], roster: RosterEntry[]): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(/\bemp[\s#:-]*(\d{3,5})\b/gi)) found.add(`EMP-${m[1]}`);
  for (const m of text.matchAll(/\b(\d{4})\b/g))
    for (const r of roster) if (r.employee_id.endsWith(`-${m[1]}`)) found.add(r.employee_id);
  for (const t of toks) {
    // "more" is no typo of Mora.
    if (STOP.has(t) || FILLER.has(t) || t.length < 3) continue;
    for (const r of roster) {
      const names = [r.first_name, r.last_name].map((n) => n.toLowerCase());
      if (names.some((n) => (t.length < 4 ? t === n : sameWord(t, n))) || shortFor(t, r.first_name))
        found.add(r.employee_id);
    }
  }
  return [...found];
}

/** "greg" for Gregory, "wen" is too short to tell: the start of a first name, four letters or more, no word of its own. */
function shortFor(typed: string, firstName: string): boolean {
  const name = firstName.toLowerCase();
  return nameStub(typed) && name.length > typed.length && name.startsWith(typed);
}

/** Three-letter words that begin a first name but mean something else ("yes", "san", "mon"). */
const NOT_A_STUB = new Set(
  "yes san sun mon tue wed thu fri sat cat fat jam rob die ash los del may jan dec".split(" "),
);

/** A word that may be the start of a first name ("dan", "greg"): three letters or more, no word of these questions. */
export function nameStub(word: string): boolean {
  return (
    word.length >= 3 &&
    !KNOWN.has(word) &&
    !STOP.has(word) &&
    !FILLER.has(word) &&
    !NOT_A_STUB.has(word) &&
    !/\d/.test(word)
  );
}

/** Words of a trait too common to tell riders apart ("Day Shift", "Part-Time Mornings"). */
const COMMON_TRAIT_WORDS = new Set(["shift", "time", "day", "days", "flex", "the", "san", "los", "el", "city"]);
const A_PERSON = /\b(rider|one|guy|person|employee|lady|woman|man|member|commuter|worker|girl|fellow)\b/;

/** "the part-time rider", "the one from Chico": a rider told apart by a trait, flagged riders first. */
function describedRiders(lower: string, toks: string[], roster: RosterEntry[]): string[] {
  // "this one" is the case; "who lives in Oakdale?" asks for a person as much as "the one in Oakdale" does.
  if (!A_PERSON.test(lower.replace(/\b(this|that) one\b/g, " ")) && !/^\W*who\b/.test(lower)) return [];
  const has = (r: RosterEntry) =>
    (r.traits ?? []).some((trait) =>
      tokens(trait)
        .filter((w) => w.length >= 4 && !COMMON_TRAIT_WORDS.has(w))
        .some((w) => toks.some((t) => sameWord(t, w))),
    );
  for (const group of [roster.filter((r) => r.flagged), roster]) {
    const found = group.filter(has);
    if (found.length > 0 && found.length < group.length) return found.map((r) => r.employee_id);
  }
  return [];
}

/** A question about the rule itself rather than this case's riders ("how is the distance limit measured?"). */
const ASKS_THE_RULE =
  /\bmeasured\b|\b\d+(\.\d+)? ?(mi|miles?|minutes?|mins?)( away| off| out| late| early)? (exactly|on the dot|flat)\b|\bis there an? (limit|rule|cap|max|maximum|minimum)\b|\bhow far (can|may|could|is) (you|a rider|riders|someone|people|one|an employee|employees)\b|\bmeasure (the|a|distance)|\b(on its own|by itself|itself|automatically)\b|\bbefore a (person|human|reviewer)|\bexactly (at |on )?(the )?(limit|\d+(\.\d+)?\b(?! ?(mi|miles?)? ?(out|away|from)\b))|\bhow (long|much time|many days) do(es)? (riders?|people|employees|someone|they|a rider) (have|get)\b|\b(does|do|must|should) (a|any) (rider|person|employee)s? (need|have|get)|\bneed to match\b|(?<!\b(did|has|have|had) )\bsomeone\b|\bappeal (window|period|deadline)\b|\bdoes where\b/;
/** "exact miles?", "the precise mileage": a rider's exact distance, not the rule about "exactly 50 miles". */
const ASKS_EXACT =
  /\b(exact|exactly|precise|precisely|actual|specific)\b.*\b(miles?|mileage|distance|far)\b|\b(miles?|mileage|distance|far)\b.*\b(exact|exactly|precise|precisely)\b|\b(see|show|view|open|pull up)\b.*\bevidence\b/;
/** Someone says a rider's home or shift changed, and asks why the check still fails. */
const REPORTS_A_CLAIM =
  /\b(says?|said|claims?|claimed|told (me|us|her|his|their|the|my|our)|insists?|swears?|according to|reports?|reported)\b.*\b(why|still|what would|what will|what (then|now)|how come|is that (what|right|true|correct|accurate|so)|do(es)? (we|that|the record)|on (record|file)|what we have|match(es)?|records?|agree)\b/;
/** "what would he need to change to pass", "if she went to days would she pass": what would change the result. */
const ASKS_WHAT_WOULD_PASS =
  /\bwhat (would|will|does|do) (s?he|they|it|\w+) (need|have|has) to\b|\bto (pass|qualify|stay on|keep (his|her|their) seat)\b|\bwhat would (make|it take|change)\b|\b(if|suppose|say)\b.*\b(would|will|could|does|do)\b.*\b(pass|qualify|be (fine|ok|okay|compatible|allowed))\b/;
/** The riders the case did not flag: "the other 3 riders", "why only those two", "the rest". */
const ASKS_UNFLAGGED =
  /\bwhy not (all|every|the whole|everyone|everybody|the others|the rest)\b|\bwhat about (all )?the (others|rest)\b|\b(other|remaining)\s+(\d+|two|three|four|five|six|seven|riders|people|members)\b|\bthe (rest|others)\b|\bwhy only\b|\beveryone else\b|\b(not|n'?t|never) (been )?flagged\b|\bunflagged\b|\b(who|which (riders?|ones?|people|employees))\b (\w+ ){0,4}(passed|pass(es)?|cleared|(is|are|was|were) (fine|ok|okay|clean))\b/;
/** What an email said, not only that it went. */
const ASKS_WORDING =
  /\b(which|what) version\b|\bwhat (\w+ )?(went out|got sent|was sent)\b|\bwhat (we|you|pool patrol) (actually |just |really |finally )?(sent|said|wrote|told)\b|\bedited (version|draft|e-?mail|reply|one|text)\b|\bend(ed)? up (getting|receiving|with)\b|\bquote\b|\bshow me (the|our) (e-?mail|message|letter)|\bwhat (did|does) (the|our|that|this) [\w\s-]{0,30}?(e-?mail|message|letter|follow-?up|reply|response) (to \w+ )?(actually |exactly |really )?say\b|\bwhat (exactly )?(did|have|has) (we|you|pool patrol|it) (just |actually )?(send|sent|say|said|tell|told|write|wrote|ask|asked)\b|\b(exact|actual) (words|wording|text)\b|\bwhat (did|does) (the|our|that|this|his|her|their) (last |latest |new )?(e-?mail|message|letter|follow-?up) say\b|\b(wording|contents?|body) of\b|\bwhat (did|does) (the|our|that|this) (\w+ )?(e-?mail|message|letter|follow-?up|reply|response|answer|draft)\b.*\b(say|tell|ask)\b/;
/** "how far off is his schedule", "how far apart are her hours": a gap in hours, the shift check's, not a distance. */
const SCHEDULE_GAP = /\b(schedules?|shifts?|hours|times?)\b/;
const DISTANCE_WORDS = /\b(miles?|mileage|distance|lives?|living|home|house|address|zip|town|city|pickup|away)\b/;
/** Where a distance is measured from ("do we measure from her sister's place?", "doesn't where she boards count?"). */
const MEASURED_FROM =
  /\b(measured?|measuring|counts?|counted|calculated?|computed?|distance)\b.*\bfrom\b|\bwhere (s?he|they|\w+) (gets? on|boards?|catch(es)?|meets?|parks?|is picked up)\b|\b(boards?|boarding|gets? on|picked up)\b.*\b(count|counts|instead|matter)\b|\b(sister|brother|friend|parent|mom|dad|mother|father|relative)['’]?s?\b.*\b(count|counts|measure|instead|home|house)\b/;
/** A draft someone edited ("the version I edited", "my edit"): what became of it. */
const EDITED_EMAIL =
  /\b(after|once|when) (i|we) (edited|changed|rewrote|reworded|tweaked|amended|fixed)\b|\b(version|draft|e-?mail|one|reply|text|wording|response) (that |which )?(i|we|you) (edited|changed|rewrote|reworded|fixed|tweaked|amended)\b|\bmy (edit|edits|version|edited \w+|changes|rewrite)\b/;
/** A figure exactly at the policy's limit ("exactly 50 miles", "50 on the dot"): at the limit counts as within. */
const AT_THE_LIMIT =
  /\bexactly (at |on )?(the )?(limit|\d+(\.\d+)?)\b|\b\d+(\.\d+)? ?(mi|miles?|minutes?|mins?)( away| off| out| late| early)? (exactly|on the dot|flat)\b|\bon the dot\b|\bright (at|on) the (limit|line)\b|\bat the limit\b/;
export const asksAtTheLimit = (question: string) => AT_THE_LIMIT.test(normalize(question).toLowerCase());
const WHO_WORKS_WHEN =
  /\bwho(?:'?s| is| are)? (on|working|works) (the )?(nights?|days|swing|graveyard|(night|day|swing|early|late) shifts?)\b/;
/** The vanpool itself is the subject ("this van", "the vanpool", "VP-109"), not a rider. */
const ABOUT_THE_VAN = /\b(this|the|that|our) (van|vanpool|pool|group|route)\b|\bvp[\s-]?\d{3}\b/;

/**
 * A request outside the program ("book conference room B", "tell me a joke", "what's the weather"): its words may
 * look like ours by a typo ("conference" for "confidence"), so it is told apart by what it asks for.
 */
const OUTSIDE_THE_PROGRAM =
  /^\W*(?:(?:can|could|would|will) you |pls |please )?(book|order|reserve|play|sing|draw|translate|recommend)\b|\b(tell me a joke|jokes?|weather|forecast|lunch|dinner|restaurants?|pizza|coffee|conference room|meeting room|wi-?fi|password|flights?|hotels?|stock price|sports?|movies?)\b/;
const OURS = /\b(cases?|riders?|vans?|vanpools?|flag\w*|polic\w+|shifts?|miles?|e-?mails?|repl\w+|checks?|audit\w*)\b/;

/** Contact details the channel never shows. */
const ASKS_CONTACT =
  /\be-?mail (address|addr)|(?<!\b(per|in|from|to|by|of|via|according to) )\b(his|her|their|\w+'s) (personal |private |own |home |work )?(e-?mail|number|phone|cell)\b(?! (reply|replies|said|says|thread|back))|\b(what|which) (number|phone|cell)\b|\b(call|text|reach|ring) (him|her|them|\w+) (at|on)\b|(?<!\b(pickup|site|work|office|van|vanpool|e-?mail|ip|pick-up|pick up) )\baddress(es)?\b|\bphone\b|\bcell( number)?\b|\bmobile( number)?\b|\bcontact (info|details|number)|\b(home|street) address\b|\b(his|her|their|\w+'?s) (home |mailing |postal |street )?address\b|\bstreet\b|\b(full|exact|whole|complete|five-digit|5-digit) zip\b|\bwhere exactly (do|does) (s?he|they|\w+) live\b|\blives? exactly\b|\bexact (home|address|location)\b/;
/** The full wording of a rider's reply ("paste the whole thing", "word for word"): replies are shown redacted. */
const ASKS_FULL_REPLY =
  /\b(paste|verbatim|word for word|whole thing|in full|unedited|unredacted|uncensored|blanked|nothing (blanked|redacted|removed|hidden|cut|left out)|everything (s?he|they|\w+) (wrote|said|sent)|full (text|reply|email|message|response)|entire (reply|email|message|response)|unredacted|raw (reply|email|text))\b|\bexactly (did|does) (s?he|they|\w+) (write|say|reply|answer)\b/;
/** What Pool Patrol does not record: whether an email was opened or read. */
const ASKS_UNTRACKED =
  /\b(open(ed|s)?|read|click(ed)?|seen|view(ed)?) (the |our |my |his |her |that |this |an |any )?(e-?mails?|messages?|letters?)\b|\bread receipts?\b|\bopen rate\b/;
const ASKS_SOMETHING =
  /\?|^\W*(what|whats|who|whos|when|where|why|how|is|are|was|were|will|can|could|would|does|do|did|has|have|need|give|tell|show|send|find|write|book|make|recommend|order|play|draw|compose|translate|sing|plan)\b/;
/** Words of a question that ask nothing by themselves. */
const FILLER = new Set(
  "about tell know need want get got going now yet still here one some thing things actually really also like think guess else more much very right last today tonight yesterday tomorrow".split(
    " ",
  ),
);
const ASKS_HISTORY =
  /\bhistory (with|on) (us|the program|pool patrol|this program)\b|\b(?!(?:case|vanpool|van|this|the)['’]s)([a-z]+['’]s|his|her|their) (case |audit |review )?history\b|\btrack record\b|\bever (been )?(on|in) (a|an|another) (case|review)\b|\bcases? before (this|that)\b|\b(flagged|reviewed|audited|caught|reported|been through a review) before\b|\bearlier cases?\b|\bprevious(ly)? (cases?|reviews?|flagged)\b|\bprior (cases?|reviews?)\b|\bfirst (review|case|time being)\b|\blast time\b|\bbefore\?$|\b(last|previous|prior|earlier|old|past|other) (case|review|audit)s?\b|\bever (been )?(flagged|reviewed|audited|caught)\b|\blet (s?he|him|her|them|\w+) off\b|\bever (had|have|has|got|gotten) (a |an |any )?(cases?|flags?|issues?|problems?|audits?)\b|\b(any |its |his |her |their )?(past|previous|prior|earlier|old) (flags?|issues?|problems?)\b|\bfirst time\b|\b(\w+['’]s|his|her|their) (past|background|record so far)\b/;
/** "where's this case at", "where does it stand". */
const WHERE_IT_STANDS =
  /^\W*(what'?s|whats|what is) (the )?latest\b|\bthe latest (on|with)\b|\bhow'?s (it|this|this one|this case|that one|that case|everything|things) (going|looking|doing)\b|\bhow (is|are) (it|this|this one|this case|things) (going|looking)\b|^\W*(any )?(updates?|news)\W*$|\bany (updates?|news)\b|\bwhere('?s| is| are| does| do)\b.*\b(at|stand|stands|standing)\b|\bwhere are we\b/;
/** "is he off the van now", "still riding". */
const OFF_THE_VAN =
  /\b(off|taken off|removed from|out of|still on|back on) (the |this |his |her |their )?(van|vanpool|roster)\b/;
/** "what's it waiting on", "what's left", "anything waiting on me". */
const WAITING_ON =
  /\bwhat (do|should|must|can|shall) (i|we) (even )?(need to |have to |gotta )?do\b|\bwhat('?s| is) (my|our) (next )?(move|step|part|job)\b|\bwhat(?:'?s| is| are)? (?:(?:it|this|that|we|they|the case|this case|this one) )?(?:still )?(?:waiting|left|remaining|outstanding|pending|holding)\b|\b(waiting|wait) on (me|us)\b|\b(anything|something) (still )?(waiting|pending|left|outstanding|for me)\b|\bneeds? (me|us)\b/;
/** "doesn't an hour count?", "does PTO count": whether something counts under the rule. */
const ASKS_IF_IT_COUNTS =
  /\b(does|do|doesn'?t|don'?t|would|wouldn'?t|will|should|shouldn'?t|isn'?t)\b.*\bcount(s|ed)?\b/;
/** When a rider's record changed: what imports recorded ("when did Diego's address change?"). */
const ASKS_CHANGES =
  /\b(address|home|zip|shift|schedule|record|data|profile)\b.*\b(chang(e|ed|es)|updated?|edited|corrected|imported)\b|\b(chang(e|ed|es)|updated?|edited|corrected)\b.*\b(address|home|zip|shift|schedule|record|data|profile)\b.*\b(when|since|last|ever|history|log)\b|\bimport(ed|s)?\b|\bchange (history|log)\b/;
const ASKS_WHEN_CHANGED = /\b(when|last|ever|history|log|since|has|have|did|was)\b/;
/** A person's exception: who is kept, until when ("is there an exception on Diego?"), not the rule for exceptions. */
const ASKS_WHO_IS_KEPT = /\b(who|which riders?|anyone|anybody)\b.*\b(kept|exempt(ed)?|waived)\b/;
const KEPT_WORDS = /\b(kept|exceptions?|exempt(ed|ion)?|waived?|waiver|override|overrule)\b|\blet (\w+ )?off\b/;
/** "can it drop him by itself?": whether Pool Patrol cancels without a person, asked about a rider or the case. */
const ASKS_AUTONOMY =
  /\b(on (its|it'?s|their) own|by (it|him|her)self|itself|automatic(ally)?|auto-?(cancel|remove|drop)\w*|without (a |an |any )?(person|human|approver|anyone|anybody|review|reviewer|sign-?off))\b/;
const CANCELS = /\b(cancel\w*|drop\w*|remov\w*|kick\w*|terminat\w*|boot\w*|revok\w*|pull\w*)\b/;
const KEPT_UNTIL = /\b(until|expire[sd]?|run out|runs out|ends?|still)\b/;
/** Our email was approved ("the reply we signed off on", "I okayed the draft"). */
const APPROVED = /\b(approved|okayed|ok'?d|signed off|greenlit|green-lit)\b/;
const EMAIL_WORDS = /\b(e-?mails?|repl(y|ies)|draft|message|follow[- ]?up|letter|wording|response|answer)\b/;
export const COMPARES =
  /\bwho(?:'?s| is) (further|farther|closer|nearer|worse|better)\b|\bwhich (is|one is|one'?s|one|of them is) (worse|better|further|farther|closer|riskier)\b|\b(compare|compared|comparison|vs|versus|difference|different|differ|diff|side by side|next to|stack up|same)\b|\b(further|farther|closer|nearer|worse|better|more|less|fewer)\b.*\bthan\b/;
/** Everyday words that are also someone's name in the roster of employees ("grace period"). */
const NOT_A_NAME = new Set(
  "grace hill bell dunn gill mora lin mai rao cho shah stein greene carter kim someone somebody anyone anybody everyone everybody exactly".split(
    " ",
  ),
);
/** What a person does to a case or rider: "keep one and drop the other" names no one called Drop. */
const DECISION_VERBS = new Set(
  "cancel remove drop kick pull take boot keep spare let approve reject edit send email recheck reaudit audit decide grant give".split(
    " ",
  ),
);

export function understand(asked: string, roster: RosterEntry[], context?: ThreadContext): Understanding {
  // Fillers that look like facts: "so far" is not a distance.
  const question = normalize(asked).replace(/\bso far\b|\bthanks?( you)?\b|\bplease\b/gi, " ");
  const lower = question.toLowerCase();
  const toks = tokens(question);
  const flagged = roster.filter((r) => r.flagged).map((r) => r.employee_id);
  const mentioned = mentionedRiders(question, toks, roster);
  const named = mentioned.length ? mentioned : describedRiders(lower, toks, roster);
  const unflagged = ASKS_UNFLAGGED.test(lower) && named.length === 0 && roster.some((r) => !r.flagged);
  // "and his?" right after "what's tamika's problem": the other rider's, by contrast ("and him?" stays on him).
  const contrasted = /^\W*(and|what about|how about|n)\s+(his|hers)\W*$/.test(lower);
  const saysOther =
    contrasted || /\b(the )?other (one|rider|person|employee|guy|lady|woman|man)?\b|\bsecond (one|rider)\b/.test(lower);
  const pronoun = toks.some((t) => PRONOUNS.has(t));
  const plural = toks.some((t) => PLURAL.has(t));

  let action: Action | undefined;
  const whyNot =
    /\bwhy (not|hasn'?t|haven'?t|isn'?t|wasn'?t|didn'?t|don'?t|won'?t|no)\b|\bwhy (is|was) (s?he|it|they) (still|not)\b/.test(
      lower,
    );
  const asksTheRule =
    (ASKS_THE_RULE.test(lower) || /\b(what if|if|suppose|say)\b.*\bexactly \d/.test(lower)) &&
    !/\b(s?he|his|her|him)\b/.test(lower);
  // "exactly 50 miles" asks the rule; "is he exactly 85 miles out" his distance.
  // "how far off is his schedule exactly": the gap of a shift, not an exact distance.
  const scheduleGap = SCHEDULE_GAP.test(lower) && !DISTANCE_WORDS.test(lower);
  const exact =
    !scheduleGap &&
    !asksTheRule &&
    ASKS_EXACT.test(lower) &&
    !/\b(what if|if|suppose|say)\b.*\bexactly\b/.test(lower) &&
    !/\bexactly (at |on )?(the )?(limit|\d+(\.\d+)?\b(?! ?(mi|miles?)? ?(out|away|from)\b))/.test(lower);
  const asksAutonomy = ASKS_AUTONOMY.test(lower) && CANCELS.test(lower);
  if (OUTSIDE_THE_PROGRAM.test(lower) && !OURS.test(lower) && named.length === 0)
    return { topics: [], riderIds: [], clarify: OFF_TOPIC };
  if (asksTheRule || asksAutonomy) action = undefined;
  else if (asksForARecheck(lower.replace(/-/g, ""))) action = "recheck";
  else if (ACTIONS.follow_up.test(lower.replace(/\bremind (me|us)\b/g, " ")) && !ASKS_ABOUT_THE_PAST.test(lower))
    action = "follow_up";
  else if (
    ACTIONS.cancel.test(lower) &&
    !whyNot &&
    !/\b(would|will|could|happens?|when|if)\b|\b(did|have|has|had) (we|they|you|someone|anyone|anybody|an approver)\b/.test(
      lower,
    )
  )
    action = "cancel";
  else if (ACTIONS.approve.test(lower) && !/\b(who|when|was|been|has|did|we|just|before)\b/.test(lower))
    action = "approve";

  const scores = (Object.keys(LEXICON) as Topic[]).map((topic) => [topic, score(toks, LEXICON[topic])] as const);
  // "we just approved the cancellation": the case's state; "the email we just approved": what was sent.
  const approvedAnEmail = APPROVED.test(lower) && EMAIL_WORDS.test(lower);
  // "we rejected that draft, so nothing went out?": what became of an email, not the case's state.
  const decidedAnEmail =
    approvedAnEmail ||
    (/\b(rejected|declined|edited|scrapped|binned|killed|tossed)\b/.test(lower) && EMAIL_WORDS.test(lower));
  // "what did we send her" is about our emails, "what did she say" about her reply.
  const weSent =
    approvedAnEmail ||
    /\b(we|you|pool patrol)\b.*\b(send|sent|tell|told|email(ed)?|write|wrote|ask(ed)?)\b|\b(get|got|gets|getting|gotten|receive|received|receiving) (\w+ ){0,2}from (us|you|pool patrol)\b|\bour (reply|response|answer|e-?mail|message|letter)\b|\bheard? (back )?from (us|you|pool patrol)\b/.test(
      lower,
    );
  // "the reply window", "when are replies due": the deadline, not what was written.
  const replyDeadline = /\brepl(y|ies) (window|deadline|period|clock|due|by)\b|\brepl(y|ies) (is|are) due\b/.test(
    lower,
  );
  // "how long has he been riding": the past, not a deadline.
  // "what happens if he doesn't reply": what comes next, not his reply.
  const noReplyYet =
    /\b(if|when|once) (s?he|they|\w+) (doesnt|dont|does not|do not|never|fails? to|wont|will not|didnt) (reply|respond|answer|write)|\bno (reply|response|answer)\b/.test(
      lower,
    );
  const howLongUntil = /\bhow long\b/.test(lower) && !/\bhow long (has|have|had|did|was|were)\b/.test(lower);
  // "the cutoff date for Diego to respond": his deadline, not his reply.
  const replyBy =
    /\bto (respond|reply|answer|get back|write back)\b/.test(lower) &&
    /\b(date|when|deadline|cutoff|due|long|left|until|by)\b/.test(lower);
  const keptAsked =
    (ASKS_WHO_IS_KEPT.test(lower) ||
      (/\b(any|active) (exceptions?|exemptions?|waivers?)\b/.test(lower) &&
        !/\bfor (people|riders|someone|anyone|anybody|employees|those|a rider)\b/.test(lower)) ||
      (KEPT_WORDS.test(lower) && (named.length > 0 || KEPT_UNTIL.test(lower)))) &&
    // "can we override the rule for Cody": him kept, not the rule quoted.
    (!/\b(policy|rules?|how (do|does|can|to))\b/.test(lower) ||
      (named.length > 0 && /\b(override|overrule|waive|exempt)\b/.test(lower)));
  const adjusted = scores.map(([topic, s]) => {
    // "when did it time out": when something happened is the case's timeline, not what comes next.
    if (
      topic === "status" &&
      /\bwhen (did|was) (it|this|that|the case|this case) (time|timed|expire|lapse|close|closed|get|go|move|escalate)/.test(
        lower,
      )
    )
      return [topic, s + 7] as const;
    if (topic === "policy" && asksTheRule) return [topic, s + 6] as const;
    // "who couldn't be checked on shift": the check's riders it could not decide.
    if (
      topic === "checks" &&
      /\b(couldn'?t|could not|can'?t|cannot|wasn'?t|was not|not) (\w+ )?be(en)? (checked|located|verified|found|measured)\b|\b(doing|do|does|did|fare|fared) (on|in|with) (the )?(checks?|audit|location|shift)\b/.test(
        lower,
      )
    )
      return [topic, s + 4] as const;
    if (topic === "status" && (WHERE_IT_STANDS.test(lower) || OFF_THE_VAN.test(lower))) return [topic, s + 4] as const;
    if (topic === "next" && WHERE_IT_STANDS.test(lower)) return [topic, s + 4] as const;
    if (topic === "status" && /\b(just|we) (approved|okayed|rejected|decided)\b/.test(lower) && !decidedAnEmail)
      return [topic, s + 4] as const;
    if (topic === "next" && WAITING_ON.test(lower)) return [topic, s + 4] as const;
    if (topic === "policy" && ASKS_IF_IT_COUNTS.test(lower)) return [topic, s + 5] as const;
    if (topic === "policy" && /\bwhat (can|could|should) (s?he|they|the riders?|(?!i\b|we\b)\w+) do\b/.test(lower))
      return [topic, s + 4] as const;
    if (topic === "next" && /\bhow many (re-?checks?|re-?audits?)\b.*\b(left|remain)/.test(lower))
      return [topic, s + 5] as const;
    if (topic === "checks" && asksTheRule) return [topic, Math.max(0, s - 3)] as const;
    // "how many hours apart is that": a gap of a rider's, not the program's figures.
    if (topic === "program" && /\bhow many (hours|minutes|miles)\b/.test(lower))
      return [topic, Math.max(0, s - 3)] as const;
    if (
      topic === "next" &&
      /\bby when\b|\b(have|has|need|needs) to (respond|reply|answer)\b|\b(respond|reply|answer) by\b/.test(lower)
    )
      return [topic, s + 4] as const;
    if (
      topic === "emails" &&
      (approvedAnEmail ||
        /\b(just|we) (sent|send)\b|\b(go|went|gone|goes|got sent) out\b|\bafter (my|the|our|your|his|her) edits?\b|\bedited (version|draft|e-?mail|reply|one|text)\b/.test(
          lower,
        ))
    )
      return [topic, s + 4] as const;
    if (topic === "emails" && weSent) return [topic, s + 3] as const;
    if (topic === "emails" && EDITED_EMAIL.test(lower)) return [topic, s + 6] as const;
    if (topic === "replies" && (weSent || POLICY_SAYS.test(lower) || replyDeadline))
      return [topic, Math.max(0, s - 3)] as const;
    if (
      topic === "next" &&
      (replyDeadline ||
        noReplyYet ||
        /\b(run|runs|ran) out\b|\bwaiting (on|for) (anyone|anybody|someone|who|whom)\b|\bwho(?:'?s| is| are)? (we |it |this |the case )?(still )?waiting\b/.test(
          lower,
        ))
    )
      return [topic, s + 4] as const;
    if (topic === "replies" && noReplyYet) return [topic, Math.max(0, s - 3)] as const;
    if (
      topic === "replies" &&
      /\b(get|gets|got|gotten|getting|write|wrote|written|come|came) back( to (us|me|you))?\b/.test(lower)
    )
      return [topic, s + 4] as const;
    if (
      topic === "replies" &&
      /\bwhat (did|does|has|have) .*\b(say|said|tell|told|write|wrote|ask|asked|mention)\b/.test(lower)
    )
      return [topic, s + 3] as const;
    if (topic === "checks" && /\bhow many (days?|miles?)\b/.test(lower)) return [topic, s + 3] as const;
    // "who is on nights?": whose shift is which, the shift check's.
    if (topic === "checks" && WHO_WORKS_WHEN.test(lower)) return [topic, s + 4] as const;
    if (
      topic === "vanpool" &&
      /\bhow many (riders|people|seats|members)\b.*\b(van|vanpool|on (it|this|board))\b/.test(lower)
    )
      return [topic, s + 4] as const;
    if (
      topic === "program" &&
      /\b(any|which|what) cases\b|\bcases (are |that are )?(waiting|open|pending|stuck)\b/.test(lower)
    )
      return [topic, s + 3] as const;
    if (
      topic === "policy" &&
      /\bwho (can|gets to|is allowed to|will) (see|know|view|read)\b|\bcan (the )?(\w+ ){1,2}(see|know|view)\b/.test(
        lower,
      )
    )
      return [topic, s + 4] as const;
    if (
      topic === "status" &&
      /\bwho (signed|approved|decided|rejected|cancell?ed|closed|okayed|ok'?d|made (the|that|this) (call|decision)|ruled)\b|\b(go|gone|went|goes) through\b|\bdid (the|that|this|it) (\w+ )?(actually |really )?(happen|go ahead|take effect|stick)\b|\bstill pending\b|\bby (who|whom)\b|\b(did|have|has) (we|they|you|someone|anyone|anybody|an approver|the approver) (keep|kept|cancel|remov|reject|approv|decide|close|sign|ok)|\b(was|were|got) (it |this |that |the \w+ |they |s?he )?(approved|rejected|cancell?ed|closed|resolved|decided|removed|kept)\b|\bis (this|the|it|that) (case |one )?(still )?(open|closed|active|resolved|done|over)\b|\bhow did (it|this|that|the case|s?he|they) (end|turn out|go|wrap up)\b|\bend(ed)? up\b|\bstill (in|on|part of|riding|a member)\b|\bwhich (case|vanpool|van) (is|was|are) \w+ (on|in)\b|\bwhen\b.*\b(open|opened|start|started|created)\b/.test(
        lower,
      )
    )
      return [topic, s + 4] as const;
    if (
      topic === "vanpool" &&
      /\bwhere\b.*\b(pickup|pick-up|pick up|work ?site|office|meet)\b|\b(work ?site|pickup) (address|location)\b/.test(
        lower,
      )
    )
      return [topic, s + 4] as const;
    if (
      topic === "replies" &&
      /\b(per|according to|in|from) (his|her|their|the|that) (e-?mail|reply|message|response|note)\b/.test(lower)
    )
      return [topic, s + 4] as const;
    if (
      topic === "replies" &&
      !weSent &&
      /\b(anything|something|word|news) (back )?from\b|\bheard? (back )?from\b/.test(lower)
    )
      return [topic, s + 3] as const;
    if (topic === "next" && replyBy) return [topic, s + 4] as const;
    if (
      topic === "next" &&
      /\bbefore (this|it|the case) (goes|gets|moves|is sent)\b|\bbefore (an? )?(approver|person|human)\b/.test(lower)
    )
      return [topic, s + 4] as const;
    if (topic === "replies" && replyBy) return [topic, Math.max(0, s - 3)] as const;
    if (topic === "emails" && decidedAnEmail) return [topic, s + 4] as const;
    if (topic === "checks" && keptAsked) return [topic, s + 5] as const;
    if (topic === "policy" && keptAsked) return [topic, Math.max(0, s - 3)] as const;
    // "how many people got flagged here": this case's riders, not the program's figures.
    if (
      topic === "flagged" &&
      /\bhow many\b.*\bflagged\b/.test(lower) &&
      !/\b(program|overall|total|across|all cases|in all)\b/.test(lower)
    )
      return [topic, s + 5] as const;
    if (
      topic === "vanpool" &&
      /\b(list|name|show)\b (me )?(all |every |the )?(riders|members|people)\b|\bwho( else)?('?s| is| are)? (riding|on|in) (the |this |that )?(van|vanpool|roster)\b|\bwho( else)? (rides|is on|are on|all ride)\b|\broster\b/.test(
        lower,
      ) &&
      !WHO_WORKS_WHEN.test(lower)
    )
      return [topic, s + 6] as const;
    if (
      topic === "program" &&
      named.length === 0 &&
      /\bhow many\b/.test(lower) &&
      !/\bhow many (more )?(re-?audits?|re-?checks?|days?|miles?|hours?|minutes?|riders?|emails?|reminders?|nudges?|people|employees|members|of them)\b/.test(
        lower,
      )
    )
      return [topic, s + 3] as const;
    if (topic === "policy" && /\bhow (do|to|can|does)\b.*\b(update|change|appeal|fix)\b|\bprocess\b/.test(lower))
      return [topic, s + 3] as const;
    if (
      topic === "status" &&
      /\b(waiting|sitting|stuck) (on|for|with) (a |an )?(person|human|someone|approver|reviewer)|\bneeds? a (person|human)|\bwith (a|the|an) (person|human|reviewer|approver)s?\b/.test(
        lower,
      )
    )
      return [topic, s + 4] as const;
    if (
      topic === "next" &&
      (howLongUntil ||
        /\bwhat (happens|now|next)\b|\btime ?out\b|\b(going to|gonna|about to) (be|get)\b|\bwill (it|this|they|s?he|the case) (be|get)\b/.test(
          lower,
        ))
    )
      return [topic, s + 3] as const;
    if (
      topic === "checks" &&
      /\bhow far\b|\bwhat shift\b|\bwhy\b.*\b(fail|flag|open|escalat|raised|created|start)|\bwhat (time|hours)\b.*\bvan\b|\bvan'?s? (schedule|hours)\b/.test(
        lower,
      )
    )
      return [topic, s + 3] as const;
    return [topic, s] as const;
  });
  let topics: Topic[] = [];
  if (
    ASKS_HISTORY.test(lower) ||
    (/\bhistory\b/.test(lower) && /\b(vans?|vanpools?|pool)\b|\bvp[\s-]?\d{3}\b/.test(lower) && named.length === 0)
  )
    topics = ["history"];
  else if (
    ASKS_CHANGES.test(lower) &&
    ASKS_WHEN_CHANGED.test(lower) &&
    !/\bhow (do|to|can|does|should)\b|\b(policy|rules?|process)\b/.test(lower)
  )
    topics = ["changes"];
  else if (
    (whyNot && /\b(cancel|remove|kick|closed?|resolved?)/.test(lower)) ||
    (asksAutonomy && (named.length > 0 || pronoun))
  )
    topics = ["why_not_cancel"];
  else {
    const best = Math.max(...adjusted.map(([, s]) => s));
    // "who won the game last night": one weak word ours, the rest about something else.
    const offTopic = best <= 2 && named.length === 0 && !action && unknownWords(toks, roster).length >= 2;
    if (best >= 2 && !offTopic)
      topics = adjusted
        .filter(([, s]) => s >= Math.max(2, best * 0.75))
        .sort((a, b) => b[1] - a[1])
        .slice(0, 2)
        .map(([t]) => t);
  }
  // "earlier cases for wendell, and is he still kept?": his history and the exception that keeps him.
  if (keptAsked && topics.includes("history") && !topics.includes("checks")) topics = [...topics, "checks"];
  // "does that hour count against her?" with Lucia named: the rule, and how she does against it.
  if (topics.length === 1 && topics[0] === "policy" && mentioned.length > 0 && !asksTheRule)
    topics = ["policy", "checks"];
  // "who else besides Diego": the riders named are the ones left out.
  const excluded = /\b(besides|other than|except|apart from|aside from)\b/.test(lower) ? named : [];
  // A rider named with "who" is about that rider's results, not the list.
  if (topics[0] === "flagged" && named.length > 0) topics = ["checks"];

  const checkScores = (Object.keys(CHECK_WORDS) as CheckKind[]).map((c) => [c, score(toks, CHECK_WORDS[c])] as const);
  const topCheck = checkScores.sort((a, b) => b[1] - a[1])[0]!;
  let check: CheckKind | undefined = topCheck[1] >= 2 && checkScores[1]![1] < topCheck[1] ? topCheck[0] : undefined;
  if (scheduleGap && /\bhow far\b|\bfar (off|apart|out)\b|\bapart\b|\bgap\b|\bdifference\b|\boff by\b/.test(lower))
    check = "shift";
  const measuredFrom = MEASURED_FROM.test(lower) && !scheduleGap;
  if (measuredFrom) check = "location";

  // "and the other rider?" names riders, not a new topic: it continues the thread's.
  if (saysOther && topics.every((t) => t === "flagged") && !/\b(who|which)\b/.test(lower)) topics = [];
  const followUp =
    topics.length === 0 &&
    (named.length > 0 || saysOther || pronoun || plural || /\b(and|what about|how about)\b/.test(lower));
  if (followUp && context && context.topics.length > 0) {
    topics = context.topics;
    check ??= context.check;
  }

  const rosterNames = new Set(roster.flatMap((r) => [r.first_name, r.last_name].map((n) => n.toLowerCase())));
  // A name is written with a capital, or stands where a person does ("cancel diego", "tamika's shift").
  const nameLike = new Set(
    [
      ...(asked.match(/\b[A-Z][a-z]+\b/g) ?? []),
      ...[
        ...lower.matchAll(
          /\b(?:cancel|remove|drop|kick|pull|take|boot|email|about|did|does|has|is|was|for|compare|and|vs|with|to|why)\s+([a-z]+)\b/g,
        ),
      ].map((m) => m[1]!),
      ...[...lower.matchAll(/\b([a-z]+)['’]s\b/g)].map((m) => m[1]!),
    ].map((w) => w.toLowerCase()),
  );
  const otherNames = toks.filter(
    (t) =>
      nameLike.has(t) &&
      t.length >= 3 &&
      !STOP.has(t) &&
      !KNOWN.has(t) &&
      !NOT_A_NAME.has(t) &&
      !DECISION_VERBS.has(t) &&
      !PRONOUNS.has(t) &&
      !PLURAL.has(t) &&
      !rosterNames.has(t) &&
      ![...rosterNames].some((n) => sameWord(t, n)) &&
      !roster.some((r) => shortFor(t, r.first_name)),
  );
  let riderIds = excluded.length ? flagged.filter((id) => !excluded.includes(id)) : named;
  // "the San Leandro rider" when two riders live there: ask which.
  if (mentioned.length === 0 && named.length > 1 && !plural)
    return { topics, action, check, riderIds: [], clarify: whichRider(roster, named) };
  if (unflagged) {
    riderIds = roster.filter((r) => !r.flagged).map((r) => r.employee_id);
    if (topics.every((t) => t === "flagged" || t === "checks")) topics = ["checks"];
  } else if (riderIds.length === 0 && saysOther) {
    const focus = context?.riderIds ?? [];
    const others = flagged.filter((id) => !focus.includes(id));
    if (focus.length === 0 && flagged.length > 2)
      return { topics, action, check, riderIds: [], clarify: whichRider(roster, flagged) };
    riderIds = focus.length > 0 ? others : flagged.slice(1);
  } else if (riderIds.length === 0 && pronoun && !plural) {
    const focus = context?.riderIds ?? [];
    if (focus.length === 1) riderIds = focus;
    else if (flagged.length === 1) riderIds = flagged;
    // "what about cody, did he reply?" with Cody on another case: he is said to be elsewhere, not asked about.
    // "remove him" with two riders flagged: which one is asked, never guessed.
    else if (flagged.length > 1 && (!action || action === "cancel") && otherNames.length === 0)
      return { topics, action, check, riderIds: [], clarify: whichRider(roster, flagged) };
  }

  const claim =
    (REPORTS_A_CLAIM.test(lower) || ASKS_WHAT_WOULD_PASS.test(lower) || measuredFrom) &&
    (riderIds.length > 0 || pronoun);
  const compare = COMPARES.test(lower);
  const offRecord = offRecordIn(
    lower,
    toks,
    roster,
    topics,
    asksTheRule || Boolean(action || exact || compare || claim),
  );
  if (offRecord?.kind === "contact") {
    // What may be told instead: the rider's home town, ZIP3 and distance band.
    topics = ["checks"];
    check = "location";
  } else if (offRecord?.kind === "untracked") topics = ["emails"];
  else if (exact) {
    topics = ["checks"];
    check = "location";
  } else if (claim && measuredFrom) topics = ["policy", "checks"];
  else if (claim || (compare && riderIds.length > 1)) topics = ["checks"];
  else if (measuredFrom && !topics.includes("policy")) topics = ["policy"];
  // "maribel's original email, unredacted": what she wrote to us, not what we sent.
  if (ASKS_FULL_REPLY.test(lower) && riderIds.length > 0 && !weSent && topics.includes("emails")) topics = ["replies"];
  const quote = topics.includes("emails") && (ASKS_WORDING.test(lower) || EDITED_EMAIL.test(lower));
  const extra = {
    ...(exact ? { exact } : {}),
    ...(claim ? { claim } : {}),
    ...(compare ? { compare } : {}),
    ...(otherNames.length ? { otherNames } : {}),
    ...(unflagged ? { unflagged } : {}),
    ...(quote ? { quote } : {}),
    ...(offRecord ? { offRecord } : {}),
    ...(keptAsked ? { kept: true } : {}),
    ...(ASKS_FULL_REPLY.test(lower) && topics.includes("replies") ? { fullReply: true } : {}),
    ...(topics.includes("history") && named.length === 0 && ABOUT_THE_VAN.test(lower) ? { vanpoolHistory: true } : {}),
  };
  if (topics.length === 0 && !action) {
    if (riderIds.length > 0) topics = ["checks", "replies"];
    else {
      // "where should we go for lunch": nothing of the program's in it, nobody meant by it.
      const offTopic = offRecord?.kind === "unknown" && !pronoun && !plural;
      const clarify = offTopic ? OFF_TOPIC : offRecord ? CANNOT_ANSWER : CLARIFYING_OPTIONS;
      return { topics, check, riderIds, clarify, ...extra };
    }
  }
  // "brent's schedule vs the van's": one rider against the van keeps the check asked about.
  return { topics, action, check: compare && riderIds.length !== 1 ? undefined : check, riderIds, ...extra };
}

/** What the question asks that no answer here can give: contact details, what is not tracked, or words nothing knows. */
function offRecordIn(
  lower: string,
  toks: string[],
  roster: RosterEntry[],
  topics: Topic[],
  answerable: boolean,
): OffRecord | undefined {
  const aboutTheRule =
    answerable || /\b(who|policy|update|change|fix|correct|wrong|moved|visible|private)\b/.test(lower);
  if (ASKS_CONTACT.test(lower) && !aboutTheRule) return { kind: "contact" };
  if (ASKS_UNTRACKED.test(lower)) return { kind: "untracked" };
  // Only a question or a request can ask for something the record lacks ("hmm, interesting" asks nothing).
  if (topics.length > 0 || answerable || !ASKS_SOMETHING.test(lower)) return undefined;
  const words = unknownWords(toks, roster);
  return words.length ? { kind: "unknown", words } : undefined;
}

/** The question's words that no lexicon, roster name or filler knows ("salary", "weather", "game"). */
function unknownWords(toks: string[], roster: RosterEntry[]): string[] {
  const names = roster.flatMap((r) => [r.first_name, r.last_name].map((n) => n.toLowerCase()));
  return toks.filter(
    (t) =>
      t.length >= 3 &&
      !/\d/.test(t) &&
      !STOP.has(t) &&
      !FILLER.has(t) &&
      !KNOWN.has(t) &&
      !PRONOUNS.has(t) &&
      !PLURAL.has(t) &&
      !A_PERSON.test(t) &&
      !names.some((n) => sameWord(t, n)),
  );
}

export function whichRider(roster: RosterEntry[], ids: string[], asking = "do you mean"): string {
  const names = ids.map((id) => roster.find((r) => r.employee_id === id)!).map(riderName);
  return `Which rider ${asking}: ${names.slice(0, -1).join(", ")} or ${names.at(-1)}?`;
}

export const riderName = (r: Pick<RosterEntry, "employee_id" | "first_name" | "last_name">) =>
  `${r.first_name} ${r.last_name} (${r.employee_id})`;

export const OFF_TOPIC =
  "I can't answer that: I can only answer about the program's vanpools and cases. Want to know why a case was flagged, what a rider replied or when replies are due?";

export const CANNOT_ANSWER =
  "I can't answer that from the record. I can tell you *why the case was flagged* (the check results), *what the riders replied*, *which emails we sent*, *what happens next and when*, a rider's *earlier cases*, or *the policy* behind it. Which would help?";

export const CLARIFYING_OPTIONS =
  "I'm not sure what you want to know (approvers can also say _re-check location_). Do you mean *why the case was flagged* (the check results), *what the riders replied*, *which emails we sent*, *what happens next and when*, or *the policy* behind it?";
