// What DESIGN's first rule keeps with a person, by meaning rather than by phrasing: a dispute of the findings, a
// safety concern, a complaint, legal or HR matters, a medical or accommodation matter. Each category is a vocabulary
// of the words that carry it, in English and in the languages riders write in, so that a concern mentioned in passing
// inside a plain update ("I also can't ride the early van for safety reasons") is heard in any of them. A category
// word the rider denies in the same clause ("no safety concerns", "sin quejas", "没有问题") is no concern.
// A dispute is its own words and needs no denial check: "no estoy de acuerdo" is the negation that disputes.

export type ConcernCategory = "dispute" | "safety" | "health or accommodation" | "legal or HR" | "complaint";

export interface Concern {
  category: ConcernCategory;
  /** The words that carried it, as the rider wrote them. */
  words: string;
}

/** Where a word starts or ends in a script that separates words; CJK terms are matched as they stand. */
const START = String.raw`(?<![\p{L}\p{N}])`;
const END = String.raw`(?![\p{L}\p{N}])`;

const VOCABULARIES: Record<ConcernCategory, { words: string[]; unspaced?: string[] }> = {
  dispute: {
    words: [
      // English: the findings denied. "Please check again" is not here: after a change told it asks for the re-audit
      // ("the portal shows my new address now, please check again"), and the English reader sees the change.
      "(?:a |some )?misunderstanding",
      "(?:that|this|it)(?:'s| is) not (?:so|the case)",
      // Spanish
      "no (?:es|está) (?:correct[oa]|bien|así|cierto|verdad)",
      "(?:revis|verifiqu|cheque)(?:en|ar|e) (?:de nuevo|otra vez|nuevamente)",
      "(?:un |una )?(?:malentendido|equivocaci[oó]n)",
      "(?:están|estan|está|esta) equivocad[oa]s?",
      "nunca (?:he )?(?:trabajad[oa]|vivid[oa])",
      "no estoy de acuerdo",
      // Portuguese
      "não (?:está|esta|é) (?:corret[oa]|cert[oa]|verdade|assim)",
      "(?:verifi|revis|confir)(?:quem|em|ar) (?:de novo|novamente|outra vez)",
      "(?:um )?mal-?entendido",
      "nunca (?:trabalhei|morei)",
      // French and Haitian Creole
      "(?:ce n'est|c'est) pas (?:correct|vrai|exact|juste)",
      "(?:vérifier|vérifiez|revérifier) (?:à nouveau|encore)",
      "malentendu",
      "se pa (?:vre|kòrèk|korek)",
      "pa (?:dakò|dako)",
      "(?:tcheke|verifye) ankò",
      "mwen pa janm (?:travay|viv)",
      // Tagalog
      "hindi (?:po )?(?:tama|totoo|ganun|ganoon)",
      "(?:pakisuri|pakitingnan|paki-?check|tingnan|suriin) (?:po )?(?:ulit|muli)",
      "hindi (?:po )?ako (?:sang-?ayon|pumapayag)",
      "hindi (?:po )?(?:ako|kailanman) (?:nag-?trabaho|nagtrabaho)",
      // Vietnamese
      "không (?:đúng|chính xác|phải vậy)",
      "(?:vui lòng|xin|làm ơn|hãy) (?:kiểm tra|xem) lại",
      "hiểu lầm",
      "không đồng ý",
      "chưa bao giờ (?:làm|sống)",
      // Russian
      "неправильно|неверно|не так|не верно|не правильно",
      "(?:проверьте|перепроверьте)(?: ещё| еще)? раз|перепроверьте",
      String.raw`недоразумени\p{L}*`,
      "(?:не согласен|не согласна)",
      String.raw`никогда не (?:работал|жил)\p{L}*`,
      // Arabic
      "(?:غير صحيح|ليس صحيح|ليس صحيحا|هذا خطأ)",
      "(?:سوء فهم)",
      "(?:لا أوافق|لست موافق)",
      "(?:راجعوا|تحققوا) مرة أخرى|أعيدوا (?:التحقق|المراجعة)",
    ],
    unspaced: [
      // Chinese
      "不对",
      "不正确",
      "不是这样",
      "误会",
      "误解",
      "搞错",
      "弄错",
      "再查",
      "重新检查",
      "再检查",
      "不同意",
      "从来没有",
      "从未",
      // Korean
      "사실이 아닙",
      "맞지 않",
      "틀렸",
      "틀립",
      "오해",
      "다시 확인해 주",
      "다시 확인 부탁",
      "동의하지 않",
      // Japanese
      "間違い",
      "誤解",
      "違います",
      // Punjabi, Hindi
      "ਗਲਤ",
      "ਸਹੀ ਨਹੀਂ",
      "गलत",
      "सही नहीं",
      // Amharic
      "ትክክል አይደለም",
      "ስህተት",
    ],
  },
  safety: {
    words: [
      "(?:for )?safety (?:reasons?|concerns?|issues?|risks?|problems?|hazards?)",
      "(?:my|our|personal) safety",
      String.raw`(?:don't|do not|didn't|never) feel safe|no me siento segur[oa]|não me sinto segur[oa]|je ne me sens pas en sécurité|pa santi m an sekirite|hindi (?:po )?(?:ako )?ligtas|không (?:cảm thấy )?an toàn|не чувствую себя в безопасности|небезопасн\p{L}*|لا أشعر بالأمان`,
      "(?:not|n't|never) (?:feel |feeling |be |being |been )?safe",
      "unsafe|dangerous(?:ly)?|reckless(?:ly)?|road rage|drunk|intoxicated",
      "(?:i'?m |i am |i feel |feel |felt )(?:scared|frightened|threatened)",
      "(?:por|de) (?:mi |nuestra )?seguridad|inseguro|insegura|peligros[oa]|me da miedo",
      "(?:por|de) (?:minha |nossa )?segurança|insegur[oa]|perigos[oa]|tenho medo",
      "(?:pour|de) (?:ma |notre )?sécurité|dangereu(?:x|se)",
      "sekirite|danjere|mwen pè",
      "kaligtasan|delikado|mapanganib|natatakot",
      "an toàn|nguy hiểm|sợ",
      String.raw`безопасност\p{L}*|опасн\p{L}*`,
      "(?:السلامة|الأمان|خطير|أخاف)",
    ],
    unspaced: [
      "不安全",
      "안전하지 않",
      "안전하지 못",
      "安全",
      "危险",
      "害怕",
      "안전",
      "위험",
      "무서",
      "ਸੁਰੱਖਿਆ",
      "ਖ਼ਤਰ",
      "ਖਤਰ",
      "सुरक्षा",
      "ደህንነት",
      "አደገኛ",
    ],
  },
  "health or accommodation": {
    words: [
      "my (?:doctor|physician|surgery|condition|disability|pregnancy|injury|treatment|medication|therapy|illness|diagnosis|health(?! (?:coverage|plan|insurance|benefits)))",
      String.raw`(?:i'?m|i am|i've been|i was|i got) (?:\w+ )?(?:pregnant|disabled|sick(?! (?:of|and tired))|ill|injured|hurt|recovering|in the hospital|hospitali[sz]ed)`,
      "(?:medical|health|doctor'?s?) (?:reasons?|issues?|problems?|conditions?|restrictions?|notes?|orders?|leave)",
      String.raw`(?:an? |reasonable |disability )?accommodations?|disabilit(?:y|ies)|wheelchair|chemo\w*|cancer|fmla|dialysis|light duty`,
      "médic[oa]s?|médica|salud|discapacidad|embarazada|cirugía|enfermedad|incapacidad|licencia médica|ajuste razonable",
      "saúde|deficiência|grávida|cirurgia|doença|licença médica|adaptação razoável",
      "santé|médecin|handicap|enceinte|chirurgie|maladie|aménagement",
      "doktè|maladi|ansent|andikape|lopital",
      "doktor|kalusugan|may sakit|buntis|kapansanan|ospital",
      "bác sĩ|sức khỏe|sức khoẻ|khuyết tật|mang thai|phẫu thuật|bệnh|nằm viện",
      String.raw`врач\p{L}*|здоровь\p{L}*|инвалид\p{L}*|беременн\p{L}*|болезн\p{L}*|больнични\p{L}*`,
      "(?:طبيب|الطبيب|صحي|صحية|إعاقة|حامل|عملية جراحية|مرض|المستشفى)",
    ],
    unspaced: [
      "医生",
      "医疗",
      "健康",
      "残疾",
      "怀孕",
      "手术",
      "生病",
      "病假",
      "의사",
      "건강",
      "장애",
      "임신",
      "수술",
      "병가",
      "ਡਾਕਟਰ",
      "ਸਿਹਤ",
      "ਬਿਮਾਰ",
      "डॉक्टर",
      "स्वास्थ्य",
      "ሐኪም",
      "ጤና",
      "እርጉዝ",
    ],
  },
  "legal or HR": {
    words: [
      String.raw`my (?:lawyer|attorney|union rep\w*|rep(?:resentative)?|steward)|legal (?:action|advice|counsel)|lawsuit|sue (?:you|the company)|my rights|labor board|grievance|discriminat\w*|retaliat\w*`,
      "(?:file|filing|filed|lodge|lodging|open|opening|raise|raising|make|making) (?:a |an )?(?:formal )?(?:complaint|grievance|claim|report)",
      String.raw`(?:report|reporting|reported|escalat\w*|tak\w* (?:this|it)) (?:this |it |that |you )?to (?:hr|human resources|my union|the union|my rep)`,
      "abogad[oa]s?|demandar(?:los|les)?|mis derechos|recursos humanos|sindicato|discriminaci[oó]n|represalia",
      "advogad[oa]s?|processo judicial|meus direitos|recursos humanos|sindicato|discriminação|retaliação",
      "avocats?|mes droits|ressources humaines|syndicat|discrimination|avoka|dwa mwen|resous imen|sendika",
      "abogado|karapatan ko|human resources|unyon|diskriminasyon",
      "luật sư|ra tòa|quyền của tôi|nhân sự|công đoàn|phân biệt đối xử",
      String.raw`адвокат\p{L}*|юрист\p{L}*|в суд|мои права|отдел кадров|профсоюз\p{L}*|дискриминаци\p{L}*`,
      "(?:محامي|محام|المحكمة|حقوقي|الموارد البشرية|نقابة|تمييز)",
    ],
    unspaced: [
      "律师",
      "起诉",
      "法律",
      "人事部",
      "人力资源",
      "工会",
      "歧视",
      "변호사",
      "소송",
      "인사팀",
      "인사부",
      "노조",
      "차별",
      "ਵਕੀਲ",
      "वकील",
      "ጠበቃ",
    ],
  },
  complaint: {
    words: [
      "(?:i(?:'d| would) like to|i want to|i need to|i have to|i'?m writing to) complain|this is a complaint|i(?:'m| am) complaining",
      String.raw`(?:this|that|it)(?:'s| is| was| seems| feels)(?: \w+)? unfair|unfairly|mistreat\w*|treated (?:badly|poorly|differently)|not (?:fair|acceptable|happy)|(?<!['"“‘])(?:is|are|was|feels?|felt|seems?|so|very|really|totally|completely|just|how) unfair`,
      String.raw`queja|quejarme|reclamo|injust[oa]|no es justo|maltrat\w*`,
      "reclamação|reclamar|injust[oa]|não é justo",
      "plainte|injuste|pas juste|plent|enjis|pa jis",
      "reklamo|hindi (?:po )?patas|hindi makatarungan",
      "khiếu nại|bất công|không công bằng|phàn nàn",
      String.raw`жалоб\p{L}*|несправедлив\p{L}*`,
      "(?:شكوى|ظلم|غير عادل)",
    ],
    unspaced: ["投诉", "不公平", "抱怨", "불만", "항의", "불공평", "부당", "ਸ਼ਿਕਾਇਤ", "ਬੇਇਨਸਾਫ਼", "शिकायत", "ቅሬታ"],
  },
};

