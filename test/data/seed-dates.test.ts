// mock/ loaded "as of" a moment (the sandbox's first start, `db seed`): its story moves by whole days to
// end on that day, every date by the same offset, so its order and gaps hold and the cases it leaves
// waiting on riders are not overdue the day it is loaded. Seeding again later moves nothing. The moment is
// injected here; loaded without one, the dates stay as written (what the tests' template database holds).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedFolder } from "../../src/cases/seed-folder.js";
import { readFixtureDir } from "../../src/data/fixtures.js";
import { isReplyOverdue } from "../../src/domain/case-lifecycle.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";
import { MOCK_DIR } from "../support/fixtures.js";

const DAY_MS = 86_400_000;
const AS_OF = new Date("2027-06-15T12:00:00Z");
const written = readFixtureDir(MOCK_DIR, ["cases.json", "email_threads.json"]);

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  await seedFolder(db, MOCK_DIR, { asOf: AS_OF });
});
afterAll(async () => {
  await db.drop();
});

/** Each stored date minus the date mock/ writes for it. */
async function moves(): Promise<number[]> {
  const cases = await db.prisma.case.findMany();
  const messages = await db.prisma.message.findMany();
  return [
    ...written.cases.flatMap((c) => {
      const row = cases.find((r) => r.id === c.case_id)!;
      return [
        row.createdAt.getTime() - Date.parse(c.created_at),
        row.updatedAt.getTime() - Date.parse(c.updated_at),
        ...(c.resolved_at ? [row.resolvedAt!.getTime() - Date.parse(c.resolved_at)] : []),
      ];
    }),
    ...written.emailThreads.flatMap((t) =>
      t.messages.map((m) => {
        const row = messages.find((r) => r.id === m.message_id)!;
        return row.createdAt.getTime() - Date.parse(m.sent_at);
      }),
    ),
  ];
}

describe("mock/ seeded as of a moment", () => {
  it("moves every case and email date by the same whole number of days, ending on the day before that moment", async () => {
    const all = await moves();
    const offset = all[0]!;
    expect(new Set(all)).toEqual(new Set([offset]));
    expect(offset % DAY_MS).toBe(0);
    const latest = await db.prisma.message.aggregate({ _max: { createdAt: true } });
    const end = latest._max.createdAt!.getTime();
    expect(end).toBeLessThanOrEqual(AS_OF.getTime());
    expect(end).toBeGreaterThan(AS_OF.getTime() - DAY_MS);
  });

  it("leaves the cases last emailed within the week waiting, not overdue, on the day it is loaded", async () => {
    for (const vanpoolId of ["VP-114", "VP-115"]) {
      const row = await db.prisma.case.findFirstOrThrow({ where: { vanpoolId, status: "pending_reply" } });
      expect(isReplyOverdue(row.status, row.lastOutboundAt, AS_OF)).toBe(false);
      // As written, the same case was long overdue by then.
      const asWritten = written.emailThreads.find((t) => t.case_id === row.id)!.messages.at(0)!.sent_at;
      expect(isReplyOverdue(row.status, new Date(asWritten), AS_OF)).toBe(true);
    }
  });

  it("seeded again a month later, keeps the dates it was first stored with", async () => {
    const before = await moves();
    const again = await seedFolder(db, MOCK_DIR, { asOf: new Date(AS_OF.getTime() + 30 * DAY_MS) });
    expect(again.caseCounts).toEqual({
      cases: { added: 0, changed: 0 },
      emailThreads: { added: 0, changed: 0 },
      messages: { added: 0, changed: 0 },
    });
    expect(await moves()).toEqual(before);
  });
});
