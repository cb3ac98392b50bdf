// Employees as the emails need them: name and address.
import type { PrismaClient } from "./prisma.js";

export interface EmployeeContact {
  id: string;
  firstName: string;
  email: string;
}

export async function findEmployeeContacts(prisma: PrismaClient, ids: readonly string[]): Promise<EmployeeContact[]> {
  return prisma.employee.findMany({
    where: { id: { in: [...ids] } },
    orderBy: { id: "asc" },
    select: { id: true, firstName: true, email: true },
  });
}

export async function findEmployeeByEmail(prisma: PrismaClient, email: string): Promise<EmployeeContact | undefined> {
  const row = await prisma.employee.findFirst({
    where: { email: { equals: email.trim(), mode: "insensitive" } },
    select: { id: true, firstName: true, email: true },
  });
  return row ?? undefined;
}
