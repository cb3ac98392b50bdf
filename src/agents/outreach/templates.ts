// The emails Pool Patrol sends, as plain text a rider would be glad to receive.
// Each email is about one rider and carries only that rider's own facts: a check
// appears in RiderFacts only when it fails for that rider.
import { APPEAL_ADDRESS, toleranceText } from "../../domain/policy-text.js";

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
    tolerance_minutes: number;
  };
}

export interface EmailDraft {
  subject: string;
  body: string;
}

/** How every email the program sends is signed: a reply that pastes one below its own words is known by it. */
export const PROGRAM_SIGNED = "The Vanpool Program team (Pool Patrol)";
const SIGNATURE = `Thank you,\n${PROGRAM_SIGNED}`;
/** Where in the Employee Portal this rider fixes what their email is about. */
function portal(f: RiderFacts): string {
  const places = [f.location ? "My Profile > Home Address" : null, f.shift ? "My Schedule" : null].filter(Boolean);
  const where = places.length ? places.join(", and ") : "My Profile";
  return `You can check and update your details in the Employee Portal (${where}).`;
}

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
    `Riders need a shift that starts and ends within ${toleranceText(f.tolerance_minutes)} of the van's on at least ${f.required_percent}% of its days${f.compatible_percent === null ? "" : `; yours matches on ${f.compatible_percent}%`}.`
  );
}

function factParagraphs(f: RiderFacts): string[] {
  return [f.location ? locationParagraph(f.location) : null, f.shift ? shiftParagraph(f.shift) : null].filter(
    (p): p is string => p !== null,
  );
}

export function initialEmail(f: RiderFacts): EmailDraft {
  const van = f.vanpool_name ? `${f.vanpool_name} (${f.vanpool_id})` : f.vanpool_id;
  const facts = factParagraphs(f);
  const topic =
    f.location && f.shift
      ? "your home location and work shift"
      : f.location
        ? "your home location"
        : f.shift
          ? "your work shift"
          : "your membership details";
  return {
    subject: subjectFor(f.vanpool_id),
    body: [
      `Hi ${f.first_name},`,
      `We review vanpool memberships regularly to keep the subsidy fair for everyone. Our latest review of ${van} could not confirm ${topic}.`,
      ...facts,
      `If something has changed, please update it and reply to let us know. If our records are wrong, or you have questions, just reply to this email. ${portal(f)}`,
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
      `Thanks for the update. We checked again and your details now meet the program's rules for ${f.vanpool_id}, so nothing more is needed from you. Enjoy the ride!`,
      SIGNATURE,
    ].join("\n\n"),
  };
}

/** To a rider who never wrote, when the case closes because every check now passes. */
export function reviewClosedEmail(f: RiderFacts): EmailDraft {
  return {
    subject: `Re: ${subjectFor(f.vanpool_id)}`,
    body: [
      `Hi ${f.first_name},`,
      `Good news: we checked again and your details now meet the program's rules for ${f.vanpool_id}, so this review is closed and nothing is needed from you.`,
      SIGNATURE,
    ].join("\n\n"),
  };
}

export function followUpEmail(f: RiderFacts): EmailDraft {
  const facts = factParagraphs(f);
  return {
    subject: `Re: ${subjectFor(f.vanpool_id)}`,
    body: [
      `Hi ${f.first_name},`,
      "Thanks for getting back to us. We checked your records again, but they still do not meet the program's rules:",
      ...facts,
      `Changes can take a business day to show up. ${portal(f)} Once they are updated, reply to this email and we will check again.`,
      SIGNATURE,
    ].join("\n\n"),
  };
}

/** A reminder an approver asked for in conversation: the rider's own facts again, and how to answer. */
export function reminderEmail(f: RiderFacts): EmailDraft {
  return {
    subject: `Re: ${subjectFor(f.vanpool_id)}`,
    body: [
      `Hi ${f.first_name},`,
      `We are following up on our review of your membership in ${f.vanpool_id}. Here is what our records show today.`,
      ...factParagraphs(f),
      `If something has changed, please update it and reply to let us know; if our records are wrong, just reply to this email. ${portal(f)}`,
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
      : "The program policy does not cover that directly, so a member of the program team is looking into it and will write back to you.";
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
      `If you have documents that show your current address or schedule, you are welcome to reply with them. You can also appeal any decision within 14 days by writing to ${APPEAL_ADDRESS}.`,
      SIGNATURE,
    ].join("\n\n"),
  };
}

/** What a human reviews for a reply no reader could read: it tells the rider a person reads it, and guesses nothing. */
export function unreadReplyDraft(f: Pick<RiderFacts, "first_name" | "vanpool_id">): EmailDraft {
  return {
    subject: `Re: ${subjectFor(f.vanpool_id)}`,
    body: [
      `Hi ${f.first_name},`,
      "Thank you for your reply. A member of the vanpool program team will read it and write back to you, and nothing will change for your membership while they do.",
      SIGNATURE,
    ].join("\n\n"),
  };
}

/** Sent once to each rider removed after a person approved the cancellation. */
export function removalNoticeEmail(f: RiderFacts, appeals: string): EmailDraft {
  const van = f.vanpool_name ? `${f.vanpool_name} (${f.vanpool_id})` : f.vanpool_id;
  return {
    subject: `Your vanpool membership in ${f.vanpool_id} has ended`,
    body: [
      `Hi ${f.first_name},`,
      `After reviewing your case, a member of the vanpool program team approved ending your membership in ${van}, because your records still do not meet the program's rules:`,
      ...factParagraphs(f),
      `How to appeal: ${appeals}`,
      SIGNATURE,
    ].join("\n\n"),
  };
}

/** Sent when a cancellation is undone: instead of the removal notice if it had not gone yet, or after it. */
export function retractionEmail(f: Pick<RiderFacts, "first_name" | "vanpool_id">, noticeWent: boolean): EmailDraft {
  return {
    subject: `Your vanpool membership in ${f.vanpool_id} continues`,
    body: [
      `Hi ${f.first_name},`,
      noticeWent
        ? `We recently wrote that your membership in ${f.vanpool_id} had ended. That decision has been withdrawn: please disregard our earlier email.`
        : `A decision to end your membership in ${f.vanpool_id} was withdrawn before we wrote to you about it.`,
      "Your seat stays as it was; you do not need to do anything.",
      SIGNATURE,
    ].join("\n\n"),
  };
}
