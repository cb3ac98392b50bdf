import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendCaseEmail } from "../../src/integrations/email/email-service.js";
import { resendSender } from "../../src/integrations/email/resend-sender.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";
import { type ResendStub, startResendStub } from "../support/resend-stub.js";

let stub: ResendStub;
let db: TestDatabase;
beforeAll(async () => {
  stub = await startResendStub();
  db = await createTestDatabase({ mockData: true });
});
afterAll(async () => {
  await stub.close();
  await db.drop();
});

describe("email through Resend", () => {
  const email = (key: string) => ({
    caseId: "CASE-0A1B2C3D",
    vanpoolId: "VP-102",
    to: ["maribel.quintero@northwind.example"],
    subject: "Vanpool eligibility review for VP-102",
    body: "Hi Maribel,\n\nPlease check your address.",
    idempotencyKey: key,
    actor: "test",
    now: new Date("2026-11-23T16:00:00Z"),
  });

  it("sends once per idempotency key, with the key passed to Resend", async () => {
    const caseRow = await db.prisma.case.findFirstOrThrow({ where: { vanpoolId: "VP-102" } });
    const deps = {
      prisma: db.prisma,
      sender: resendSender({ apiKey: "re_test_key", baseUrl: stub.baseUrl }),
      from: "Pool Patrol <pool-patrol@northwind.example>",
      inboundAddress: "replies@inbound.northwind.example",
    };
    const first = await sendCaseEmail(deps, { ...email("case-1:initial"), caseId: caseRow.id });
    const again = await sendCaseEmail(deps, { ...email("case-1:initial"), caseId: caseRow.id });
    expect(again).toMatchObject({ alreadySent: true, message: { message_id: first.message.message_id } });
    // The stub is shared by the file's tests: count the sends with this key.
    const sends = stub.sent.filter((s) => s.idempotencyKey === "case-1:initial");
    expect(sends).toHaveLength(1);
    expect(sends[0]).toMatchObject({
      idempotencyKey: "case-1:initial",
      body: { to: ["maribel.quintero@northwind.example"], text: expect.stringContaining("Hi Maribel") },
    });
  });

  it("keeps a refused email unsent, then sends it on retry with the same key", async () => {
    const caseRow = await db.prisma.case.findFirstOrThrow({ where: { vanpoolId: "VP-102" } });
    const deps = {
      prisma: db.prisma,
      sender: resendSender({ apiKey: "re_test_key", baseUrl: stub.baseUrl }),
      from: "pool-patrol@northwind.example",
      inboundAddress: "replies@inbound.northwind.example",
    };
    stub.failNext(500, "temporary outage");
    await expect(sendCaseEmail(deps, { ...email("case-1:follow_up"), caseId: caseRow.id })).rejects.toThrow(
      /500 temporary outage/,
    );
    expect((await db.prisma.message.findUniqueOrThrow({ where: { idempotencyKey: "case-1:follow_up" } })).status).toBe(
      "queued",
    );
    await sendCaseEmail(deps, { ...email("case-1:follow_up"), caseId: caseRow.id });
    expect((await db.prisma.message.findUniqueOrThrow({ where: { idempotencyKey: "case-1:follow_up" } })).status).toBe(
      "sent",
    );
    expect(stub.sent.filter((s) => s.idempotencyKey === "case-1:follow_up")).toHaveLength(1);
  });
});
