// The emails Pool Patrol sends, as plain text a rider would be glad to receive.
// Each email is about one rider and carries only that rider's own facts.
import type { OutreachTemplate } from "../../domain/case-lifecycle.js";

export interface RiderFacts {
  first_name: string;
  vanpool_id: string;
  vanpool_name: string | null;
  location?: {
    home_city: string | null;
    home_zip: string | null;
    distance_miles: number | null;
    threshold_miles: number;
    pickup: string | null;
  };
  shift?: {
    shift_name: string | null;
    schedule: string | null;
    van_schedule: string | null;
    compatible_percent: number | null;
    required_percent: number;
  };
}

export interface EmailDraft {
  subject: string;
  body: string;
}

const SIGNATURE = "Thank you,\nThe Vanpool Program team (Pool Patrol)";
const PORTAL =
  "You can check and update your details in the Employee Portal (My Profile > Home Address, and My Schedule for shifts).";

export function subjectFor(vanpoolId: string): string {
  return `Vanpool eligibility review for ${vanpoolId}`;
}

function locationParagraph(f: NonNullable<RiderFacts["location"]>): string {
  const where = f.home_city
    ? `${f.home_city}${f.home_zip ? ` (${f.home_zip})` : ""}`
    : f.home_zip
      ? `ZIP ${f.home_zip}`
      : "your home address";
  const distance =
    f.distance_miles === null ? "could not be measured" : `is about ${f.distance_miles.toFixed(0)} miles`;
  return `Our records show your home in ${where}. The distance from there to the van's pickup point${f.pickup ? ` (${f.pickup})` : ""} ${distance}, and the program covers riders living within ${f.threshold_miles} miles.`;
}

function shiftParagraph(f: NonNullable<RiderFacts["shift"]>): string {
  const yours = f.shift_name ? `${f.shift_name}${f.schedule ? ` (${f.schedule})` : ""}` : "no shift";
  return (
    `Our records show you working ${yours}, while the van runs ${f.van_schedule ?? "on a different schedule"}. ` +
    `Riders need a shift that starts and ends within an hour of the van's on at least ${f.required_percent}% of its days${f.compatible_percent === null ? "" : `; yours matches on ${f.compatible_percent}%`}.`
  );
}

export function initialEmail(template: OutreachTemplate, f: RiderFacts): EmailDraft {
  const van = f.vanpool_name ? `${f.vanpool_name} (${f.vanpool_id})` : f.vanpool_id;
  const facts = [
    template !== "shift_mismatch" && f.location ? locationParagraph(f.location) : null,
    template !== "location_mismatch" && f.shift ? shiftParagraph(f.shift) : null,
  ].filter(Boolean);
  const topic =
    template === "both_mismatch"
      ? "your home location and work shift"
      : template === "location_mismatch"
        ? "your home location"
        : "your work shift";
  return {
    subject: subjectFor(f.vanpool_id),
    body: [
      `Hi ${f.first_name},`,
      `We review vanpool memberships regularly to keep the subsidy fair for everyone. Our latest review of ${van} could not confirm ${topic}.`,
      ...facts,
      `If something has changed, please update it and reply to let us know. If our records are wrong, or you have questions, just reply to this email. ${PORTAL}`,
      "Please reply within 7 days. Nothing changes for your membership without a person on our team reviewing it first.",
      SIGNATURE,
    ].join("\n\n"),
  };
}

export function confirmationEmail(f: RiderFacts): EmailDraft {
  return {
    subject: `Re: ${subjectFor(f.vanpool_id)}`,
    body: [
      `Hi ${f.first_name},`,
      `Thanks for the update. We checked again and your details now meet the program's rules for ${f.vanpool_id}, so this review is closed. Enjoy the ride!`,
      SIGNATURE,
    ].join("\n\n"),
  };
}

export function followUpEmail(template: OutreachTemplate, f: RiderFacts): EmailDraft {
  const facts = [
    template !== "shift_mismatch" && f.location ? locationParagraph(f.location) : null,
    template !== "location_mismatch" && f.shift ? shiftParagraph(f.shift) : null,
  ].filter(Boolean);
  return {
    subject: `Re: ${subjectFor(f.vanpool_id)}`,
    body: [
      `Hi ${f.first_name},`,
      "Thanks for getting back to us. We checked your records again, but they still do not meet the program's rules:",
      ...facts,
      `Changes can take a business day to show up. ${PORTAL} Once they are updated, reply to this email and we will check again.`,
      SIGNATURE,
    ].join("\n\n"),
  };
}

export function questionAnswerEmail(
  f: Pick<RiderFacts, "first_name" | "vanpool_id">,
  sections: { heading: string; text: string }[],
): EmailDraft {
  const cited =
    sections.length > 0
      ? sections.map((s) => `From the program policy, "${s.heading}":\n${s.text}`).join("\n\n")
      : "The program policy does not cover that directly; a member of the program team will follow up.";
  return {
    subject: `Re: ${subjectFor(f.vanpool_id)}`,
    body: [
      `Hi ${f.first_name},`,
      "Thanks for your question. Here is what the program policy says:",
      cited,
      "If this does not answer it, just reply and we will help.",
      SIGNATURE,
    ].join("\n\n"),
  };
}

/** What a human reviews before anything is said to a rider who disputes or is upset. */
export function escalationDraft(f: Pick<RiderFacts, "first_name" | "vanpool_id">): EmailDraft {
  return {
    subject: `Re: ${subjectFor(f.vanpool_id)}`,
    body: [
      `Hi ${f.first_name},`,
      "Thank you for your message, and we are sorry for any frustration. A member of the vanpool program team is reviewing your case personally, and nothing will change for your membership while they do.",
      "If you have documents that show your current address or schedule, you are welcome to reply with them. You can also appeal any decision within 14 days by writing to vanpool-program@northwind.example.",
      SIGNATURE,
    ].join("\n\n"),
  };
}
