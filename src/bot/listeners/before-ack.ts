// What a listener does before its ack (a lookup it needs to answer, queueing the job that does the
// work) has ACK_BUDGET_MS: Slack gives up on a request not acknowledged within 3 seconds. A database
// that is down, or frozen and not answering, makes the listener ack in time with DATABASE_DOWN, and
// its job is queued only if the database took it before the deadline (JobEngine.sendBy), so nothing
// is done later that the person was told did not happen.
import type { AckFn, ViewResponseAction } from "@slack/bolt";
import { DatabaseTimeout, isDatabaseUnreachable } from "../../data/pg-pool.js";
import { AppError } from "../../errors.js";

export const ACK_BUDGET_MS = 2000;

export const DATABASE_DOWN =
  "Pool Patrol can't reach its database right now, so nothing was changed. Try again in a few minutes.";

/** The database stopped answering while it was committing: whether it took the request is unknown. */
export const DATABASE_UNSURE =
  "Pool Patrol's database stopped answering while taking this in. If it was taken, it is carried out once the database is back: check in a few minutes before trying again.";

/** When the ack must be sent by, for a request that arrives now. */
export const ackDeadline = (): number => Date.now() + ACK_BUDGET_MS;

/** What to tell the person when `error` is the database failing (down, or not answering in time); undefined otherwise. */
export function databaseTrouble(error: unknown): string | undefined {
  if (error instanceof DatabaseTimeout && error.committing) return DATABASE_UNSURE;
  return isDatabaseUnreachable(error) ? DATABASE_DOWN : undefined;
}

/** `lookup`'s answer, or undefined when what it looks for does not exist (an AppError); other errors are thrown. */
export async function unlessMissing<T>(lookup: Promise<T>): Promise<T | undefined> {
  try {
    return await lookup;
  } catch (error) {
    if (error instanceof AppError) return undefined;
    throw error;
  }
}

/**
 * Queues what a request asks for, then acks; when the database fails (down, or not answering before the
 * deadline) `trouble` acks instead and tells the person. Any other error is thrown, unacknowledged.
 */
export async function queueBeforeAck(
  queue: (deadline: number) => Promise<unknown>,
  answer: { ack(): Promise<void>; trouble(words: string): Promise<void> },
): Promise<void> {
  try {
    await queue(ackDeadline());
  } catch (error) {
    const trouble = databaseTrouble(error);
    if (!trouble) throw error;
    return answer.trouble(trouble);
  }
  await answer.ack();
}

/** How a modal submission hears of trouble: the modal stays open, the words under `block`. */
export const troubleInModal =
  (ack: AckFn<void> | AckFn<ViewResponseAction>, block: string) =>
  (words: string): Promise<void> =>
    ack({ response_action: "errors", errors: { [block]: words } });
