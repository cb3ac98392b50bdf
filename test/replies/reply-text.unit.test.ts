import { describe, expect, it } from "vitest";
import { extractReplyText } from "../../src/replies/reply-text.js";

describe("extractReplyText", () => {
  it("keeps a reply with nothing quoted and no signature as it is", () => {
    expect(extractReplyText("  Everything is correct as listed.  ")).toEqual({
      reply: "Everything is correct as listed.",
      quoted: "",
      signature: "",
    });
  });

  it('strips Gmail-style history under "On … wrote:", also when the client wrapped that line', () => {
    const body = [
      "I moved to Gilroy in October.",
      "",
      "On Mon, Nov 23, 2026 at 9:14 AM Pool Patrol <",
      "outreach@poolpatrol.example> wrote:",
      "> Please confirm your address.",
    ].join("\n");
    const text = extractReplyText(body);
    expect(text.reply).toBe("I moved to Gilroy in October.");
    expect(text.quoted).toContain("Please confirm your address.");
    expect(extractReplyText("Correcto.\n\nEl lun, 23 nov 2026 a las 9:14, Pool Patrol escribió:\n> Hola").reply).toBe(
      "Correcto.",
    );
  });

  it('strips everything under "-----Original Message-----" and Outlook From:/Sent: blocks', () => {
    const outlook = [
      "Looks right to me.",
      "",
      "From: Pool Patrol <outreach@poolpatrol.example>",
      "Sent: Monday, November 23, 2026 9:14 AM",
      "To: Rider <rider@example.com>",
      "Subject: Your address on file",
      "",
      "Please tell us if you moved. Are you still on the early shift?",
    ].join("\n");
    expect(extractReplyText(outlook)).toMatchObject({ reply: "Looks right to me.", signature: "" });
    expect(extractReplyText(outlook).quoted).toMatch(/^From: Pool Patrol/);
    const original = "ok thanks\r\n-----Original Message-----\r\nFrom: Pool Patrol\r\nWhy did you move?";
    expect(extractReplyText(original)).toEqual({
      reply: "ok thanks",
      quoted: "-----Original Message-----\nFrom: Pool Patrol\nWhy did you move?",
      signature: "",
    });
  });

  it('moves ">" lines to the quoted part, even between the rider\'s own lines', () => {
    const text = extractReplyText(
      "> Is your address still 1 Main St?\nNo, I moved to Tracy.\n> And your shift?\nSame.",
    );
    expect(text.reply).toBe("No, I moved to Tracy.\nSame.");
    expect(text.quoted).toBe("> Is your address still 1 Main St?\n> And your shift?");
  });

  it('takes "--" signatures and "Sent from my iPhone" footers out of the reply', () => {
    expect(extractReplyText("Confirmed.\n\n--\nKevin Tran\nWarehouse Associate | Building 4\n(408) 555-0142")).toEqual({
      reply: "Confirmed.",
      quoted: "",
      signature: "--\nKevin Tran\nWarehouse Associate | Building 4\n(408) 555-0142",
    });
    expect(extractReplyText("Sounds good, thank you.\n\nSent from my iPhone")).toMatchObject({
      reply: "Sounds good, thank you.",
      signature: "Sent from my iPhone",
    });
    expect(extractReplyText("Todo bien\n\nEnviado desde mi Galaxy").reply).toBe("Todo bien");
  });

  it("takes a sign-off with a name as signature, but never a message that is only thanks", () => {
    expect(extractReplyText("Hi, this is all accurate.\n\nRegards,\nTom Alvarez")).toMatchObject({
      reply: "Hi, this is all accurate.",
      signature: "Regards,\nTom Alvarez",
    });
    expect(extractReplyText("Thanks,\nPriya").reply).toBe("Thanks,\nPriya");
    // A sentence after "Thanks" is more of the message, not a name.
    expect(extractReplyText("Got it.\nThanks\nI will be on nights from Monday.").reply).toBe(
      "Got it.\nThanks\nI will be on nights from Monday.",
    );
  });

  it("takes a name block set apart at the end for a signature even with no sign-off, but not a sentence", () => {
    expect(extractReplyText("Swing shift is correct.\n\nKeith Romero\nIBEW Local 332 Steward, Bldg 2")).toMatchObject({
      reply: "Swing shift is correct.",
      signature: "Keith Romero\nIBEW Local 332 Steward, Bldg 2",
    });
    expect(extractReplyText("Everything is right.\n\nCall my lawyer").reply).toBe(
      "Everything is right.\n\nCall my lawyer",
    );
    expect(extractReplyText("Mateo").reply).toBe("Mateo");
  });

  it("takes a name with a job title for a signature, with the title on its line, after a bar, or with an address", () => {
    for (const [body, signature] of <[string, string][]>[
      [
        "Confirmed, address and shift are right.\nDana Whitaker\nEscalations Coordinator",
        "Dana Whitaker\nEscalations Coordinator",
      ],
      [
        "All correct on my end.\n\nDana Whitaker | Escalations Coordinator | Customer Care\nM: 408-555-0133",
        "Dana Whitaker | Escalations Coordinator | Customer Care\nM: 408-555-0133",
      ],
      [
        "Yes this is accurate.\n\nRegards,\nD. Whitaker\nSenior Escalations Coordinator\ndana.whitaker@northwind.example",
        "Regards,\nD. Whitaker\nSenior Escalations Coordinator\ndana.whitaker@northwind.example",
      ],
    ])
      expect(extractReplyText(body), body).toMatchObject({
        reply: body.slice(0, body.indexOf(signature)).trim(),
        signature,
      });
  });

  it("takes a signature or phone footer flattened onto the reply's line out of it, but not a dash in a sentence", () => {
    expect(extractReplyText("Acknowledged.  -- J. Whitfield Facilities, Fremont Assembly")).toMatchObject({
      reply: "Acknowledged.",
      signature: "--\nJ. Whitfield Facilities, Fremont Assembly",
    });
    expect(extractReplyText("Acknowledged.  Get Outlook for Android").reply).toBe("Acknowledged.");
    expect(extractReplyText("I moved -- to Tracy, as of May 1.").reply).toBe("I moved -- to Tracy, as of May 1.");
  });

  it("strips history under another client's header or one in the rider's language", () => {
    for (const header of [
      "Pool Patrol wrote on 11/23/2026:",
      "2026년 11월 23일 (월) 오전 9:14, Pool Patrol <pool-patrol@northwind.example>님이 작성:",
      "在 2026年11月23日 09:14，Pool Patrol <pool-patrol@northwind.example> 写道：",
      "Em seg., 23 de nov. de 2026 às 09:14, Pool Patrol <pool-patrol@northwind.example> escreveu:",
    ])
      expect(extractReplyText(`Correct.\n\n${header}\nIf you think this is wrong, reply to dispute it.`)).toMatchObject(
        {
          reply: "Correct.",
          quoted: `${header}\nIf you think this is wrong, reply to dispute it.`,
        },
      );
    expect(extractReplyText("I disagree. As I wrote:\nI live in Tracy.").reply).toBe(
      "I disagree. As I wrote:\nI live in Tracy.",
    );
  });

  it("takes a company's confidentiality notice for part of the signature, not the reply", () => {
    const body = [
      "Confirmed, both are right.",
      "",
      "Sam Lee",
      "Planner | Fremont",
      "",
      "CONFIDENTIALITY NOTICE: This message may contain legally privileged information. Unauthorized use may be unlawful.",
    ].join("\n");
    const text = extractReplyText(body);
    expect(text.reply).not.toContain("privileged");
    expect(text.signature).toContain("CONFIDENTIALITY NOTICE");
    expect(extractReplyText("My lawyer has advised me not to answer.").reply).toBe(
      "My lawyer has advised me not to answer.",
    );
  });

  describe("quoted mail in each client's format, with the review email's own words below it", () => {
    // The review email as a rider's client quotes it: "dispute", "wrong", "cancelled" must not be read as theirs.
    const review = [
      "Hi Ana,",
      "",
      "Our records show your home in Modesto (95350). If our records are wrong, just reply to this email; a person will look at it before anything is cancelled.",
      "",
      "Thank you,",
      "The Vanpool Program team (Pool Patrol)",
    ].join("\n");
    const quotedWith = (prefix: string) =>
      review
        .split("\n")
        .map((line) => `${prefix}${line}`)
        .join("\n");
    const formats: [string, string][] = [
      [
        "Gmail",
        `On Tue, Nov 24, 2026 at 8:02 AM Pool Patrol <pool-patrol@northwind.example> wrote:\n${quotedWith("> ")}`,
      ],
      [
        "Outlook desktop",
        `________________________________\nFrom: Pool Patrol <pool-patrol@northwind.example>\nSent: Tuesday, November 24, 2026 8:02 AM\nTo: Ana Ruiz\nSubject: Vanpool eligibility review for VP-12\n\n${review}`,
      ],
      [
        "Outlook for Mac",
        `From: Pool Patrol <pool-patrol@northwind.example>\nDate: Tuesday, November 24, 2026 at 8:02 AM\nTo: Ana Ruiz\nSubject: Vanpool eligibility review for VP-12\n${review}`,
      ],
      ["Outlook, older", `-----Original Message-----\nFrom: Pool Patrol\nSent: Tuesday\n${review}`],
      ["Thunderbird", `-------- Original Message --------\nSubject: Vanpool eligibility review\n${review}`],
      [
        "Zoho",
        `---- On Tue, 24 Nov 2026 08:02:11 -0800 Pool Patrol <pool-patrol@northwind.example> wrote ----\n${review}`,
      ],
      [
        "iPhone Mail",
        `Sent from my iPhone\n\n> On Nov 24, 2026, at 8:02 AM, Pool Patrol <pool-patrol@northwind.example> wrote:\n>\n${quotedWith("> ")}`,
      ],
      [
        "Apple Mail forward",
        `Begin forwarded message:\n\nFrom: Pool Patrol <pool-patrol@northwind.example>\nSubject: Vanpool\n${review}`,
      ],
      [
        "Gmail in Spanish",
        `El mar, 24 nov 2026 a las 8:02, Pool Patrol (<pool-patrol@northwind.example>) escribió:\n${quotedWith("> ")}`,
      ],
      [
        "Gmail in French",
        `Le mar. 24 nov. 2026 à 08:02, Pool Patrol <pool-patrol@northwind.example> a écrit :\n${quotedWith("> ")}`,
      ],
      [
        "Gmail in German",
        `Am Di., 24. Nov. 2026 um 08:02 Uhr schrieb Pool Patrol <pool-patrol@northwind.example>:\n${quotedWith("> ")}`,
      ],
      [
        "Gmail in Italian",
        `Il giorno mar 24 nov 2026 alle ore 08:02 Pool Patrol <pool-patrol@northwind.example> ha scritto:\n${review}`,
      ],
      [
        "Gmail in Chinese",
        `Pool Patrol <pool-patrol@northwind.example> 于2026年11月24日周二 08:02写道：\n${quotedWith("> ")}`,
      ],
      [
        "Outlook in French",
        `De : Pool Patrol <pool-patrol@northwind.example>\nEnvoyé : mardi 24 novembre 2026 08:02\nÀ : Ana Ruiz\nObjet : Vanpool\n${review}`,
      ],
      [
        "Outlook in German",
        `Von: Pool Patrol <pool-patrol@northwind.example>\nGesendet: Dienstag, 24. November 2026 08:02\nAn: Ana Ruiz\nBetreff: Vanpool\n${review}`,
      ],
      [
        "Outlook in Chinese",
        `发件人: Pool Patrol <pool-patrol@northwind.example>\n发送时间: 2026年11月24日 8:02\n收件人: Ana Ruiz\n主题: Vanpool\n${review}`,
      ],
      [
        "Outlook in Korean",
        `보낸 사람: Pool Patrol <pool-patrol@northwind.example>\n보낸 날짜: 2026년 11월 24일 화요일 오전 8:02\n받는 사람: Ana Ruiz\n제목: Vanpool\n${review}`,
      ],
      ["pasted with no header", review],
    ];
    for (const [client, quoted] of formats)
      it(`strips ${client}'s quote`, () => {
        const text = extractReplyText(`Yes that's correct, thanks.\n\n${quoted}`);
        expect(text.reply).toBe("Yes that's correct, thanks.");
        expect(text.quoted).toContain("If our records are wrong");
      });

    it("keeps a rider's own dashes, greetings and words about what they wrote", () => {
      for (const body of [
        "I wrote to HR on 11/20: they have my new address.",
        "Hi Sam,\n\nI moved to Tracy on May 1.\n\nThanks,\nAna",
        "My shift --- nights --- is the same as before.",
      ])
        expect(extractReplyText(body).reply, body).toContain(body.split("\n")[0]!.slice(0, 20));
      expect(extractReplyText("Hi Sam,\n\nI moved to Tracy on May 1.").reply).toBe(
        "Hi Sam,\n\nI moved to Tracy on May 1.",
      );
    });
  });

  describe("a company's confidentiality notice in any language, whatever its first words", () => {
    for (const [language, notice] of <[string, string][]>[
      [
        "English",
        "This e-mail and any attachments are confidential and intended solely for the addressee. If you have received it in error, please notify the sender and delete it. Any unauthorised use or disclosure is prohibited.",
      ],
      [
        "English, under a heading",
        "NOTICE: This email may contain privileged or confidential information and is for the sole use of the intended recipient(s). If you are not the intended recipient, any disclosure, copying, distribution or use of the contents is prohibited.",
      ],
      [
        "Spanish",
        "Este mensaje y sus anexos son confidenciales y están dirigidos exclusivamente a su destinatario. Si lo ha recibido por error, notifíquelo al remitente y elimínelo.",
      ],
      [
        "French",
        "Ce message et ses pièces jointes sont confidentiels et destinés exclusivement au destinataire. Si vous avez reçu ce message par erreur, merci d'en avertir l'expéditeur et de le supprimer.",
      ],
      [
        "German",
        "Diese E-Mail enthält vertrauliche Informationen. Wenn Sie nicht der richtige Adressat sind oder diese E-Mail irrtümlich erhalten haben, informieren Sie bitte sofort den Absender und löschen Sie diese Mail.",
      ],
      [
        "Portuguese",
        "Esta mensagem é confidencial e destinada exclusivamente ao destinatário. Se a recebeu por engano, avise o remetente e apague-a.",
      ],
      [
        "Chinese",
        "本邮件及其附件含有保密信息，仅限于发送给上面地址中列出的收件人。如果您错收了本邮件，请您立即电话或邮件通知发件人并删除本邮件。",
      ],
      ["a printing footer", "Please consider the environment before printing this email."],
    ])
      it(`takes a notice in ${language} for part of the signature`, () => {
        const text = extractReplyText(`Confirmed, the address is right.\n\nAna Ruiz\nPlanner\n\n${notice}`);
        expect(text.reply).toBe("Confirmed, the address is right.");
        expect(text.signature).toContain(notice.slice(0, 30));
      });

    it("keeps a rider's own words about something confidential, or a mistake, as theirs", () => {
      for (const body of [
        "Confirmed.\n\nPlease keep this confidential: I am pregnant and my doctor moved my shift.",
        "Yes.\n\nI think you sent this to me in error, my address has never been in Modesto.",
      ])
        expect(extractReplyText(body).reply, body).toBe(body);
    });
  });
});
