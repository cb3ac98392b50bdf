// Vanpool membership of riders.
import type { PrismaClient } from "./prisma.js";

/** Puts removed riders back on their vanpool; returns how many were reinstated. */
export async function reinstateRiders(
  prisma: PrismaClient,
  vanpoolId: string,
  employeeIds: readonly string[],
): Promise<number> {
  const { count } = await prisma.rider.updateMany({
    where: { vanpoolId, employeeId: { in: [...employeeIds] }, status: "removed" },
    data: { status: "active", removedAt: null, removedReason: null },
  });
  return count;
}
