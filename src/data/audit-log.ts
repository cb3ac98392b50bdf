// The audit trail: who (agent or person), what, to which subject, when and why.
import type { Prisma, PrismaClient } from "./prisma.js";

export interface AuditEventInput {
  actor: string;
  action: string;
  subjectType: "case" | "approval" | "vanpool" | "email" | "thread" | "api_token";
  subjectId: string;
  details?: Record<string, unknown>;
  at?: Date;
}

export async function recordEvent(db: PrismaClient | Prisma.TransactionClient, event: AuditEventInput): Promise<void> {
  await db.auditEvent.create({
    data: {
      actor: event.actor,
      action: event.action,
      subjectType: event.subjectType,
      subjectId: event.subjectId,
      details: (event.details ?? {}) as Prisma.InputJsonValue,
      ...(event.at ? { createdAt: event.at } : {}),
    },
  });
}

export interface AuditEventRecord {
  actor: string;
  action: string;
  subject_type: string;
  subject_id: string;
  details: Record<string, unknown>;
  at: Date;
}

export async function eventsFor(db: PrismaClient, subjectIds: string[]): Promise<AuditEventRecord[]> {
  const rows = await db.auditEvent.findMany({ where: { subjectId: { in: subjectIds } }, orderBy: { id: "asc" } });
  return rows.map((r) => ({
    actor: r.actor,
    action: r.action,
    subject_type: r.subjectType,
    subject_id: r.subjectId,
    details: r.details as Record<string, unknown>,
    at: r.createdAt,
  }));
}
