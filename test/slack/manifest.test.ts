// manifest.json must create an app that delivers everything the code listens to,
// and ask for nothing it does not use.
import fs from "node:fs";
import path from "node:path";
import { App } from "@slack/bolt";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../src/config/settings.js";
import { startHarness } from "../support/bot-harness.js";

const manifest = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, "manifest.json"), "utf8"));

/** Slack event types a "message" listener needs, by conversation type the bot works in (channels, private channels, DMs). */
const MESSAGE_EVENTS = ["message.channels", "message.groups", "message.im"];
/** The scope each subscribed event needs. */
const EVENT_SCOPES: Record<string, string> = {
  "message.channels": "channels:history",
  "message.groups": "groups:history",
  "message.im": "im:history",
  app_mention: "app_mentions:read",
  assistant_thread_started: "assistant:write",
  assistant_thread_context_changed: "assistant:write",
};

describe("manifest.json", () => {
  it("matches the commands, events and interactivity the app registers", async () => {
    const registered = { commands: new Set<string>(), events: new Set<string>(), actions: 0, views: 0 };
    const originals = {
      command: App.prototype.command,
      event: App.prototype.event,
      action: App.prototype.action,
      view: App.prototype.view,
    };
    App.prototype.command = function (this: App, name: unknown, ...rest: unknown[]) {
      registered.commands.add(String(name));
      return (originals.command as (...a: unknown[]) => unknown).call(this, name, ...rest);
    } as never;
    App.prototype.event = function (this: App, name: unknown, ...rest: unknown[]) {
      registered.events.add(String(name));
      return (originals.event as (...a: unknown[]) => unknown).call(this, name, ...rest);
    } as never;
    App.prototype.action = function (this: App, ...args: unknown[]) {
      registered.actions++;
      return (originals.action as (...a: unknown[]) => unknown).apply(this, args);
    } as never;
    App.prototype.view = function (this: App, ...args: unknown[]) {
      registered.views++;
      return (originals.view as (...a: unknown[]) => unknown).apply(this, args);
    } as never;
    const h = await startHarness();
    Object.assign(App.prototype, originals);
    try {
      expect(manifest.features.slash_commands.map((c: { command: string }) => c.command).sort()).toEqual(
        [...registered.commands].sort(),
      );
      const expectedEvents = [...registered.events].flatMap((e) => (e === "message" ? MESSAGE_EVENTS : [e])).sort();
      expect([...manifest.settings.event_subscriptions.bot_events].sort()).toEqual(expectedEvents);
      expect(registered.actions).toBeGreaterThan(0);
      expect(registered.views).toBeGreaterThan(0);
      expect(manifest.settings.interactivity.is_enabled).toBe(true);
      expect(manifest.features.app_home.home_tab_enabled).toBe(registered.events.has("app_home_opened"));
      // People can write to the bot in its Messages tab: direct messages are a way of asking.
      expect(manifest.features.app_home.messages_tab_read_only_enabled).toBe(false);
      expect(manifest.settings.socket_mode_enabled).toBe(true);
      expect(manifest.features.slash_commands[0].usage_hint).toMatch(/audit VP-101/);
    } finally {
      await h.close();
    }
  });

  it("asks for the scopes of the Web API methods the app calls, and no others", () => {
    const methods = new Set<string>();
    const files = ["slack", "bot"].flatMap((dir) =>
      (fs.readdirSync(path.join(PROJECT_ROOT, "src", dir), { recursive: true }) as string[]).map((file) =>
        path.join(PROJECT_ROOT, "src", dir, file),
      ),
    );
    for (const file of files) {
      if (!file.endsWith(".ts")) continue;
      const source = fs.readFileSync(file, "utf8");
      for (const m of source.matchAll(
        /client\.((?:chat|views|conversations|usergroups|users|reactions|assistant)\.[a-zA-Z]+(?:\.[a-zA-Z]+)?)\(/g,
      ))
        methods.add(m[1]!);
      // The SDK's files.uploadV2 (getUploadURLExternal, the upload, completeUploadExternal).
      if (source.includes(".filesUploadV2(")) methods.add("files.uploadV2");
    }
    const needs: Record<string, string[]> = {
      "chat.postMessage": ["chat:write", "im:write"],
      "chat.update": ["chat:write"],
      "chat.startStream": ["chat:write"],
      "chat.appendStream": ["chat:write"],
      "chat.stopStream": ["chat:write"],
      "assistant.threads.setStatus": ["chat:write"],
      "assistant.threads.setSuggestedPrompts": ["assistant:write"],
      "chat.postEphemeral": ["chat:write"],
      "chat.getPermalink": [],
      "views.open": [],
      "views.update": [],
      "views.publish": [],
      "conversations.history": ["channels:history", "groups:history"],
      "conversations.replies": ["channels:history", "groups:history"],
      "conversations.members": ["channels:read", "groups:read"],
      "usergroups.users.list": ["usergroups:read"],
      "users.info": ["users:read"],
      "files.uploadV2": ["files:write"],
    };
    const unknown = [...methods].filter((m) => !(m in needs));
    expect(unknown).toEqual([]);
    const eventScopes = (manifest.settings.event_subscriptions.bot_events as string[]).flatMap((e) =>
      EVENT_SCOPES[e] ? [EVENT_SCOPES[e]] : [],
    );
    const required = new Set([...methods].flatMap((m) => needs[m]!).concat("commands", "users:read", ...eventScopes));
    expect([...manifest.oauth_config.scopes.bot].sort()).toEqual([...required].sort());
    // Sign in with Slack asks Slack for the person's identity (openid) and name (profile), nothing more.
    const signsIn = files.some(
      (file) => file.endsWith(".ts") && /\.openid\.connect\s*\.token\(/.test(fs.readFileSync(file, "utf8")),
    );
    expect(manifest.oauth_config.scopes.user ?? []).toEqual(signsIn ? ["openid", "profile"] : []);
  });
});
