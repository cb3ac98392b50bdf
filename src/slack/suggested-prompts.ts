// The questions an assistant thread with Pool Patrol offers to start with, drawn from what is open:
// the cases that need a person first, then why the newest open cases failed, then the policy.
import type { CaseRecord } from "../data/case-repository.js";

export interface SuggestedPrompt {
  title: string;
  message: string;
}

const ask = (message: string): SuggestedPrompt => ({ title: message, message });

/** At most four (Slack's limit), every one naming a real open case or a rule of the program. */
export function suggestedPrompts(open: Pick<CaseRecord, "vanpool_id" | "status">[]): SuggestedPrompt[] {
  const waiting = open.filter((c) => c.status !== "pending_reply");
  const vanpools = [...new Set([...waiting, ...open].map((c) => c.vanpool_id))];
  return [
    ask(open.length > 0 ? "Which cases need me?" : "How many cases are open?"),
    ...vanpools.slice(0, 2).map((vanpool) => ask(`Why did ${vanpool} fail?`)),
    ask("How is the distance limit measured?"),
  ].slice(0, 4);
}
