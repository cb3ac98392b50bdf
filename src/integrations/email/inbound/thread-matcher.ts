// Which case thread an inbound email belongs to: the plus address first, then the
// Message-IDs it answers (In-Reply-To/References), then the sender and the subject.
import { findThread, type ThreadRecord } from "../../../data/email-repository.js";
import { findMessageByRfcId, findThreadIdsWrittenTo } from "../../../data/inbound-repository.js";
import type { PrismaClient } from "../../../data/prisma.js";
import { addressOf, referencedMessageIds, threadIdFromAddresses } from "../reply-address.js";
import type { ReceivedEmail } from "./mailbox.js";

export type ThreadMatch = { thread: ThreadRecord; by: "plus address" | "in-reply-to" | "sender and subject" };

export async function matchThread(prisma: PrismaClient, email: ReceivedEmail): Promise<ThreadMatch | undefined> {
  const tagged = threadIdFromAddresses([...email.to, ...email.cc]);
  if (tagged) {
    const thread = await findThread(prisma, tagged);
    if (thread) return { thread, by: "plus address" };
  }
  for (const rfcId of referencedMessageIds(email.headers)) {
    const message = await findMessageByRfcId(prisma, rfcId);
    const thread = message && (await findThread(prisma, message.thread_id));
    if (thread) return { thread, by: "in-reply-to" };
  }
  const subject = baseSubject(email.subject);
  for (const threadId of await findThreadIdsWrittenTo(prisma, addressOf(email.from))) {
    const thread = await findThread(prisma, threadId);
    if (thread?.messages.some((m) => baseSubject(m.subject) === subject)) return { thread, by: "sender and subject" };
  }
  return undefined;
}

/** "RE: Fwd: Vanpool review" -> "vanpool review" */
export function baseSubject(subject: string): string {
  return subject
    .replace(/^(\s*(re|fwd?|aw|sv|antw)\s*(\[\d+\])?\s*:\s*)+/i, "")
    .trim()
    .toLowerCase();
}

/** Whether Pool Patrol wrote to this address on the thread. */
export function wasWrittenTo(thread: ThreadRecord, address: string): boolean {
  const wanted = addressOf(address);
  return thread.messages
    .filter((m) => m.direction === "outbound")
    .some((m) => [...m.to, ...m.cc].some((a) => addressOf(a) === wanted));
}
