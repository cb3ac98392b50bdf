import { describe, expect, it } from "vitest";
import { createCaseMessages } from "../../../src/slack/case-messages.js";
import { COMMAND, registerPoolpatrolCommand } from "../../../src/slack/listeners/commands/poolpatrol.js";
import { fakeBolt, fakeSlackContext } from "../../support/fake-bolt.js";

function setUp(options: { approver?: boolean; restrictAudits?: boolean } = {}) {
  const bolt = fakeBolt();
  const { ctx, backgroundWork } = fakeSlackContext({ restrictAudits: options.restrictAudits });
  const digests: boolean[] = [];
  registerPoolpatrolCommand(bolt.app, {
    ctx,
    // The real one; the paths tested here never call it.
    messages: createCaseMessages(ctx),
    isApprover: async () => options.approver ?? true,
    postDigest: async (force) => {
      digests.push(force);
      return "Digest posted in #vanpool-audit.";
    },
    permalink: async () => "https://slack.example/archives/C0AUDIT/p1",
  });
  return { run: (text: string) => bolt.command(COMMAND, text), backgroundWork, digests };
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
    const { run, backgroundWork } = setUp();
    const { acks } = await run(text);
    expect(acks).toHaveLength(1);
    expect(textOf(acks[0])).toMatch(problem);
    expect(textOf(acks[0])).toContain("/poolpatrol help");
    expect(backgroundWork).toEqual([]);
  });

  it("refuses an audit by someone who is not an approver when audits are restricted", async () => {
    const { run, backgroundWork } = setUp({ approver: false });
    const { acks } = await run("audit VP-101");
    expect(textOf(acks[0])).toMatch(/Only approvers can start audits/);
    expect(backgroundWork).toEqual([]);
  });

  it("acks a digest at once and answers through respond when it is posted", async () => {
    const { run, backgroundWork, digests } = setUp();
    const { acks, responses } = await run("digest");
    expect(textOf(acks[0])).toBe("Posting the digest…");
    await Promise.all(backgroundWork);
    expect(digests).toEqual([true]);
    expect(responses).toEqual([{ response_type: "ephemeral", text: "Digest posted in #vanpool-audit." }]);
  });
});
