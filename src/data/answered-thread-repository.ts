// Threads the Case Manager answered outside case threads (an @mention's thread): the bot owns them,
// so a follow-up there is answered without a new mention.
import type { PrismaClient } from "./prisma.js";

export async function rememberAnsweredThread(prisma: PrismaClient, channel: string, threadTs: string): Promise<void> {
  await prisma.answeredThread.upsert({
    where: { channel_threadTs: { channel, threadTs } },
    create: { channel, threadTs },
    update: {},
  });
}

export async function answeredThread(prisma: PrismaClient, channel: string, threadTs: string): Promise<boolean> {
  return (await prisma.answeredThread.count({ where: { channel, threadTs } })) > 0;
}