/** Words that deny what follows them in the same clause, in the riders' languages. */
const DENIED_BEFORE = new RegExp(
  `${START}(?:no|not|never|nothing|none|nobody|no one|without|zero|aren't|isn't|wasn't|haven't|hasn't|don't|doesn't|didn't|sin|ningun[oa]?|ningún|nada|nunca|não|sem|nenhum[a]?|pas|sans|aucun[e]?|jamais|rien|pa gen|okenn|walang|wala|hindi|walang anumang|không|chẳng|chưa|нет|не|без|никаких|никакой|لا|ليس|بدون|لم|لا يوجد)${END}[^.,;:!?。！？\\n]{0,25}$`,
  "iu",
);
const DENIED_BEFORE_UNSPACED = /(?:没有|没|不|无|毫无)[^，。！？,.!?]{0,6}$/u;
/** Denials that come after the word: "safety is not an issue", Korean "없습니다", Chinese "没问题" after a term. */
const DENIED_AFTER =
  /^[^.,;:!?。！？\n]{0,20}(?:(?:is|are|was|were)(?:n't| not) (?:an? )?(?:issue|concern|problem)|없|아닙니다|アリません|ありません|没有问题|没问题)/iu;

/** Terms a rider writes about the program without raising a concern of theirs. */
const NOT_A_CONCERN =
  /\bavoid (?:any )?misunderstanding|\bsafety (?:orientation|briefing|training|video|rules?|policy|record|meeting)\b|\bdoctor'?s? (?:appointment|visit)s? (?:on|this|next|at)\b/iu;

const MATCHERS = (Object.entries(VOCABULARIES) as [ConcernCategory, { words: string[]; unspaced?: string[] }][]).map(
  ([category, { words, unspaced = [] }]) => ({
    category,
    pattern: new RegExp(
      [
        `${START}(?:${words.join("|")})${END}`,
        ...unspaced.map((term) => term.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")),
      ].join("|"),
      "giu",
    ),
  }),
);

/**
 * A sentence that supposes ("If I take medical leave next year, do I keep my seat?") raises no matter of the rider's
 * own; a dispute, a safety concern or a threat to take it to a lawyer or HR is for a person even so.
 */
const SUPPOSES =
  /^(?:and |but |so )?(?:if|in case|what if|suppose|supposing|si|se|kung|nếu|если|إذا)(?![\p{L}\p{N}])|^(?:如果|假如|만약)/iu;
const EVEN_SUPPOSED: ConcernCategory[] = ["dispute", "safety", "legal or HR"];

/** The first concern a sentence raises, read in any of the riders' languages; none when it raises none. */
export function concernIn(sentence: string): Concern | undefined {
  const text = sentence.replace(/[’‘]/g, "'").trim();
  if (NOT_A_CONCERN.test(text)) return undefined;
  const supposes = SUPPOSES.test(text);
  for (const { category, pattern } of MATCHERS) {
    if (supposes && !EVEN_SUPPOSED.includes(category)) continue;
    for (const match of text.matchAll(pattern)) {
      if (category !== "dispute" && denied(text, match.index, match[0])) continue;
      return { category, words: match[0] };
    }
  }
  return undefined;
}

/** A category phrase that starts with its own negation ("not safe", "không an toàn") says what it means. */
const NEGATED_PHRASE =
  /^(?:not|n't|never|don't|do not|didn't|no|não|je ne|pa|hindi|không|не|لا|不)(?![\p{L}\p{N}])|^(?:不|안전하지)/iu;

function denied(text: string, at: number, words: string): boolean {
  if (NEGATED_PHRASE.test(words)) return false;
  const before = text.slice(0, at);
  const after = text.slice(at + words.length);
  return DENIED_BEFORE.test(before) || DENIED_BEFORE_UNSPACED.test(before) || DENIED_AFTER.test(after);
}
