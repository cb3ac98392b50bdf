// The real Bolt app driven as Slack drives it: signed requests built from what the
// bot actually posted, answered by a fake Slack Web API. Each test starts from the mock data on a
// fresh database, app and fake Slack, and sets up the cases it needs itself.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseSettings } from "../../src/config/settings.js";
import { ALICE, AUDIT_CHANNEL, BOB, CAROL, type Harness, startHarness } from "../support/bot-harness.js";
import { exactDistancesIn, personalEmailsIn } from "../support/privacy.js";
import { actionButtonsOf, buttonOf } from "../support/slack/messages.js";
import { waitFor } from "../support/wait.js";

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  // Whatever a test made the bot post, no Slack call carried a home address or an exact distance.
  try {
    const addresses = (await h.db.prisma.employee.findMany({ select: { homeAddress: true } })).map(
      (e) => e.homeAddress,
    );
    const everything = JSON.stringify(h.fake.calls.map((c) => c.body));
    expect(addresses.filter((a) => everything.includes(a))).toEqual([]);
    expect(exactDistancesIn(everything)).toEqual([]);
  } finally {
    await h.close();
  }
});

const command = (user: string, text: string) =>
  h.fake.slashCommandBody({ command: "/poolpatrol", text, user_id: user, channel_id: AUDIT_CHANNEL });
async function audit(vanpoolId: string) {
  await h.post(command(ALICE, `audit ${vanpoolId}`));
  await h.bot.idle();
}
async function emailEscalation(vanpoolId: string, from: string, body: string) {
  const record = await h.db.prisma.case.findFirstOrThrow({ where: { vanpoolId, status: "pending_reply" } });
  const thread = await h.db.prisma.emailThread.findUniqueOrThrow({ where: { caseId: record.id } });
  await h.bot.ctx.workflow.receiveReply({ threadId: thread.id, from, body });
  await h.bot.idle(); // the reply queued a Slack sync: the card is in the thread
  return record.id;
}
/** Nine days on: every case still waiting for riders asks for a cancellation, and its card is posted. */
async function nineDaysLater() {
  await h.bot.ctx.workflow.tick(new Date(Date.now() + 9 * 86_400_000));
  await h.bot.idle();
}

