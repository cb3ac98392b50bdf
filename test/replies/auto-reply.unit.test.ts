import { describe, expect, it } from "vitest";
import { type AutoReplyInput, detectAutoReply } from "../../src/replies/auto-reply.js";

const receivedAt = new Date("2026-11-24T15:00:00Z"); // a Tuesday
const reply = (over: Partial<AutoReplyInput>): AutoReplyInput => ({
  headers: {},
  from: "Dana Rider <dana@example.com>",
  subject: "Re: Your address on file for the Almaden Valley Express vanpool (VP-101)",
  text: "Everything is correct.",
  receivedAt,
  ...over,
});

describe("detectAutoReply", () => {
  it("leaves a rider's own answer alone, including one that mentions being out of the office", () => {
    expect(detectAutoReply(reply({}))).toEqual({ kind: null });
    expect(detectAutoReply(reply({ text: "I was out of the office, sorry. I moved to Gilroy." }))).toEqual({
      kind: null,
    });
    expect(detectAutoReply(reply({ headers: { "Auto-Submitted": "no" } }))).toEqual({ kind: null });
  });

  it("recognises RFC 3834 Auto-Submitted, X-Autoreply and Precedence headers in any case", () => {
    const notice = "Thank you for your message. This mailbox is monitored during business hours.";
    expect(detectAutoReply(reply({ headers: { "Auto-Submitted": "auto-replied" }, text: notice }))).toEqual({
      kind: "auto_reply",
    });
    expect(detectAutoReply(reply({ headers: { "x-autoreply": "yes" }, text: notice })).kind).toBe("auto_reply");
    expect(detectAutoReply(reply({ headers: { PRECEDENCE: "bulk" }, text: notice })).kind).toBe("auto_reply");
    expect(detectAutoReply(reply({ headers: { Precedence: ["list", "auto_reply"] }, text: notice })).kind).toBe(
      "auto_reply",
    );
  });

  it("calls bounces from mailer-daemon or postmaster, delivery reports and failure subjects bounces", () => {
    expect(detectAutoReply(reply({ from: "Mail Delivery System <MAILER-DAEMON@mx.example.com>" })).kind).toBe("bounce");
    expect(detectAutoReply(reply({ from: "postmaster@example.com" })).kind).toBe("bounce");
    expect(
      detectAutoReply(reply({ headers: { "Content-Type": 'multipart/report; report-type="delivery-status"' } })).kind,
    ).toBe("bounce");
    expect(detectAutoReply(reply({ subject: "Undeliverable: Your address on file" })).kind).toBe("bounce");
  });

  it("reads an out-of-office notice and its return date, resolved against the day it arrived", () => {
    const ooo = (text: string) =>
      detectAutoReply(reply({ headers: { "Auto-Submitted": "auto-replied" }, subject: "Out of Office", text }));
    expect(ooo("I am out of the office and will be back on December 3.")).toEqual({
      kind: "out_of_office",
      returnDate: "2026-12-03",
    });
    expect(ooo("I'm on vacation until Jan 5th with limited access to email.").returnDate).toBe("2027-01-05");
    expect(ooo("Out of office, returning 12/7.").returnDate).toBe("2026-12-07");
    expect(ooo("Out of office. Back in the office on 2026-12-14.").returnDate).toBe("2026-12-14");
    expect(ooo("Estoy de vacaciones hasta el 2 de diciembre.").returnDate).toBe("2026-12-02");
    expect(ooo("Away from my desk, back Monday.").returnDate).toBe("2026-11-30");
    expect(ooo("I am out of the office with no access to email.")).toEqual({ kind: "out_of_office" });
  });

  it('knows an out-of-office by its subject alone ("Automatic reply:") when the headers are missing', () => {
    expect(
      detectAutoReply(reply({ subject: "Automatic reply: Your address", text: "I'm OOO through November 30." })),
    ).toEqual({ kind: "out_of_office", returnDate: "2026-11-30" });
  });

  it("ignores an impossible date rather than inventing one", () => {
    const verdict = detectAutoReply(reply({ headers: { "X-Autoreply": "yes" }, text: "On leave, back February 30." }));
    expect(verdict).toEqual({ kind: "out_of_office" });
  });
});
