// SLACK_CLIENT_ID and SLACK_CLIENT_SECRET turn on Sign in with Slack on the web pages: both, or neither.
import { describe, expect, it } from "vitest";
import { parseSettings, SettingsError } from "../../src/config/settings.js";

const bot = { SLACK_BOT_TOKEN: "xoxb-1", SLACK_SIGNING_SECRET: "s", POOLPATROL_AUDIT_CHANNEL: "C01" };

describe("Sign in with Slack settings", () => {
  it("is off without client credentials and on with both", () => {
    expect(parseSettings(bot).slack?.signIn).toBeUndefined();
    expect(parseSettings({ ...bot, SLACK_CLIENT_ID: "1.2", SLACK_CLIENT_SECRET: "abc" }).slack?.signIn).toEqual({
      clientId: "1.2",
      clientSecret: "abc",
    });
  });

  it.each([{ SLACK_CLIENT_ID: "1.2" }, { SLACK_CLIENT_SECRET: "abc" }])("refuses half of them (%o)", (half) => {
    expect(() => parseSettings({ ...bot, ...half })).toThrow(SettingsError);
    expect(() => parseSettings({ ...bot, ...half })).toThrow(/SLACK_CLIENT_ID and SLACK_CLIENT_SECRET/);
  });
});
