import { describe, expect, it } from "vitest";
import { readLanguage } from "../../src/replies/reply-language.js";

describe("the language of a reply", () => {
  it.each([
    ["Chinese", "我觉得这里可能有误会。我一直上早班，从来没有上过夜班，请再核对一下。"],
    ["Tagalog", "Hindi po tama iyan. Nasa day shift po ako, hindi sa gabi. Pakitingnan po ulit."],
    ["Korean", "네, 주소와 근무 시간 모두 맞습니다. 감사합니다."],
    ["Russian", "Скажите, пожалуйста, учитывается ли оплачиваемый отпуск в эти 80%?"],
    ["Portuguese", "Mudei para o turno da noite a partir de 3 de março. Meu supervisor já atualizou."],
    ["Spanish", "No me mudé. Revisen otra vez, por favor."],
    ["Vietnamese", "Tôi không đồng ý."],
    ["Tagalog", "Opo, tama po."],
  ])("names %s, which the embedded reader cannot read: %s", (name, text) => {
    expect(readLanguage(text)).toEqual({ english: false, name });
  });

  it.each([
    "Yes.",
    "ok thanks",
    "Could you let me know what 'shift compatible' means?",
    "Confirmed — nights this week, like you have it",
    "Hello, I can confirm that all is correct. Many greetings, Jürgen",
    "Moved!! 🏡 New address is 1601 Lincoln Way, Auburn 95603, as of Nov 14.",
    "Hola, una pregunta: do I need to reply to this or just update my address in the portal? Thanks",
    "👍",
  ])("leaves English, short or with a word or name from elsewhere, to the embedded reader: %s", (text) => {
    expect(readLanguage(text)).toEqual({ english: true });
  });

  it("sends a mix whose other-language sentence could carry the meaning to a person", () => {
    expect(readLanguage("Yes, the address is right. Pero no estoy de acuerdo con la decisión.")).toMatchObject({
      english: false,
      name: "Spanish",
    });
    expect(readLanguage("Yes, 주소는 맞지만 근무 시간은 틀렸어요.")).toMatchObject({ english: false, name: "Korean" });
  });
});
