import { describe, expect, it } from "vitest";
import { registerAppHome } from "../../../src/bot/listeners/events/app-home.js";
import { fakeBolt, fakeSlackContext, type SlackCall } from "../../support/fake-bolt.js";

describe("App Home", () => {
  it("publishes nothing when the Messages or About tab is opened (only Home has a view)", async () => {
    const calls: SlackCall[] = [];
    const bolt = fakeBolt(calls);
    const { ctx } = fakeSlackContext({ calls });
    const asked: string[] = [];
    registerAppHome(bolt.app, {
      ctx,
      isApprover: async (userId) => {
        asked.push(userId);
        return true;
      },
    });
    for (const tab of ["messages", "about"]) await bolt.event("app_home_opened", { user: "U0ALICE", tab });
    expect(calls).toEqual([]);
    expect(asked).toEqual([]);
  });
});
