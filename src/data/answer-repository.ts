// The Case Manager's answers as posted, with the facts they were built from, and the 👍/👎 people give
// them: a 👎's correction becomes a `question` eval example (`poolpatrol eval export-feedback`).

import type { AnswerFact, CorrectionInput } from "../domain/feedback-dataset.js";
import { newId } from "../domain/ids.js";
import type { Prisma, PrismaClient } from "./prisma.js";

export interface AnswerInput {
  postKey: string;
  channel: string;
  threadTs: string | undefined;
  conversationId: string;
  caseId: string | null;
  vanpoolId: string | null;
  question: string;
  answer: string;
  facts: AnswerFact[];
  askedBy: string;
  askerIsApprover: boolean;
  askedAt: Date;
}

/** Stores the answer about to be posted under `postKey` (a retry's answer replaces it); its id for the buttons. */
export async function recordAnswer(prisma: PrismaClient, input: AnswerInput): Promise<string> {
  const { postKey, facts, threadTs, ...rest } = input;
  const data = { ...rest, threadTs: threadTs ?? null, facts: facts as unknown as Prisma.InputJsonValue };
  const row = await prisma.caseAnswer.upsert({
    where: { postKey },
    create: { id: newId("answer"), postKey, ...data },
    update: data,
    select: { id: true },
  });
  return row.id;
}

export interface StoredAnswer {
  id: string;
  postKey: string;
  channel: string;
  threadTs: string | null;
  caseId: string | null;
  question: string;
  answer: string;
}

export async function findAnswer(prisma: PrismaClient, id: string): Promise<StoredAnswer | undefined> {
  const row = await prisma.caseAnswer.findUnique({
    where: { id },
    select: {
      id: true,
      postKey: true,
      channel: true,
      threadTs: true,
      caseId: true,
      question: true,
      answer: true,
    },
  });
  return row ?? undefined;
}

export interface FeedbackInput {
  answerId: string;
  userId: string;
  userName: string;
  rating: "up" | "down";
  correction?: string;
  mustInclude?: string[];
}

/** A person's feedback on an answer; their later feedback on the same answer replaces it. */
export async function recordFeedback(prisma: PrismaClient, input: FeedbackInput): Promise<void> {
  const { answerId, userId, ...rest } = input;
  const data = { ...rest, correction: rest.correction ?? null, mustInclude: rest.mustInclude ?? [] };
  await prisma.answerFeedback.upsert({
    where: { answerId_userId: { answerId, userId } },
    create: { answerId, userId, ...data },
    update: data,
  });
}

/** Every 👎 with a correction, oldest first. */
export async function listCorrections(prisma: PrismaClient): Promise<CorrectionInput[]> {
  const rows = await prisma.answerFeedback.findMany({
    where: { rating: "down", correction: { not: null } },
    orderBy: { createdAt: "asc" },
    include: { answer: true },
  });
  const corrections: CorrectionInput[] = [];
  for (const row of rows) {
    const a = row.answer;
    const earlier = await prisma.caseAnswer.findMany({
      where: { conversationId: a.conversationId, askedAt: { lt: a.askedAt } },
      orderBy: { askedAt: "asc" },
      select: { question: true },
    });
    corrections.push({
      answerId: a.id,
      question: a.question,
      answer: a.answer,
      correction: row.correction ?? "",
      mustInclude: row.mustInclude,
      facts: a.facts as unknown as AnswerFact[],
      caseId: a.caseId,
      vanpoolId: a.vanpoolId,
      askerIsApprover: a.askerIsApprover,
      askedAt: a.askedAt,
      earlier: earlier.map((e) => e.question),
      correctedBy: row.userName,
      correctedAt: row.updatedAt,
    });
  }
  return corrections;
}
