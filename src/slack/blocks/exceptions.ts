// Exceptions (docs/exceptions.md) in Slack's words: "EMP-1028 (location): kept by @alex until May 26 (moving soon)".
import type { KnownBlock } from "@slack/types";
import { keptInWords, type RiderException } from "../../domain/exceptions.js";
import { button, context, escapeMrkdwn, section, slackDate, truncate } from "./format.js";

const SLACK_USER = /^[UW][A-Z0-9]+$/;

/** The button that revokes one exception; its value is the exception id. */
export const REVOKE_EXCEPTION = "revoke_exception";
/** Slack allows 50 blocks in a message: the list shows the exceptions that end soonest. */
const LISTED = 40;

/** The decider as Slack shows a person: a mention for a Slack user, the name given on the command line otherwise. */
export const deciderWords = (grantedBy: string) => (SLACK_USER.test(grantedBy) ? `<@${grantedBy}>` : grantedBy);

export function keptLine(exception: RiderException): string {
  return `${exception.employee_id} on ${exception.vanpool_id} (${exception.check}): ${keptInWords(
    exception,
    deciderWords(exception.granted_by),
    slackDate(exception.expires_at, "{date_short}"),
  )}`;
}

/** `/poolpatrol exceptions`: the exceptions that hold, soonest to end first; approvers get a Revoke button on each. */
export function exceptionsList(
  live: readonly RiderException[],
  approver: boolean,
): { text: string; blocks: KnownBlock[] } {
  if (live.length === 0) {
    const text = "No exceptions hold: every failing rider is audited normally.";
    return { text, blocks: [section(text)] };
  }
  const text = `Riders kept while they fail a check (${live.length}), soonest to end first:`;
  const rows = live.slice(0, LISTED).map((exception) => {
    const note = exception.note ? `\n_${escapeMrkdwn(truncate(exception.note, 200))}_` : "";
    const line = `*${keptLine(exception)}*${note}\n${exception.exception_id}${exception.case_id ? ` · ${exception.case_id}` : ""}`;
    return section(
      line,
      approver
        ? button("Revoke", REVOKE_EXCEPTION, exception.exception_id, "danger", {
            title: { type: "plain_text", text: "Revoke this exception?" },
            text: {
              type: "mrkdwn",
              text: `The next audit checks ${exception.employee_id} on ${exception.vanpool_id} (${exception.check}) normally: a case may open and emails may go out.`,
            },
            confirm: { type: "plain_text", text: "Revoke" },
            deny: { type: "plain_text", text: "Cancel" },
          })
        : undefined,
    );
  });
  const more =
    live.length > LISTED
      ? [context(`And ${live.length - LISTED} more: \`poolpatrol exceptions\` lists them all.`)]
      : [];
  const how = approver ? [] : [context("Only approvers can revoke an exception.")];
  return { text, blocks: [section(text), ...rows, ...more, ...how] };
}
