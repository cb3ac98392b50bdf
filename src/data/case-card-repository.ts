// What Slack's case alert and approval cards show about a case, read in one place:
// the evidence it stands on, its riders' first names, their replies and answers,
// and how it came to a cancellation.
import { type Coverage, checkFacts, exceptionCoverage, type RiderException } from "../domain/exceptions.js";
import { listCaseRiderDecisions, type RiderDecisionRecord } from "./approval-repository.js";
import { type CaseRecord, getCase, listCases } from "./case-repository.js";
import { findExceptionsOn, findRiderFacts } from "./exception-repository.js";
import type { PrismaClient } from "./prisma.js";
import { listReAudits, type ReAuditRecord } from "./re-audit-repository.js";
import { type EarlierCase, findEarlierCasesOfRiders } from "./rider-history-repository.js";
import { type CaseEvidence, caseEvidenceOf } from "./verification-repository.js";

export interface CaseCardData {
  record: CaseRecord;
  vanpoolName: string | null;
  evidence: CaseEvidence;
  /** Flagged riders and everyone who wrote on the case's thread. */
  people: { employee_id: string; first_name: string; email: string }[];
  /** Email on the case, oldest first (inbound replies and outbound answers). */
  emails: {
    message_id: string;
    direction: "inbound" | "outbound";
    from: string;
    to: string[];
    body: string;
    at: Date;
    subject: string;
    /** Sent, received or queued (outbound not sent yet). */
    status: string;
    /** Inbound: how it was read (null until classified, and for automatic replies). */
    bucket: string | null;
    /** Inbound: the reply without quoted history or signature. */
    reply_text: string | null;
  }[];
  /** When the case went to pre_cancel, and whether a reply timeout led there. */
  preCancel: { at: Date; afterTimeout: boolean } | null;
  /** Since when the case has been in its current status. */
  statusSince: Date;
  /** Per-rider decisions on the case's cancellation requests, by request id. */
  riderDecisions: Record<string, RiderDecisionRecord[]>;
  /** Exceptions granted earlier (on other cases) to this case's flagged riders that no longer covered them. */
  earlierExceptions: EarlierException[];
  /** Earlier cases of its flagged riders (rider-history-repository.ts), by employee id. */
  earlierCases: Map<string, EarlierCase[]>;
  /** The re-audits of the case, oldest first, each with its results. */
  reAudits: ReAuditRecord[];
}

export interface EarlierException {
  exception: RiderException;
  lapsed: Exclude<Coverage["kind"], "covered" | "none">;
}

export async function findCaseCardData(prisma: PrismaClient, caseId: string): Promise<CaseCardData> {
  const record = await getCase(prisma, caseId);
  const [vanpool, evidence, thread, events, riderDecisions] = await Promise.all([
    prisma.vanpool.findUnique({ where: { id: record.vanpool_id }, select: { name: true } }),
    caseEvidenceOf(prisma, { caseId, vanpoolId: record.vanpool_id, resolvedAt: record.resolved_at }),
    prisma.emailThread.findUnique({
      where: { caseId },
      include: {
        messages: { where: { status: { in: ["sent", "received", "queued"] } }, orderBy: { createdAt: "asc" } },
      },
    }),
    prisma.auditEvent.findMany({
      where: { subjectType: "case", subjectId: caseId, action: { in: ["case.status_changed", "case.reply_timeout"] } },
      orderBy: { id: "asc" },
    }),
    listCaseRiderDecisions(prisma, caseId),
  ]);
  const messages = thread?.messages ?? [];
  const senders = messages.filter((m) => m.direction === "inbound").map((m) => m.fromAddress.toLowerCase());
  // A rider kept or reinstated is no longer flagged, and the cards still name them.
  const decided = Object.values(riderDecisions).flatMap((ds) => ds.map((d) => d.employee_id));
  const employees = await prisma.employee.findMany({
    where: { OR: [{ id: { in: [...record.flagged, ...decided] } }, { email: { in: senders, mode: "insensitive" } }] },
    select: { id: true, firstName: true, email: true },
  });
  return {
    record,
    vanpoolName: vanpool?.name ?? null,
    evidence,
    people: employees.map((e) => ({ employee_id: e.id, first_name: e.firstName, email: e.email })),
    emails: messages.map((m) => ({
      message_id: m.id,
      direction: m.direction,
      from: m.fromAddress,
      to: m.toAddresses,
      body: m.body,
      at: m.receivedAt ?? m.sentAt ?? m.createdAt,
      subject: m.subject,
      status: m.status,
      bucket: m.bucket,
      reply_text: m.replyText,
    })),
    preCancel: preCancelFrom(events),
    statusSince: statusSince(record, events),
    riderDecisions,
    earlierExceptions: await earlierExceptionsOf(prisma, record),
    earlierCases: await findEarlierCasesOfRiders(prisma, record.flagged, {
      caseId: record.case_id,
      at: record.created_at,
    }),
    reAudits: await listReAudits(prisma, caseId),
  };
}

