// `/poolpatrol exceptions` in Slack (docs/exceptions.md): the riders kept while they fail, privately, with a
// Revoke button (behind a confirm) for approvers. A non-approver's click and a tampered value are refused and
// change nothing; an approver's revoke ends the exception and the list is shown again without it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExceptions } from "../../src/cases/exceptions.js";
import { REVOKE_EXCEPTION } from "../../src/slack/blocks/exceptions.js";
import { ALICE, AUDIT_CHANNEL, CAROL, type Harness, startHarness } from "../support/bot-harness.js";
import { buttonOf, buttonsOf } from "../support/slack/messages.js";

const WENDELL = "EMP-1028";
let h: Harness;
let exceptionId: string;

beforeAll(async () => {
  h = await startHarness();
  await h.audit("VP-111");
  const open = await h.db.prisma.case.findFirstOrThrow({ where: { vanpoolId: "VP-111" } });
  const [granted] = await createExceptions(h.deps).grantForKept({
    caseId: open.id,
    employeeIds: [WENDELL],
    actor: ALICE,
    decision: "keep",
    choice: { reason: "moving_soon", note: "Moves to Sacramento in March." },
  });
  exceptionId = granted!.exception_id;
});
afterAll(async () => {
  await h.close();
});

/** The private answer `user` last got in the audit channel. */
const lastPrivate = (user: string) => h.fake.ephemerals(user).at(-1)!.message;
/** What the bot last answered through a response URL. */
const lastAnswer = () => String((h.fake.responses().at(-1)!.body as { text: string }).text);
const live = () => h.db.prisma.riderException.count({ where: { id: exceptionId, revokedAt: null } });

/** A signed click on the Revoke button of Alice's list, as `user`, carrying `value` (a tampered one when told). */
async function revokeClick(user: string, value: string) {
  const list = h.fake
    .ephemerals(ALICE)
    .map((e) => e.message)
    .findLast((m) => buttonsOf(m).some((b) => b.action_id === REVOKE_EXCEPTION))!;
  const form = new URLSearchParams(
    h.fake.blockActionPayload({
      user: { id: ALICE },
      channel: AUDIT_CHANNEL,
      message: list,
      action: { ...buttonOf(list, REVOKE_EXCEPTION) },
    }),
  );
  const payload = JSON.parse(form.get("payload")!);
  payload.user = { ...payload.user, id: user, username: user.toLowerCase(), name: user.toLowerCase() };
  payload.actions[0].value = value;
  form.set("payload", JSON.stringify(payload));
  const response = await h.post(form.toString());
  await h.bot.idle();
  return response;
}

describe("/poolpatrol exceptions", { shuffle: false }, () => {
  it("lists the exception for anyone, in words, with Revoke only for approvers", async () => {
    const carol = await h.command(CAROL, "exceptions");
    expect(carol.response_type).toBe("ephemeral");
    expect(carol.text).toMatch(/Riders kept while they fail a check \(1\)/);
    const carolList = lastPrivate(CAROL);
    expect(JSON.stringify(carolList.blocks)).toMatch(
      /EMP-1028 on VP-111 \(location\): kept by <@U0ALICE> until .* \(moving soon\)/,
    );
    expect(JSON.stringify(carolList.blocks)).toMatch(/Only approvers can revoke/);
    expect(buttonsOf(carolList)).toHaveLength(0);

    await h.command(ALICE, "exceptions");
    const revoke = buttonOf(lastPrivate(ALICE), REVOKE_EXCEPTION);
    expect(revoke.value).toBe(exceptionId);
    expect(revoke.confirm?.title?.text).toBe("Revoke this exception?");
  });

  it("refuses a non-approver's forged click and a tampered value: the exception still holds", async () => {
    expect((await revokeClick(CAROL, exceptionId)).status).toBe(200);
    expect(await live()).toBe(1);
    expect(lastAnswer()).toBe("Only approvers can revoke an exception. Nothing was changed.");
    expect(await h.db.prisma.auditEvent.count({ where: { action: "exception.refused_not_approver" } })).toBe(1);

    for (const tampered of ["EXC-0000000000000000", "DROP TABLE", ""]) {
      expect((await revokeClick(ALICE, tampered)).status).toBe(200);
      expect(lastAnswer()).toMatch(/Nothing was changed/);
    }
    expect(await live()).toBe(1);
  });

  it("an approver revokes it: the list shows it revoked and holds nothing more", async () => {
    await h.command(ALICE, "exceptions");
    await revokeClick(ALICE, exceptionId);
    expect(await live()).toBe(0);
    const row = await h.db.prisma.riderException.findUniqueOrThrow({ where: { id: exceptionId } });
    expect(row.revokedBy).toBe(ALICE);
    const refreshed = lastPrivate(ALICE);
    expect(String(refreshed.text)).toMatch(/^Revoked: EMP-1028 on VP-111 \(location\)/);
    expect(JSON.stringify(refreshed.blocks)).toMatch(/No exceptions hold/);
    expect(buttonsOf(refreshed)).toHaveLength(0);

    // A second click on the old list changes nothing and says so.
    await h.command(ALICE, "exceptions");
    expect(String(lastPrivate(ALICE).text)).toBe("No exceptions hold: every failing rider is audited normally.");
  });
});
