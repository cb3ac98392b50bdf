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
});