/** For each flagged rider and failed check, the exception that held before this case, and why it no longer does. */
async function earlierExceptionsOf(prisma: PrismaClient, record: CaseRecord): Promise<EarlierException[]> {
  const exceptions = (await findExceptionsOn(prisma, [record.vanpool_id])).filter(
    (e) => e.case_id !== record.case_id && e.granted_at <= record.created_at && record.flagged.includes(e.employee_id),
  );
  if (exceptions.length === 0) return [];
  const facts = await findRiderFacts(prisma, record.flagged);
  return record.flagged.flatMap((employeeId) =>
    record.failed_checks.flatMap((check): EarlierException[] => {
      const source = facts.get(employeeId);
      if (!source) return [];
      const coverage = exceptionCoverage(
        exceptions,
        { employee_id: employeeId, vanpool_id: record.vanpool_id, facts: checkFacts(check, source) },
        record.created_at,
      );
      return coverage.kind === "none" || coverage.kind === "covered"
        ? []
        : [{ exception: coverage.exception, lapsed: coverage.kind }];
    }),
  );
}

type StatusEvent = { action: string; details: unknown; createdAt: Date };

/** The last change into the case's current status; the case's opening when it never changed. */
function statusSince(record: CaseRecord, events: StatusEvent[]): Date {
  const change = events.findLast(
    (e) => e.action === "case.status_changed" && (e.details as { to?: string }).to === record.status,
  );
  return change?.createdAt ?? record.created_at;
}

/** Cases waiting for a person, oldest first, with since when they wait. */
export async function listCasesNeedingPerson(prisma: PrismaClient): Promise<{ record: CaseRecord; since: Date }[]> {
  const records = await listCases(prisma, { status: "hitl_review" });
  const events = await prisma.auditEvent.findMany({
    where: { subjectType: "case", subjectId: { in: records.map((r) => r.case_id) }, action: "case.status_changed" },
    orderBy: { id: "asc" },
  });
  return records
    .map((record) => ({
      record,
      since: statusSince(
        record,
        events.filter((e) => e.subjectId === record.case_id),
      ),
    }))
    .sort((a, b) => a.since.getTime() - b.since.getTime());
}

function preCancelFrom(events: StatusEvent[]): CaseCardData["preCancel"] {
  const index = events.findLastIndex(
    (e) => e.action === "case.status_changed" && (e.details as { to?: string }).to === "pre_cancel",
  );
  if (index < 0) return null;
  const before = events.slice(0, index);
  const lastChange = before.findLastIndex((e) => e.action === "case.status_changed");
  return {
    at: events[index]!.createdAt,
    afterTimeout: before.slice(lastChange + 1).some((e) => e.action === "case.reply_timeout"),
  };
}

/** A rider's reply in full, with the case it belongs to and who wrote it; undefined unless an inbound email. */
export async function findRiderReply(
  prisma: PrismaClient,
  messageId: string,
): Promise<
  | {
      message_id: string;
      case_id: string;
      body: string;
      at: Date;
      employee_id: string | null;
      first_name: string | null;
    }
  | undefined
> {
  const message = await prisma.message.findUnique({ where: { id: messageId }, include: { thread: true } });
  if (message?.direction !== "inbound") return undefined;
  const employee = await prisma.employee.findFirst({
    where: { email: { equals: message.fromAddress, mode: "insensitive" } },
    select: { id: true, firstName: true },
  });
  return {
    message_id: message.id,
    case_id: message.thread.caseId,
    body: message.body,
    at: message.receivedAt ?? message.createdAt,
    employee_id: employee?.id ?? null,
    first_name: employee?.firstName ?? null,
  };
}
