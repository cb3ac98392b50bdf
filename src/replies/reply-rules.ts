// Hand-written patterns over a rider's reply: escalation patterns (disputes, anger, legal or HR talk, sensitive
// situations), cues for the answerable buckets, stated changes and denied problems. The classifier's model
// weighs what they notice; the few that never misfire on any labelled reply escalate on their own.
import type { ReplyBucket } from "../domain/case-lifecycle.js";
import { spellingCorrector, wordFrequencies } from "./reply-spelling.js";
import { extractReplyText } from "./reply-text.js";

/** Phrases that always need a human, whatever else the reply says. */
const ESCALATION_PATTERNS: [RegExp, string][] = [
  [/\b(lawyer|attorney|abogad[oa]|legal|illegal|legally|my rights|sue|lawsuit|court)\b/, "legal"],
  [
    /\b(union(?! city)|sindicato|steward|grievance|ombuds)|(talk|speak|go|going|went|contact|report|complain|cc|copy|copying|take (?:this|it)|taking (?:this|it))\w*(?:'ing)? (?:this )?(?:(?:to|with) )?(hr|human resources|my rep)\b|recursos humanos/,
    "HR or union",
  ],
  [
    /\b(discriminat\w*|harass\w*|retaliat\w*|targeted|racial\w* profil\w*|singl\w* (?:\w+ )?out)/,
    "discrimination or retaliation",
  ],
  // A rider naming a group people are treated differently for, or hinting it is no accident, is for a person.
  [
    /\b(?:wom[ae]n|female|gender|racis\w*|race|black|latin[oax]s?|hispanic|asian|immigrants?|foreigners?|my accent|ageis\w*|older (?:workers|riders|employees|people|folks)|muslim|jewish|gay|lesbian|transgender|lgbt\w*|minorit\w*|ethnic\w*|nationality|coincidence)\b/,
    "discrimination or retaliation",
  ],
  [
    /\b(unfair|injust[oa]|ridiculous|absurd|outrageous|insulting|unacceptable|nonsense|bs|b\.s\.|wtf|bullshit|scam|joke|kidding me|unreal|go away|back off)\b/,
    "dispute or anger",
  ],
  [
    /(?<!\bif )\b((?:that's|that is|this is|you're|you are|it's|it is) (?:not (?:true|correct|right|accurate)|wrong|incorrect|false|mistaken)|(?:data|records?|information|info|system|check|review)\b[^.?!\n]{0,25}\b(?:is|are|was) (?:wrong|incorrect|outdated|off|mistaken|not (?:correct|right|accurate|true)|false)|mistake on your|(?:some|a|the) (?:confusion|mix-?up)|mixed (?:me|us|my \w+) up|(?:is|are) not what you say)\b/,
    "disputes the data",
  ],
  [
    /\b((?:never|not|didn't|did not|haven't|have not|hasn't) (?:moved|changed (?:shifts?|my shift|address))|in error|(?:flagged|marked|listed|picked|reported)\w* (?:me )?by mistake|(?<!\b(?:giving|gives|give|got|get|getting|shows|showing|throws) )an error(?! message)|un error|another look|don't (?:think|believe) (?:this|that|it|your|the)\b.{0,30}\b(?:right|correct|accurate)|no es (?:cierto|correcto|verdad)|no me (?:he )?mud\w*|no (?:he )?cambiad\w*|no entiendo por qu[eé]|est[aá] mal|(?:don't|do not|dis)agree|não concordo|mali po)|不对|不正确/,
    "disputes the findings",
  ],
  [
    /\b(speak|talk|meet|hablar|falar)(?: (?:this|it|things)(?: (?:through|over|out))?)? (?:to|with|con|com) (?:(?:a|an|your|the|un|una|el|la|um|uma) )?(?:\w+ )?(?:manager|supervisor|human|person|someone|somebody|anyone|whoever|in charge|runs|alguien|persona|gerente|alguém)|escalat\w*|complain\w*|formal complaint|quiero hablar|(?:who|whom) (?:can|could|should|do|may) i (?:speak|talk|meet)|in person\b|face[- ]to[- ]face|(?:real|actual|live) (?:person|human)|\b(?:want|need|like|prefer|rather|request|ask(?:ing)? for|get|have|is there|send)\b[^.?!\n]{0,15}\b(?:a|some) (?:person|human)\b|(?:someone|somebody|a person) (?:to )?(?:call|contact)|(?:call|phone|ring) me\b|(?:set up|schedule|book) (?:a )?(?:time|call|meeting) (?:to|with)|\b(?:meet|talk|speak|chat|go over (?:it|this)|discuss (?:it|this))\b[^.?!]{0,25}\bwith (?:whoever|someone|somebody|a person|a human|the (?:person|people|manager|coordinator)|your (?:manager|supervisor|boss))\b|(?:put|get) me in touch|connect me (?:with|to)|transfer me to|(?:have|get) (?:someone|somebody) (?:to )?call|phone call|a call\b/,
    "asks for a person or complains",
  ],
  [
    /\b(refuse|won't|will not) (?:to )?(?:move|update|change|comply|leave|give|respond|answer|reply)|\b(?:not|n't) comfortable|uncomfortable|rather not|not (?:responding|answering|replying)|no,? thanks\b/,
    "refuses",
  ],
  [
    /\b(?:being|am being|getting|get) (?:watched|monitored|spied on|tracked|investigated)|\b(?:monitor|track|watch|spy)\w* (?:me|us|where)\b|\b(?:monitor|track|spy)\w* (?:my|our)\b|\bspying\b|surveillance|big brother/,
    "feels watched",
  ],
  [
    /\bwho(?: exactly| else)?(?: has| have|'s| is| can| gets to)?(?: been)? (?:seen|see|seeing|looking at|look at|access\w*|view\w*|reading|read)\b|\b(?:have|has|gets?|got|giving|gave) access to (?:my|our)\b|\bwhat (?:other |else )?(?:data|information|info|records?)\b[^.?!]{0,20}\b(?:about me|on me|of mine|pulling|collect\w*|keep\w*)|\bhow (?:exactly )?(?:do|did|does|would) (?:you|they|the (?:program|system|company)) (?:know|find out|get|see)\b/,
    "asks who sees personal data",
  ],
  [
    /\b(stop (?:emailing|contacting|sending)|leave me alone|harassing me|don't contact|^stop\b|stop\.?$|enough already|hold off)/,
    "wants contact to stop",
  ],
  [
    /\b(medical|disability|disabled|accommodation|ada\b|fmla|pregnan\w*|custody|divorce|domestic|abus\w*|violence|hospital\w*|hospice|surgery|chemo\w*|cancer|workers'? comp\w*|ptsd|special needs|maternity|paternity|accident|injur\w*|illness|treatment|therapy|rehab|recovering|caring for|caregiver|light duty|bereavement|passed away|died|death|funeral|grief|shelter|homeless|emergency|(?:my|our|for|about|of) safety|safety (?:reports?|issues?|concerns?|reasons?|risks?|problems?|complaints?|hazards?)|unsafe|(?:don't|do not) feel safe|confidential)/,
    "sensitive circumstances",
  ],
  [/\b(cancel (?:me|my)|take me off|remove me|quit the (?:van|vanpool)|no estoy de acuerdo)/, "wants out or disagrees"],
  [/\?{2,}|\b[A-Z]{5,}\b.*\b[A-Z]{5,}\b/, "shouting"],
  [/\b(kind of|sort of|kinda|it's complicated|idk|maybe|i guess|depends|whatever|meh)\b/, "hedges: intent unclear"],
  [
    /\b(out of (?:the )?office|auto-?reply|automatic reply|(?:i am|i'm|currently|i will be|i'll be) (?:out )?on (?:vacation|leave|holiday)|limited access to (?:my )?e-?mail|will return on)\b/,
    "an automatic reply, not the rider",
  ],
  [
    /\b(hassl\w*|pester\w*|bother\w*|spam\w*|claim\w*|accus\w*|insist\w*|demand\w*|waste of|fed up|sick of|tired of|enough is enough|seriously|ridicul\w*|pathetic|stupid|idiot\w*|report(?:ed|d)? me|gave you my name|threaten\w*|out of hand|already (?:asked|answered|told|replied|responded|sent|did)|do you (?:even|ever|actually) read|thanks for nothing|getting old|how dare|who do you think|keep (?:explaining|asking|sending|emailing|repeating)|(?:anyone|anybody|you) (?:actually|even|ever) (?:look|read|check)|even allowed|allowed to ask)\b/,
    "anger or accusation",
  ],
  [
    /\b(disput\w*|(?<!\b(?:if (?:it's|it is|\w+ \w+ is)|had the|put the|entered the|typed the) )wrong|mistake|mistaken|inaccurate|not accurate|false|broken|unbelievable|not accepting|not doing (?:this|that)|i'm done|done with|why me|why am i|who (?:authorized|is reporting|put|reported|complained|flagged|told|gave you)|what gives you|you people|who are you people|waste of (?:my )?time|better to do|privacy|none of your business|any of your business|not telling you|not giving you|don't want to share|not happy|upsetting|apolog\w*|(?:my|our|your) fault|blam\w*)\b/,
    "contests the review",
  ],
  [
    /\b(real person|not a bot|manager's manager|plant manager|unsubscribe|take me (?:out|off)|stress\w*|threaten\w*|scared|worried|anxious|upset|angry|frustrat\w*|annoy\w*|expens\w* the mileage|lose half|forwarding this)\b/,
    "distress or wants a person",
  ],
  // Broader nets, in general terms rather than per reply: whatever suggests a grievance, an authority
  // outside the program, a threat or a life event is for a person, even when the rest reads as routine.
  [
    /\b(counsel|litigat\w*|subpoena\w*|violat\w*|breach\w*|labor board|department of labor|labor commissioner|eeoc|osha|nlrb|whistleblow\w*|ethics (?:hotline|line|office)|compliance (?:office|hotline|team)|file (?:a |an )?(?:claim|charge|report|complaint)|paper trail|for the record|(?:put|putting|want|wanted|get|getting|go|going|went|keep|note|noted) (?:(?:it|this|that|everything|my \w+) )?on (?:the )?record|(?:put|want|need|get|have|request)\w* (?:(?:it|this|that|everything) )?in writing|documenting (?:this|everything)|screenshot\w*)\b/,
    "legal or outside authority",
  ],
  [
    /\b(labor rep\w*|shop steward|collective bargaining|bargaining unit|cba|teamsters|seiu|afl-cio|uaw|local \d{2,4})\b/,
    "HR or union",
  ],
  [
    /\b(disappoint\w*|unhappy|terrible|awful|horrible|disgust\w*|shame(?:ful| on)|insane|invasive|intrusive|creepy|offen[sd]\w*|rude|disrespect\w*|condescend\w*|patroniz\w*|insult\w*|hostile|furious|livid|pissed|mad (?:at|about)|damn\w*|crap|screw (?:this|you|that)|sucks|garbage|suspect|criminal|liar|lying|bully\w*|intimidat\w*|punish\w*|penaliz\w*|unjust\w*|biased|witch ?hunt|snitch\w*|ratted|accusation\w*)\b|\bf[*#@!]+k|\bf\*+/,
    "anger or accusation",
  ],
  [
    /\b(media|reporters?|the press|the news|social media|twitter|linkedin|glassdoor|go(?:ing)? public|or else|you'll regret|consequences|quit my job|resign\w*)\b/,
    "threatens to take it further",
  ],
  [
    /\b(since when|what right|who gave you|who gives you|how (?:is|was|can) (?:this|that|it) (?:fair|legal|ok|okay|allowed|right)|is this a joke|are you serious|are you kidding|you'?re kidding|(?:just|already) (?:filled|completed) (?:this|it|that|one) out|why (?:does|do|would|should|is) (?:the program|the company|you|they|anyone|pool patrol|it)\b.{0,20}\b(?:need|want|care|matter)|between me and|my own business|(?:that'?s|it'?s|is) private\b|you(?:'ve| have) got to be|give me a break|what kind of|excuse me\?|how come (?:i|you|we)|why (?:would|should) i|why do you (?:care|need|want))/,
    "hostile or rhetorical question",
  ],
  [
    /[🙃🙄😒😤😠😡🤬🖕]|\/s\b|\b(?:yeah,? right|as if|oh,? (?:great|wonderful|perfect|joy)|just (?:great|perfect|wonderful)|what a (?:joke|surprise)|(?:amazing|funny|interesting|incredible|cute|nice|great|love|glad) how\b|(?:this|not|here we go) again\b|again\?|(?:and )?this is (?:the|my) thanks|this is what i get|(?:i'?ll|i will) get right on (?:that|it)|i'?m sure (?:you|they) (?:have|had) (?:your|their|good|a good) reasons?|is this how you treat|^wow\b|(?:years?|decades?) of (?:\w+ )?(?:service|loyalty|attendance|riding)|love (?:how|that you|being)|nice to (?:know|see|be)|glad to know|so glad you|thanks (?:so much |a lot )?for (?:nothing|treating|accusing|assuming|making|wasting|calling|questioning|suspecting|the (?:accusation|insult))|(?:treat\w*|made to feel|feel) like (?:a |an )?(?:fraud|criminal|suspect|liar|thief|cheat\w*|child|number)|fraud\w*|cheat\w*)\b/u,
    "sarcasm or a veiled grievance",
  ],
  [
    /\b(?:raise|raising|bring|bringing|take|taking|flag|flagging|mention|mentioning) (?:this|it|that)(?: up)? (?:at|with|to|in)\b|\b(?:all-?hands|town ?hall|skip-?level|open door|vice president|vp|ceo|cfo|coo|leadership|executive\w*|upper management|higher-?ups?|head of|director)\b|\bloop\w* in\b|\b(?:proper|official|formal|appropriate|right) channels\b|\brais\w* (?:my |a |this |these |our )?concerns?\b|\b(?:engagement |employee )survey|\bshar\w* (?:this|my) experience|\bhear\w* (?:about|from) (?:this|my|me)\b|\b(?:cc|cc'?ing|copying|forward\w*) (?:this )?(?:to )?my\b/,
    "takes it above the program",
  ],
  [
    /\b(immigration|visa|burn(?:ed|t) down|fire|flood\w*|evacuat\w*|hotel|motel|displaced|lost (?:my|our) (?:home|house|apartment|place)|deport\w*|religio\w*|mental health|depress\w*|anxiety|suicid\w*|miscarriage|laid off|layoffs?|fired|terminat\w*|disciplin\w*|probation|demot\w*|pay cut|garnish\w*|evict\w*|foreclos\w*|bankrupt\w*|police|arrest\w*)\b/,
    "sensitive circumstances",
  ],
  [
    /\b(never (?:lived|worked|been|had)|wasn't me|(?:is|was|that's) not me|not my (?:address|home|house|shift|schedule)\b(?! ?(?:any ?more|now|anymore))|(?:isn't|is not|wasn't|was not|ain't|never been) (?:mine|me)\b|who said|says who|where did (?:you|this|that|it) (?:get|come|find|pull)|where (?:is|does) (?:this|that) coming from)\b/,
    "denies the facts",
  ],
];
/**
 * Words saying the record is out of date. Next to the corrected value ("Wrong shift, I'm on days now") they
 * report a change; alone ("That's wrong") they dispute the findings.
 */
const OUT_OF_DATE =
  /\b(?:wrong|outdated|out of date|old|incorrect|inaccurate|not (?:correct|right|accurate|current)|by mistake|(?:a|the) mistake|mistaken|an error|in error)\b/g;
/** What makes a stated fact a change rather than a claim that the record was always wrong. */
const CHANGE_TOLD =
  /\b(?:now|since|as of|starting|effective|any ?more|no longer|used to|current(?:ly)?|outdated|old|(?:moved|changed|updated|corrected|fixed|switched|transferred|relocated|bought|sold)\b)/;
/**
 * What the vanpool program itself is about. Everyday words ("change", "portal", "info", "work") are left out:
 * "how do I change my 401k" is not a program question.
 */
const PROGRAM_TOPIC =
  /\b(?:van\w*|\w*pool\w*|rides?|rider\w*|riding|seats?|driv\w*|commut\w*|pick ?-?up|drop ?-?off|route|address\w*|zip|mov(?:e|ed|ing)|shift\w*|schedul\w*|review\w*|audit\w*|re-?checks?|flag\w*|deadline|eligib\w*|distance|miles?|appeal\w*|fare|subsid\w*|(?:the|this|that|these|those|a|an) (?:\w+ ){0,2}checks?|this (?:e-?mail|letter|message|process))\b/;
/** The rider saying a question is not about the review ("sorry, unrelated", "different question"). */
const OFF_TOPIC =
  /\b(?:unrelated|off[- ]topic|(?:a |on a )?(?:different|separate|another) (?:question|topic|subject|note|matter)|not (?:related|about) (?:to )?(?:the |this |my )?(?:van\w*|review|email))\b/;
/** What employees ask other teams about: benefits, pay, IT, facilities, food. */
const OUTSIDE_TOPIC =
  /\b(?:benefits?|insurance|dental|vision|medical plan|health plan|open enrollment|hsa|fsa|401 ?k|retirement|pension|payroll|pay ?(?:check|stub|slip)s?|payslip|salary|bonus|overtime|w-?2s?|taxe?s?|tuition|reimburs\w*|coverage|enroll\w*|relocation (?:package|assistance|benefits?|bonus)|direct deposit|expense reports?|pto balance|vacation request|time[- ]off request|password|log ?in|login|laptop|printer|wi-?fi|vpn|badges?|cafeteria|canteen|lunch|breakfast|dinner|menu|food|coffee|gym|potluck|party|raffle|stock|swag|t-?shirt)\b/;
/**
 * Negations that confirm: the rider denies a change or a problem ("nothing's changed", "nothing wrong there",
 * "no questions", "not much to add", a leading "No, all the same"). Any other "not" needs a person's reading.
 */
const CONFIRMING_NEGATION = new RegExp(
  [
    String.raw`(?:nothing|not a thing|not anything)(?:'s| has| is| at all)?(?: \w+)? (?:changed|new|different|wrong|off|to (?:report|change|add|update|fix|say))`,
    String.raw`(?:have|has|is|are|did|does)(?:n't| not)(?: \w+)? (?:changed|change|different)`,
    "not changed",
    String.raw`no \w+(?: \w+)? (?:needed|required|necessary)`,
    String.raw`no (?:changes?|updates?|worries|problems?|issues?|concerns?|complaints?|disputes?|objections?|questions?|mistakes?|errors?|need to \w+)\b`,
    String.raw`(?:don't|do not) have any(?:thing)? (?:questions?|concerns?|changes?|updates?|to \w+)`,
    String.raw`(?:not much|nothing (?:more|else))(?: (?:to \w+|from|on))?`,
    String.raw`nothing (?:in|on|about) my \w+ (?:needs|has)\b`,
    "(?:don't|do not|doesn't|does not) need (?:anything|to do anything|any(?:thing)? (?:else|more))",
    // The rider repeating a reassurance: "thanks for letting me know my seat isn't affected".
    "(?:isn't|is not|aren't|are not|won't|will not|wouldn't|would not)(?: be)? (?:affected|impacted|at risk|a problem|an issue)",
    String.raw`^(?:no|nope)\b[,.!]?(?= +(?:nothing|not|no|all|everything|it'?s|that'?s|same))`,
    // A negation whose object, a few words on in the same clause, is a change or a problem:
    // "there have been no changes to", "nothing has been updated", "nothing I need to correct".
    String.raw`(?:no|not|nothing|none|never|without|\w+n't)\b(?:(?!\bbut\b)[^.,;:!?\n]){0,30}?\b(?:chang\w*|differen\w*|discrepanc\w*|updat\w*|edits?|amendments?|corrections?|adjustments?|revisions?|action|wrong|issues?|problems?|errors?|mistakes?|worr\w*|concerns?|questions?|to (?:correct|fix|add|report|change|update|say))\b`,
  ]
    .map((phrase) => String.raw`\b${phrase}`)
    .join("|"),
  "g",
);
const NEGATION = /\b(?:not|no|never|nothing|nobody|none|dont|didnt|cant|wont|isnt)\b|n't\b|\bnão\b/;
/** Doubt counts as unclear intent, unless the rider goes on to ask a question about it. */
const NO_CLEAR_INTENT = /^(?:(?:wait|what|huh|hm+|eh|um+|uh+|que|qué|so|and)\W*)+$/;
const DOUBT = /\b(not sure|don't know|dont know|not really)\b/;

/** Replies that are nothing but a confirmation, too short for the model to be sure of. */
const PLAIN_ACKNOWLEDGMENT =
  /^(ok(?:ay)?|k+|ack|noted|got it|thanks?(?: you)?|ty|thx|rcvd|received|roger(?: that)?|yup|yep|yes|understood|entendido|sounds good|will do|appreciate it|all good|perfect|great|confirmed|affirmative|indeed|absolutely|exactly|verified|correct|accurate|[👍👌✅🙏🙂😊\s])+[.!\s👍👌✅🙏🙂😊]*$/iu;
/** Skin tones and emoji presentation marks: "👍🏽" is a thumbs-up. */
const EMOJI_MODIFIERS = /[\u{1F3FB}-\u{1F3FF}\u{FE0F}]/gu;

/** A sentence telling that something changed or will change ("I moved", "starting Dec 7 I work nights"). */
const CHANGE_STATEMENT =
  /(?<!\b(?:no|if|when|if i|if i had|if we|if my \w+) |\b(?:not|never|nothing|none|hasn't|haven't|didn't|doesn't|don't|still|same)\b(?:(?!\bbut\b)[^.,;:!?\n]){0,20})\b(updated|uptaded|updted|fixed|corrected|moved|moving|move (?:back )?(?:to|on|in)|(?:i'?ll|i will|we'?ll|we will|(?:i'?m|i am|we'?re|we are|is|are) going to) (?:be )?(?:on|working|moving|switching|living|relocating|transferring|starting|going (?:to|back))\b(?! (?:the )?same)|going (?:to|back to|over to) (?:a |an |the )?(?:[\w/-]+ )?(?:schedule|shift|rotation|days|nights|swing)|(?:starting|effective|beginning) (?:on |from )?(?:next \w+|(?:mon|tue|wed|thu|fri|sat|sun)\w*|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\w*\.? \d|\d{1,2}[/-]\d{1,2})|movd|mvoed|moovd|changd|chnged|relocat\w+|transferr?\w*|switch\w*|swapp?ed|changed|changing|went (?:to|back|part|full)|start(?:ed|ing) (?:working|work|on|at)\b|got (?:moved|transferred|promoted)|goes back to|going back to|go back to|(?:current|correct|new|right|actual|real) (?:one|address|zip|zip code|shift|hours|schedule) (?:is|are|should be)|it'?s actually|(?:i'?m|i am|we'?re|we are) (?:at|in|on|living|working)\b[^.?!]{0,50}\bnow\b|(?:sold|bought) (?:a|an|our|my|the) (?:house|home|place|condo|townhouse|apartment|flat)|renting (?:in|at|a)|put in the new|close on|new (?:address|zip|home|place|house|apartment|schedule|shift|hours|start time)|(?:address|zip|shift|hours|schedule|start time) (?:is|are) (?:now|changing)|i'?m (?:now )?on (?:the )?(?:\w+ )?(?:shift|nights|nites|days|swing)|(?:i |we )(?:now )?(?:live|work) (?:in|at|from)|now (?:live|living|work|working|at|in)|living (?:with|in)|mud[eé]|mudamos|mudei|cambi[eé]|cambió|actualic[eé]|ahora (?:vivo|trabajo|entro)|nuevo horario|me pasaron|lumipat|chuyển|đổi ca|搬|上夜班)/;
const CHANGE_DATE =
  /\b(?:(?:as of|since|starting|effective|from|beginning|on|in) )?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\w*\.? \d{1,2}(?:st|nd|rd|th)?\b|\b(?:the )\d{1,2}(?:st|nd|rd|th)\b|\b\d{1,2}\/\d{1,2}\b|\b\d{1,2}(?::\d{2})?\s?(?:am|pm|a|p)\b|\b\d{1,2}(?::\d{2})?\s?-\s?\d{1,2}(?::\d{2})?\b|\b\d{5}\b/;

/** Plain-language cues for the three answerable buckets, added to the model's evidence. */
const CUES: Record<Exclude<ReplyBucket, "escalation">, RegExp[]> = {
  update: [CHANGE_STATEMENT, CHANGE_DATE, /\b(now|since|starting|as of|effective|desde|ahora)\b|bây giờ|现在/],
  question: [
    /[?？]|¿/,
    // At the start of any sentence: "All correct! What's the appeal process" asks too.
    // At the start of any sentence, after a greeting: "All correct! What's the appeal process" asks too. A verb
    // asks only with its subject after it: "Is the review done?" asks, "Is fine, thank you" does not.
    /(?:^|[.!;:]\s+|\n\s*)(?:(?:hi|hey|hello|so|also|and|but|ok|okay|sorry|wait|um|oh|well|quick (?:question|q|one))\b[,\s]+){0,3}(?:(?:who|what|whats|what's|wat|when|where|wher|why|how|hw|which|am i|qué|cómo|cuándo|dónde|cuánto|tengo|preciso)\b|(?!should\s+\w+\s+(?:require|need|want|wish|have)\b[^?？]*$)(?:do|does|did|is|are|can|could|will|would|should|was|were)\s+(?:i|you|we|it|this|that|there|the|my|your|our|he|she|they|a|an|anyone|someone|everyone)\b|(?:have|has)\s+(?:i|you|we|they|he|she|it|anyone|someone)\b)/,
    /\b(quick q|wanted to ask|(?<!\b(?:no|any) )questions?\b|wondering|curious (?:about|if|whether|how|why)|(?:please|pls|kindly) (?:let me know|advise|explain|clarify|tell me)\b|let me know (?:how|what|when|where|why|which|who|whether)\b|(?:would|want|wanted|need) to know|(?:want|wanted|would like|like)(?: to)? ask\b|\bask(?:ing)? (?:if|whether)\b|(?:i'd|i would|i'd just) like to (?:understand|know|ask|learn|find out)|(?:if you could|could you|can you|please) (?:explain|clarify)|confirm (?:whether|if)\b|is (?:there|it) (?:a way|possible|ok(?:ay)?|allowed)|any (?:idea|way)|could you (?:tell|explain|send|clarify)|can you (?:tell|explain|send))/,
  ],
  acknowledgment: [
    /\b(thanks|thank you|thx|thnks|got it|understood|noted|confirm\w*|verif\w*|received|read (?:this|it)|nothing (?:to report|has changed|to change)|same as (?:before|always|shown|you have)|no changes?|all good|will do|appreciate|correct|corect|corrrect|accurate|right|rigth|current|up to date|checks out|match\w*|cheers|affirmative|indeed|exactly|rite|ryt|yes|yep|yup|yeah|that's (?:me|mine|my \w+)|all set|looks (?:good|fine|right|legit|ok|okay|great)|legit|sounds (?:good|right)|in order|as it should be|spot on|valid|unchanged|same|still|fine|ok|okie|good to go|sure thing|ty|thank u|good|rigt)\b/,
    CONFIRMING_NEGATION,
    /\b(correct[oa]s?|bien|igual|mism[oa]|sigo|gracias|certo|correto|obrigad[oa]|merci|exact|salamat|tama|opo|danke|stimmt|richtig|grazie|giusto|corretto|spasibo|dziękuję|zgadza)\b|đúng|chính xác|cảm ơn|[👍👌✅]|正确|对|谢谢|没有变化|맞[습아어]|감사|고맙|はい|正しい|ありがとう|大丈夫|верно|правильно|спасибо|सही|धन्यवाद/u,
  ],
};

export interface Reading {
  /** The rider's own words as written. */
  text: string;
  /** Lower case, shorthand spelled out and typos corrected. */
  normalised: string;
  /** What the rules see: the reply as written and as meant. */
  readings: string[];
}

/** The words of known replies, as the reader's spelling corrector counts them. */
export function knownWords(knownReplies: string[]): Map<string, number> {
  return wordFrequencies(knownReplies.map((body) => extractReplyText(body).reply));
}

/**
 * Reads replies as riders write them; typos are corrected towards the words of `knownReplies` (or those words,
 * already counted by `knownWords`).
 */
export function replyReader(knownReplies: string[] | Map<string, number>): (body: string) => Reading {
  const spelling = spellingCorrector(Array.isArray(knownReplies) ? knownWords(knownReplies) : knownReplies);
  return (body) => {
    const text = extractReplyText(body).reply.replace(EMOJI_MODIFIERS, "");
    const written = text.toLowerCase();
    const normalised = spelling.normalise(text);
    const readings = [written, normalised].map((reading) =>
      withoutDeniedProblems(
        statesChange(reading) && CHANGE_TOLD.test(reading) ? reading.replace(OUT_OF_DATE, " ") : reading,
      ),
    );
    return { text, normalised, readings };
  };
}

/**
 * What the hand-written patterns notice in a reply, named: "rule:…" for a pattern, "cue:…" for a bucket's cue. They
 * are evidence for the model, which learns from the labelled replies how far to trust each.
 */
export function ruleSignals({ text, normalised, readings }: Reading): string[] {
  const signals: string[] = [];
  for (const [pattern, reason] of ESCALATION_PATTERNS) {
    const fires = pattern.source.includes("[A-Z]")
      ? pattern.test(text)
      : readings.some((reading) => pattern.test(reading));
    if (fires) signals.push(`rule:${reason}`);
  }
  if (DOUBT.test(normalised) && !/[?？]/.test(normalised)) signals.push("rule:doubt");
  if (NO_CLEAR_INTENT.test(normalised.trim())) signals.push("rule:no clear intent");
  if (PLAIN_ACKNOWLEDGMENT.test(text.trim())) signals.push("rule:plain confirmation");
  if (!/\p{L}/u.test(text)) signals.push("rule:no words");
  for (const [bucket, patterns] of Object.entries(CUES))
    patterns.forEach((pattern, i) => {
      if (pattern.test(normalised)) signals.push(`cue:${bucket}:${i}`);
    });
  if (statesChange(normalised)) signals.push("rule:states a change");
  if (NEGATION.test(normalised.replace(CONFIRMING_NEGATION, ""))) signals.push("rule:denies something");
  if (asksOutsideTheProgram(normalised)) signals.push("rule:asks outside the program");
  return signals;
}

/**
 * "Nothing wrong there", "no worries": a problem word the rider denies is not a dispute. A denied change
 * ("I haven't moved") stays: against a finding that says otherwise, it disputes it.
 */
function withoutDeniedProblems(reading: string): string {
  return reading
    .replace(CONFIRMING_NEGATION, (phrase) => (/chang|different|new/.test(phrase) ? phrase : " "))
    .replace(SUPPOSED_ERROR, " ");
}

/** Whether a sentence that asks is about benefits, pay, IT or the like and names nothing of the program. */
function asksOutsideTheProgram(text: string): boolean {
  return text
    .split(/(?<=[.!?？])\s+|\n+/)
    .some(
      (sentence) =>
        (/[?？]/.test(sentence) || CUES.question[1]!.test(sentence)) &&
        (OUTSIDE_TOPIC.test(sentence) || OFF_TOPIC.test(text)) &&
        !PROGRAM_TOPIC.test(sentence),
    );
}

/** An error the rider only supposes, in a question: "what do I do if I spot a mistake later?" */
const SUPPOSED_ERROR =
  /\b(?:if (?:i|we) (?:ever |later )?(?:notice|find|see|spot|come across)|if there(?:'s| is| are) (?:ever )?)\b[^.?!,;]{0,20}?\b(?:errors?|mistakes?|something wrong)\b(?=[^.!]*\?)/g;

/** A clause that supposes ("if I'm switching to nights…") tells of no change. */
const CONDITION = /^(?:and |but |so )?(?:if|when|whenever|in case|suppose|supposing|what if|unless|once)\b/;

/** Whether a clause that neither asks nor supposes tells of a change. */
function statesChange(text: string): boolean {
  // Clauses, so that "Moved to Fremont last week, does that change anything?" still states a change.
  const clauses = text.split(/(?<=[.!?？。,;])\s+|\s+[-–—]\s+|\n+/).map((clause) => clause.trim().toLowerCase());
  return clauses.some(
    (clause) =>
      !/[?？]$/.test(clause) &&
      !CONDITION.test(clause) &&
      !CUES.question[1]!.test(clause) &&
      CHANGE_STATEMENT.test(clause),
  );
}
