// Employees by id, as conversations name them: names, city and ZIP, shift name; the
// email address only to match a rider's replies, never to show.
import type { PrismaClient } from "./prisma.js";

export interface Person {
  employee_id: string;
  first_name: string;
  last_name: string;
  email: string;
  home_city: string;
  home_zip: string;
  shift_name: string | null;
}

/** An employee row (with its shift's name) as the conversation reads a person. */
function toPerson(r: {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  homeCity: string;
  homeZip: string;
  shift: { name: string } | null;
}): Person {
  return {
    employee_id: r.id,
    first_name: r.firstName,
    last_name: r.lastName,
    email: r.email,
    home_city: r.homeCity,
    home_zip: r.homeZip,
    shift_name: r.shift?.name ?? null,
  };
}

export async function findPeople(prisma: PrismaClient, ids: string[]): Promise<Person[]> {
  const rows = await prisma.employee.findMany({
    where: { id: { in: ids } },
    include: { shift: { select: { name: true } } },
    orderBy: { id: "asc" },
  });
  return rows.map(toPerson);
}

/** Riders of a vanpool, active or removed (a cancelled case still names its riders). */
export async function findRiderIds(prisma: PrismaClient, vanpoolId: string): Promise<string[]> {
  const rows = await prisma.rider.findMany({ where: { vanpoolId }, select: { employeeId: true } });
  return rows.map((r) => r.employeeId);
}

/** Employees whose first or last name is one of `words` (any case), with the vanpools they ride. */
export async function findPeopleNamed(
  prisma: PrismaClient,
  words: string[],
  /** Words that may begin a first name ("dan" for Daniel and Danielle). */
  stubs: string[] = [],
): Promise<(Person & { vanpool_ids: string[] })[]> {
  if (words.length === 0 && stubs.length === 0) return [];
  const names = words.map((w) => ({ equals: w, mode: "insensitive" as const }));
  const starts = stubs.map((w) => ({ firstName: { startsWith: w, mode: "insensitive" as const } }));
  const rows = await prisma.employee.findMany({
    where: { OR: [...names.map((n) => ({ firstName: n })), ...names.map((n) => ({ lastName: n })), ...starts] },
    include: { shift: { select: { name: true } }, riders: { select: { vanpoolId: true } } },
    orderBy: { id: "asc" },
    take: 10,
  });
  return rows.map((r) => ({ ...toPerson(r), vanpool_ids: r.riders.map((x) => x.vanpoolId) }));
}
