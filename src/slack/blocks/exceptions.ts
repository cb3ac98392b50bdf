// Exceptions (docs/exceptions.md) in Slack's words: "EMP-1028 (location): kept by @alex until May 26 (moving soon)".
import { keptInWords, type RiderException } from "../../domain/exceptions.js";
import { slackDate } from "./format.js";

const SLACK_USER = /^[UW][A-Z0-9]+$/;

/** The decider as Slack shows a person: a mention for a Slack user, the name given on the command line otherwise. */
export const deciderWords = (grantedBy: string) => (SLACK_USER.test(grantedBy) ? `<@${grantedBy}>` : grantedBy);

export function keptLine(exception: RiderException): string {
  return `${exception.employee_id} on ${exception.vanpool_id} (${exception.check}): ${keptInWords(
    exception,
    deciderWords(exception.granted_by),
    slackDate(exception.expires_at, "{date_short}"),
  )}`;
}
