// The sandbox's local Slack workspace, stored whole as one JSON document per workspace.
import type { Prisma, PrismaClient } from "./prisma.js";

export async function loadSandboxWorkspace(prisma: PrismaClient, id: string): Promise<unknown> {
  const row = await prisma.sandboxWorkspace.findUnique({ where: { id } });
  return row?.state ?? undefined;
}

export async function saveSandboxWorkspace(prisma: PrismaClient, id: string, state: unknown): Promise<void> {
  const json = state as Prisma.InputJsonValue;
  await prisma.sandboxWorkspace.upsert({ where: { id }, create: { id, state: json }, update: { state: json } });
}
