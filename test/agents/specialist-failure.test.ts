// A specialist that fails (its tool errors, the database drops out) has no verdict: the case goes to a person,
// never closed as if the check had passed.
import { afterEach, expect, it } from "vitest";
import { buildAppDeps } from "../../src/app/container.js";
import { createCaseWorkflow } from "../../src/cases/case-workflow.js";
import { seedFolder } from "../../src/cases/seed-folder.js";
import { parseSettings } from "../../src/config/settings.js";
import { findThreadForCase } from "../../src/data/email-repository.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";
import { failNextInsert, faultFired } from "../support/db-faults.js";
import { copyMockDir } from "../support/fixtures.js";

const REBECCA = "rebecca.hollis@northwind.example";
const databases: TestDatabase[] = [];
afterEach(async () => {
  for (const db of databases.splice(0)) await db.drop();
});

it("sends a case to a person when the re-audit's specialist fails, instead of closing it as passed", async () => {
  const db = await createTestDatabase();
  databases.push(db);
  const dir = copyMockDir((files) => {
    files["employees.json"]!.find((e) => e.employee_id === "EMP-1047").shift_id = "SHIFT_NIGHT";
  });
  await seedFolder(db, dir);
  let clock = new Date("2026-11-23T16:00:00Z");
  const deps = await buildAppDeps(db, parseSettings({}), { now: () => clock });
  const workflow = createCaseWorkflow(deps);
  const audit = await workflow.auditVanpool("VP-101");
  expect(audit.status).toBe("pending_reply");
  const thread = (await findThreadForCase(db.prisma, audit.case_id!))!;

  const sent = () => db.prisma.message.count({ where: { threadId: thread.thread_id, direction: "outbound" } });
  const sentBefore = await sent();
  await failNextInsert(db.prisma, { name: "shift_result", table: "specialist_results" });
  clock = new Date("2026-11-24T16:00:00Z");
  await workflow.receiveReply({ threadId: thread.thread_id, from: REBECCA, body: "Everything is correct as listed." });

  expect(await faultFired(db.prisma, "shift_result")).toBe(true);
  const record = await db.prisma.case.findUniqueOrThrow({ where: { id: audit.case_id! } });
  expect(record.status).toBe("hitl_review");
  // No "you're all set" to the rider on a check that never ran.
  expect(await sent()).toBe(sentBefore);
});
