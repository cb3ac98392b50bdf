// Slack retries an event it thinks was lost: a receipt per event id makes the second
// delivery a no-op in every instance.
import type { PrismaClient } from "./prisma.js";

/** True the first time a Slack event id is seen, in any instance. */
export async function firstDelivery(prisma: PrismaClient, eventId: string | undefined): Promise<boolean> {
  if (!eventId) return true;
  const inserted =
    await prisma.$executeRaw`INSERT INTO slack_event_receipts (event_id) VALUES (${eventId}) ON CONFLICT (event_id) DO NOTHING`;
  return inserted === 1;
}