describe("the Slack app", () => {
  describe("/poolpatrol audit", () => {
    it("acks at once, then posts the case alert in the audit channel and says where", async () => {
      const started = performance.now();
      const response = await h.post(command(ALICE, "audit VP-111"));
      const ackMs = performance.now() - started;
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ response_type: "ephemeral", text: "Auditing VP-111…" });
      expect(ackMs).toBeLessThan(3000);
      await h.bot.idle();
      const alert = h.alertOf("VP-111");
      expect(alert.text).toMatch(/VP-111 .*location check failed \(CASE-[0-9A-F]{16}, Waiting for riders\)/);
      expect(JSON.stringify(alert.blocks)).toContain("50-75 mi from the pickup (limit 50 mi)");
      const told = h.fake.responses().at(-1)!.body as { text: string };
      expect(told.text).toMatch(/CASE-[0-9A-F]{16} is Waiting for riders\. See the <.*\|case alert> in <#C0AUDIT>/);
    });

    it("never shows a home address or an exact distance in Slack", async () => {
      await audit("VP-111");
      const addresses = (await h.db.prisma.employee.findMany({ select: { homeAddress: true } })).map(
        (e) => e.homeAddress,
      );
      const everything = JSON.stringify(h.fake.calls.map((c) => c.body));
      expect(addresses.filter((a) => everything.includes(a))).toEqual([]);
      expect(exactDistancesIn(everything)).toEqual([]);
    });

    it.each([
      ["audit", /`audit` needs one vanpool id/],
      ["audit VP-999", /There is no vanpool VP-999/],
      ["frobnicate", /I don't know `frobnicate`/],
      ["status CASE-XYZ", /`status` needs a vanpool id/],
    ])("answers %j with what was wrong and the usage, and changes nothing", async (text, message) => {
      const before = await h.db.prisma.case.count();
      const response = await h.post(command(ALICE, text));
      const body = (await response.json()) as { text: string; response_type: string };
      expect(body.response_type).toBe("ephemeral");
      expect(body.text).toMatch(message);
      expect(body.text).toContain("/poolpatrol audit VP-101");
      expect(await h.db.prisma.case.count()).toBe(before);
    });

    it("keeps audits to approvers, reading open to everyone", async () => {
      await audit("VP-111");
      const refused = (await (await h.post(command(CAROL, "audit VP-113"))).json()) as { text: string };
      expect(refused.text).toMatch(/Only approvers can start audits/);
      const status = await h.command(CAROL, "status VP-111");
      expect(status.text).toMatch(/\*CASE-[0-9A-F]{16}\* \(VP-111\) is \*Waiting for riders\*/);
    });

    it("acks status before any lookup, then answers with a link to the case alert through the response URL", async () => {
      await audit("VP-111");
      const body = command(CAROL, "status VP-111");
      const permalinks = h.fake.callsTo("chat.getPermalink").length;
      const response = await h.post(body);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe("");
      const [answer] = h.fake.responses(new URLSearchParams(body).get("response_url")!);
      expect(answer!.body).toMatchObject({ response_type: "ephemeral" });
      expect((answer!.body as { text: string }).text).toMatch(/\(VP-111\) is \*Waiting for riders\*.*\|case alert>/);
      expect(h.fake.callsTo("chat.getPermalink")).toHaveLength(permalinks + 1);
    });

    it("rejects a request with a bad signature (401) and does nothing", async () => {
      const cases = await h.db.prisma.case.count();
      const body = command(ALICE, "audit VP-113");
      const response = await fetch(h.url, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          "x-slack-signature": "v0=deadbeef",
          "x-slack-request-timestamp": String(Math.floor(Date.now() / 1000)),
        },
        body,
      });
      expect(response.status).toBe(401);
      await h.bot.idle();
      expect(await h.db.prisma.case.count()).toBe(cases);
      expect(h.fake.responses(new URLSearchParams(body).get("response_url")!)).toEqual([]);
    });

    it("refuses a correctly signed request from more than five minutes ago or ahead (401) and does nothing", async () => {
      const runs = await h.db.prisma.verificationRun.count();
      const now = Math.floor(Date.now() / 1000);
      const statuses: number[] = [];
      for (const timestamp of [now + 6 * 60, now - 6 * 60]) {
        const body = command(ALICE, "audit VP-113");
        statuses.push((await h.post(body, { timestamp })).status);
        await h.bot.idle();
        expect(h.fake.responses(new URLSearchParams(body).get("response_url")!)).toEqual([]);
      }
      expect(statuses).toEqual([401, 401]);
      expect(await h.db.prisma.verificationRun.count()).toBe(runs);
      // Four minutes ahead is within the window (clocks drift): taken.
      expect((await h.post(command(ALICE, "help"), { timestamp: now + 4 * 60 })).status).toBe(200);
    });

    it("acks every command within Slack's 3 seconds while audits run", async () => {
      const timings = await Promise.all(
        ["VP-113", "VP-114", "VP-115", "VP-102", "VP-103"].map(async (id) => {
          const started = performance.now();
          const response = await h.post(command(BOB, `audit ${id}`));
          expect(response.status).toBe(200);
          return performance.now() - started;
        }),
      );
      await h.bot.idle();
      expect(Math.max(...timings)).toBeLessThan(3000);
      console.info(
        `ack latency for 5 concurrent audits: max ${Math.max(...timings).toFixed(0)} ms, mean ${(timings.reduce((a, b) => a + b) / timings.length).toFixed(0)} ms`,
      );
    });
  });

  describe("approval cards", () => {
    it("escalation: card in the thread, Edit opens the prefilled modal, submitting sends the edited email and updates the card", async () => {
      await audit("VP-111");
      const caseId = await emailEscalation(
        "VP-111",
        "wendell.ashby@northwind.example",
        "This is ridiculous and I want to talk to a manager.",
      );
      const alert = h.alertOf("VP-111");
      const card = h.cardWith("VP-111", "edit_escalation_reply");
      expect(card.text).toMatch(/Reply from EMP-1028 \(Wendell\) on CASE-[0-9A-F]{16} needs review/);
      expect(personalEmailsIn(JSON.stringify(card.blocks))).toEqual([]);
      expect(actionButtonsOf(card).map((b) => b.value)).toEqual(Array(3).fill(actionButtonsOf(card)[0]!.value));
      // The request and the version of the evidence and draft the card shows.
      expect(actionButtonsOf(card)[0]!.value).toMatch(/^APR-[0-9A-F]{16} [0-9a-f]{12}$/);

      expect((await h.click(ALICE, card, "edit_escalation_reply")).status).toBe(200);
      const modal = h.fake.views(ALICE).at(-1)!;
      // Opened at once while loading, then filled with the draft.
      expect(h.fake.viewHistory(modal.id).map((v) => JSON.stringify(v.blocks).includes("Loading…"))).toEqual([
        true,
        false,
      ]);
      expect(modal).toMatchObject({ title: { text: "Edit reply" }, submit: { text: "Send" } });
      expect(JSON.stringify(modal.blocks)).toContain("A member of the vanpool program team is reviewing your case");
      const edited =
        "Hi Wendell, I'm sorry about the confusion. A coordinator will call you tomorrow; nothing changes meanwhile.";
      expect(
        (await h.post(h.fake.viewSubmissionPayload({ user: { id: ALICE }, view: modal, values: { body: edited } })))
          .status,
      ).toBe(200);
      await h.bot.idle();

      const sent = await h.db.prisma.message.findFirstOrThrow({
        where: { idempotencyKey: { startsWith: "approval:" }, thread: { caseId } },
      });
      expect(sent).toMatchObject({ body: edited, status: "sent", toAddresses: ["wendell.ashby@northwind.example"] });
      const updated = h.fake.thread(AUDIT_CHANNEL, alert.ts).find((m) => m.ts === card.ts)!;
      expect(actionButtonsOf(updated)).toEqual([]);
      expect(JSON.stringify(updated.blocks)).toMatch(/Edited\* by <@U0ALICE>/);
      expect(
        h.fake
          .thread(AUDIT_CHANNEL, alert.ts)
          .some((m) =>
            /<@U0ALICE> edited the drafted reply\. (Email sent to|The email to) EMP-1028/.test(String(m.text)),
          ),
      ).toBe(true);
    });

    it("double and concurrent clicks decide once; the others hear who decided first", async () => {
      await audit("VP-109");
      await emailEscalation("VP-109", "kyle.jorgensen@northwind.example", "This is unfair. Who reported me??");
      const card = h.cardWith("VP-109", "approve_escalation_reply");
      const before = await h.db.prisma.message.count({ where: { direction: "outbound", status: "sent" } });
      await Promise.all([
        h.click(ALICE, card, "approve_escalation_reply"),
        h.click(BOB, card, "approve_escalation_reply"),
      ]);
      await h.click(ALICE, card, "approve_escalation_reply");
      expect(await h.db.prisma.message.count({ where: { direction: "outbound", status: "sent" } })).toBe(before + 1);
      const refusals = [...h.fake.ephemerals(ALICE), ...h.fake.ephemerals(BOB)].filter((e) =>
        /^Already approved by <@U0(ALICE|BOB)> <!date\^/.test(String(e.message.text)),
      );
      expect(refusals.length).toBe(2);
    });

    it("cancellation: a non-approver is refused and audited; after a restart an approver's click removes the rider", async () => {
      await audit("VP-102");
      await nineDaysLater();
      const record = await h.db.prisma.case.findFirstOrThrow({ where: { vanpoolId: "VP-102", status: "pre_cancel" } });
      await h.bot.messages.syncCase(record.id);
      const card = h.cardWith("VP-102", "remove_rider:EMP-1065");
      expect(buttonOf(card, "remove_rider:EMP-1065").confirm).toMatchObject({ confirm: { text: "Yes, remove" } });

      await h.click(CAROL, card, "remove_rider:EMP-1065");
      expect(h.fake.ephemerals(CAROL).at(-1)!.message.text).toBe(
        "Only approvers can decide this. Nothing was changed.",
      );
      expect(
        await h.db.prisma.auditEvent.count({
          where: { action: "approval.refused_not_approver", actor: `slack:${CAROL}` },
        }),
      ).toBe(1);
      expect((await h.db.prisma.case.findUniqueOrThrow({ where: { id: record.id } })).status).toBe("pre_cancel");

      await h.restart();
      for (const other of ((record.meta as { flagged?: string[] }).flagged ?? []).filter((id) => id !== "EMP-1065"))
        await h.keep(BOB, card, other);
      await h.click(BOB, card, "remove_rider:EMP-1065");
      await waitFor(
        `${record.id} to be cancelled`,
        async () => (await h.db.prisma.case.findUniqueOrThrow({ where: { id: record.id } })).status === "cancelled",
      );
      expect(await h.db.prisma.case.findUniqueOrThrow({ where: { id: record.id } })).toMatchObject({
        status: "cancelled",
        outcome: "cancelled",
      });
      expect(
        await h.db.prisma.rider.count({ where: { vanpoolId: "VP-102", employeeId: "EMP-1065", status: "active" } }),
      ).toBe(0);
      const updated = h.fake.find((m) => m.ts === card.ts)!;
      expect(JSON.stringify(updated.blocks)).toMatch(/Approved\* by <@U0BOB>/);
      expect(JSON.stringify(updated.blocks)).toMatch(/Removed\*: decided by <@U0BOB>/);
    });
  });

  describe("digest and App Home", () => {
    it("posts one digest per scheduled slot with two instances firing at different minutes", async () => {
      const { createSlackApp } = await import("../../src/bot/app.js");
      const { startJobEngine } = await import("../../src/queue/engine.js");
      const { startBotJobs } = await import("../../src/app/bot-jobs.js");
      const { QUEUE_OPTIONS } = await import("../../src/queue/queues.js");
      const jobs = await startJobEngine({
        databaseUrl: h.db.url,
        log: () => {},
        pollingIntervalSeconds: 0.5,
        queues: QUEUE_OPTIONS,
      });
      const deps = { ...h.deps, jobs };
      const second = await createSlackApp({ slack: h.slack, deps, jobs, retries: 0, channelIntervalMs: 0 });
      const secondClock = await startBotJobs(second, jobs, parseSettings({}));
      const before = h.fake.messages(AUDIT_CHANNEL).filter((m) => /Pool Patrol digest/.test(String(m.text))).length;
      // The 09:00 Los Angeles slot of Monday 2026-11-23: one instance fires on time, the other 3 minutes late.
      const fired = await Promise.all([
        h.clock.fireDigest(new Date("2026-11-23T17:00:04Z")),
        secondClock.fireDigest(new Date("2026-11-23T17:03:41Z")),
      ]);
      expect(fired.filter(Boolean)).toHaveLength(1);
      await Promise.all([h.bot.idle(), second.idle()]);
      const digests = h.fake.messages(AUDIT_CHANNEL).filter((m) => /Pool Patrol digest/.test(String(m.text)));
      expect(digests.length).toBe(before + 1);
      expect(JSON.stringify(digests.at(-1)!.blocks)).toMatch(/Automation rate/);
      // A retried digest job for the same slot posts nothing more.
      expect(await second.digest.post(false, "scheduled:2026-11-23T17:00:00.000Z")).toMatch(/already posted/);
      secondClock.stop();
      await jobs.stop();
    });

    it("shows flagged vanpools first and the viewer's pending approvals with buttons", async () => {
      await audit("VP-102");
      await nineDaysLater(); // overdue cases ask for cancellations
      await h.post(
        h.fake.eventCallbackBody({
          event: { type: "app_home_opened", user: ALICE, channel: "D0ALICE", tab: "home", event_ts: "1.0" },
        }),
      );
      await h.bot.idle();
      const home = JSON.stringify(h.fake.home(ALICE)!.blocks);
      expect(home).toMatch(/Waiting for you \(\d+\)/);
      expect(home).toMatch(/approve_escalation_reply|remove_rider:APR-/);
      expect(home.indexOf("Flagged")).toBeGreaterThan(-1);
      await h.post(
        h.fake.eventCallbackBody({
          event: { type: "app_home_opened", user: CAROL, channel: "D0CAROL", tab: "home", event_ts: "1.0" },
        }),
      );
      await h.bot.idle();
      expect(JSON.stringify(h.fake.home(CAROL)!.blocks)).not.toMatch(/approve_(escalation_reply|cancellation)/);
    });
  });

  describe("waiting approvals", () => {
    it("get one reminder in their thread, then expire without ever counting as a decision", async () => {
      await audit("VP-111");
      await audit("VP-102");
      await nineDaysLater(); // every waiting request now has its card
      const minute = (n: number) => new Date(Date.now() + n * 60_000);
      const [first, second] = await h.db.prisma.approvalRequest.findMany({
        where: { status: "pending", slackTs: { not: null } },
        orderBy: { createdAt: "asc" },
        take: 2,
      });
      await h.db.prisma.approvalRequest.update({
        where: { id: first!.id },
        data: { createdAt: new Date(Date.now() - 30 * 3_600_000) },
      });
      await h.db.prisma.approvalRequest.update({
        where: { id: second!.id },
        data: { createdAt: new Date(Date.now() - 80 * 3_600_000) },
      });
      await h.clock.fireApprovals(minute(1));
      await h.bot.idle();
      await h.clock.fireApprovals(minute(2)); // a second pass reminds no one twice
      await h.bot.idle();
      const reminders = h.fake.calls.filter(
        (c) => c.method === "chat.postMessage" && String(c.body.text).startsWith(`⏰ Reminder: ${first!.id}`),
      );
      expect(reminders).toHaveLength(1);
      const expired = await h.db.prisma.approvalRequest.findUniqueOrThrow({ where: { id: second!.id } });
      expect(expired).toMatchObject({ status: "expired", decidedBy: "system" });
      expect((await h.db.prisma.case.findUniqueOrThrow({ where: { id: second!.caseId } })).status).toBe("pre_cancel");
      const card = h.fake.find((m) => m.ts === second!.slackTs)!;
      expect(JSON.stringify(card.blocks)).toContain("Expired without a decision");
      expect(actionButtonsOf(card)).toEqual([]);
    });
  });
});
