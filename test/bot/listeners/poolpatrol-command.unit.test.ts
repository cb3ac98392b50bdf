import { describe, expect, it } from "vitest";
import { COMMAND, registerPoolpatrolCommand } from "../../../src/bot/listeners/commands/poolpatrol.js";
import { createCaseMessages } from "../../../src/slack/case-messages.js";
import { fakeBolt, fakeSlackContext } from "../../support/fake-bolt.js";

function setUp(options: { approver?: boolean; restrictAudits?: boolean } = {}) {
  const bolt = fakeBolt();
  const { ctx, queued } = fakeSlackContext({ restrictAudits: options.restrictAudits });
  registerPoolpatrolCommand(bolt.app, {
    ctx,
    // The real one; the paths tested here never call it.
    messages: createCaseMessages(ctx),
    isApprover: async () => options.approver ?? true,
    permalink: async () => "https://slack.example/archives/C0AUDIT/p1",
  });
  return { run: (text: string) => bolt.command(COMMAND, text), queued };
}

const textOf = (message: unknown) => (message as { text: string }).text;

describe("/poolpatrol, with a fake ack and respond", () => {
  it("answers help (and an empty command) with the usage, privately, in the ack", async () => {
    const { run } = setUp();
    for (const text of ["help", ""]) {
      const { acks, responses } = await run(text);
      expect(acks).toHaveLength(1);
      expect(acks[0]).toMatchObject({ response_type: "ephemeral" });
      expect(textOf(acks[0])).toContain("/poolpatrol audit VP-101");
      expect(responses).toEqual([]);
    }
  });

  it.each([
    ["frobnicate", /I don't know `frobnicate`/],
    ["audit", /`audit` needs one vanpool id/],
    ["audit VP-1 VP-2", /`audit` needs one vanpool id/],
    ["audit bogus", /`audit` needs one vanpool id/],
    ["status", /`status` needs a vanpool id \(VP-101\) or a case id/],
    ["status CASE-12", /`status` needs a vanpool id/],
    ["cases nonsense", /I don.t know the status `nonsense`\. Try one of: waiting, needs a person/],
  ])("refuses `%s` in the ack, with the usage, before touching anything", async (text, problem) => {
    const { run, queued } = setUp();
    const { acks } = await run(text);
    expect(acks).toHaveLength(1);
    expect(textOf(acks[0])).toMatch(problem);
    expect(textOf(acks[0])).toContain("/poolpatrol help");
    expect(queued).toEqual([]);
  });

  it("refuses an audit by someone who is not an approver when audits are restricted", async () => {
    const { run, queued } = setUp({ approver: false });
    const { acks } = await run("audit VP-101");
    expect(textOf(acks[0])).toMatch(/Only approvers can start audits/);
    expect(queued).toEqual([]);
  });

  it("queues the digest before acking it; its job answers through the response URL", async () => {
    const { run, queued } = setUp();
    const { acks, responses } = await run("digest");
    expect(textOf(acks[0])).toBe("Posting the digest…");
    expect(queued.map((q) => q.data)).toEqual([
      { kind: "digest", responseUrl: "https://hooks.slack.example/commands/1", key: "T0TRIGGER" },
    ]);
    expect(responses).toEqual([]);
  });
});
