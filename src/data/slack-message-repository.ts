// Where a case's alert and each approval card live in Slack (channel + ts).
import { CLOSED_STATUSES } from "../domain/case-lifecycle.js";
import type { PrismaClient } from "./prisma.js";

export interface SlackLocation {
  channel: string;
  ts: string;
}

const located = (row: { slackChannel: string | null; slackTs: string | null } | null): SlackLocation | undefined =>
  row?.slackChannel && row.slackTs ? { channel: row.slackChannel, ts: row.slackTs } : undefined;

export async function caseAlertLocation(prisma: PrismaClient, caseId: string): Promise<SlackLocation | undefined> {
  return located(
    await prisma.case.findUnique({ where: { id: caseId }, select: { slackChannel: true, slackTs: true } }),
  );
}

export async function setCaseAlertLocation(prisma: PrismaClient, caseId: string, at: SlackLocation): Promise<void> {
  await prisma.case.update({ where: { id: caseId }, data: { slackChannel: at.channel, slackTs: at.ts } });
}

export async function approvalCardLocation(
  prisma: PrismaClient,
  approvalId: string,
): Promise<SlackLocation | undefined> {
  return located(
    await prisma.approvalRequest.findUnique({
      where: { id: approvalId },
      select: { slackChannel: true, slackTs: true },
    }),
  );
}

export async function setApprovalCardLocation(
  prisma: PrismaClient,
  approvalId: string,
  at: SlackLocation,
): Promise<void> {
  await prisma.approvalRequest.update({
    where: { id: approvalId },
    data: { slackChannel: at.channel, slackTs: at.ts },
  });
}

export async function vanpoolName(prisma: PrismaClient, vanpoolId: string): Promise<string | null> {
  return (await prisma.vanpool.findUnique({ where: { id: vanpoolId }, select: { name: true } }))?.name ?? null;
}

/** Open cases without an alert, and cases with a pending approval not yet in Slack. */
export async function casesMissingFromSlack(prisma: PrismaClient): Promise<string[]> {
  const rows = await prisma.case.findMany({
    where: {
      OR: [
        { slackTs: null, status: { notIn: [...CLOSED_STATUSES] } },
        { approvals: { some: { status: "pending", slackTs: null } } },
      ],
    },
    select: { id: true },
  });
  return rows.map((r) => r.id);
}

/** Where a sweep's summary is, once posted. */
export async function sweepSummaryLocation(prisma: PrismaClient, sweepId: string): Promise<SlackLocation | undefined> {
  return located(
    await prisma.sweep.findUnique({ where: { id: sweepId }, select: { slackChannel: true, slackTs: true } }),
  );
}

/** Where the digest of a slot is, once posted. */
export async function digestLocation(prisma: PrismaClient, periodKey: string): Promise<SlackLocation | undefined> {
  const row = await prisma.digestRun.findUnique({ where: { periodKey }, select: { channel: true, ts: true } });
  return row?.ts ? { channel: row.channel, ts: row.ts } : undefined;
}
