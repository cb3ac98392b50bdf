// DESIGN's first rule by category: a dispute, a safety concern, a complaint, a legal or HR matter, a health or
// accommodation matter is heard in any sentence, in the riders' languages; the same words denied, supposed, or
// naming a place or a team are not a concern. Sentences written for these tests, one per category and language.
import { describe, expect, it } from "vitest";
import { type ConcernCategory, concernIn } from "../../src/replies/reply-concerns.js";

const raised: [ConcernCategory, string, string][] = [
  ["dispute", "English", "That is not the case: my shift is the same one I signed up with."],
  ["dispute", "English", "I think there is some misunderstanding about where I live."],
  ["dispute", "Spanish", "Creo que hay un malentendido, siempre he trabajado de día."],
  ["dispute", "Spanish", "Eso no es correcto, revisen otra vez por favor."],
  ["dispute", "Portuguese", "Isso não está correto, nunca trabalhei à noite."],
  ["dispute", "Tagalog", "Hindi po totoo iyan, pakisuri po ulit ang aking oras."],
  ["dispute", "Vietnamese", "Thông tin này không đúng, vui lòng kiểm tra lại."],
  ["dispute", "Chinese", "你们搞错了，我一直住在这里。"],
  ["dispute", "Korean", "제 근무 시간이 틀렸습니다."],
  ["dispute", "Russian", "Это неверно, я живу по тому же адресу."],
  ["dispute", "Haitian Creole", "Mwen pa dakò ak sa, se pa vre."],
  ["dispute", "Arabic", "هذا غير صحيح، أنا أعمل في النهار."],
  ["safety", "English", "I also can't ride the early van for safety reasons."],
  ["safety", "English", "Frankly I don't feel safe with how the van is driven at night."],
  ["safety", "Spanish", "No me siento segura esperando sola en la parada a esa hora."],
  ["safety", "Portuguese", "O ponto de encontro é perigoso de madrugada."],
  ["safety", "Tagalog", "Hindi ako ligtas maghintay doon nang madaling araw."],
  ["safety", "Vietnamese", "Tôi không cảm thấy an toàn khi đi chuyến sớm."],
  ["safety", "Chinese", "晚上那个接送点不安全。"],
  ["safety", "Korean", "새벽 정류장이 위험해서 걱정됩니다."],
  ["safety", "Russian", "Ночью на остановке небезопасно."],
  ["health or accommodation", "English", "My doctor told me to avoid long rides for a few months."],
  ["health or accommodation", "English", "I may need an accommodation for the early pickup."],
  ["health or accommodation", "English", "I'm recovering from knee surgery so I've been driving myself."],
  ["health or accommodation", "Spanish", "Estoy embarazada y mi médico me pidió viajar menos."],
  ["health or accommodation", "Portuguese", "Por causa da minha saúde preciso de um horário diferente."],
  ["health or accommodation", "Tagalog", "Buntis po ako kaya mas maaga ang uwi ko."],
  ["health or accommodation", "Vietnamese", "Bác sĩ bảo tôi nghỉ một tuần."],
  ["health or accommodation", "Chinese", "我下个月要做手术。"],
  ["health or accommodation", "Korean", "건강 문제로 출근 시간이 바뀌었습니다."],
  ["health or accommodation", "Russian", "Мой врач запретил мне долгие поездки."],
  ["legal or HR", "English", "Moved to Tracy last week; my attorney has a copy of your email."],
  ["legal or HR", "English", "I have already filed a grievance about this."],
  ["legal or HR", "English", "If this goes on I'm reporting it to HR."],
  ["legal or HR", "Spanish", "Mi abogado va a revisar este correo."],
  ["legal or HR", "Portuguese", "Vou falar com o sindicato sobre isso."],
  ["legal or HR", "Vietnamese", "Tôi sẽ hỏi luật sư của tôi."],
  ["legal or HR", "Chinese", "我会把这件事交给工会。"],
  ["legal or HR", "Korean", "이 문제는 변호사와 상의하겠습니다."],
  ["legal or HR", "Russian", "Я обращусь в профсоюз."],
  ["complaint", "English", "Honestly this whole process feels unfair to people on nights."],
  ["complaint", "English", "I'd like to complain about how this was handled."],
  ["complaint", "Spanish", "Quiero poner una queja sobre esta revisión."],
  ["complaint", "Vietnamese", "Tôi thấy việc này không công bằng."],
  ["complaint", "Chinese", "这样对我们夜班的人不公平。"],
  ["complaint", "Korean", "이번 심사에 불만이 있습니다."],
  ["complaint", "Russian", "Это несправедливо по отношению ко мне."],
];

describe("concerns a reply raises, by meaning", () => {
  it.each(raised)("hears a %s in %s: %s", (category, _language, sentence) => {
    expect(concernIn(sentence)?.category, sentence).toBe(category);
  });

  it.each([
    ["a denied concern", "No safety concerns on my end, everything is right."],
    ["a denied complaint", "All correct, no complaints at all."],
    ["a denied health matter", "Nothing medical going on, I just moved."],
    ["a denied concern in Spanish", "Todo bien, sin problemas de seguridad."],
    ["a denied concern in Korean", "안전 문제는 없습니다."],
    ["a denied concern in Chinese", "没有安全问题，谢谢。"],
    ["a question about the program's safety briefing", "Do new riders get a safety orientation?"],
    ["a supposed health matter", "If I ever need sick leave, do I lose my seat?"],
    ["a spouse's job", "My wife's a lawyer, so she read the email first. All correct."],
    ["a team the rider joins", "I'm moving to the HR department on the 1st; hours become 8 to 4:30."],
    ["a place", "I transferred to the medical device line, new hours 6 to 2:30 starting May 4."],
    ["a polite 'afraid'", "I'm afraid I can't make the Tuesday van anymore, I'm on nights now."],
    ["a check the rider will do", "Thanks, I'll check again next week and let you know."],
    ["a question on when the program checks", "When will you check again?"],
    ["a re-audit asked for after a change", "The portal shows my new address now. Please check again."],
    ["an idiom", "I'm sick of the early alarm but that's life; all correct."],
  ])("hears no concern in %s", (_what, sentence) => {
    expect(concernIn(sentence), sentence).toBeUndefined();
  });
});
