// Where a case alert lives in Slack (channel and message ts).
import type { PrismaClient } from "./prisma.js";

export interface SlackLocation {
  channel: string;
  ts: string;
}

export async function findCaseAlertLocation(prisma: PrismaClient, caseId: string): Promise<SlackLocation | undefined> {
  const row = await prisma.case.findUnique({ where: { id: caseId }, select: { slackChannel: true, slackTs: true } });
  return row?.slackChannel && row.slackTs ? { channel: row.slackChannel, ts: row.slackTs } : undefined;
}
