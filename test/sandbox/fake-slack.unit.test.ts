// The fake Slack against the real clients: @slack/web-api's WebClient for the Web
// API, and a real Bolt app driven by signed requests built from what it rendered.

import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { App, LogLevel, type types } from "@slack/bolt";
import { type Logger, type WebAPIPlatformError, WebClient } from "@slack/web-api";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  blockActionPayload,
  type FakeSlack,
  postSigned,
  type SlackMessage,
  signRequest,
  startFakeSlack,
  validateBlocks,
} from "../support/slack/fake-slack.js";

let clock = Date.now();
let fake: FakeSlack;
let client: WebClient;
beforeAll(async () => {
  fake = await startFakeSlack({
    now: () => clock,
    users: [{ id: "U0ALICE", name: "alice", email: "alice@northwind.test" }],
    usergroups: { S0APPROVERS: ["U0ALICE", "U0BOB"] },
  });
  client = clientFor(fake.botToken);
});
afterAll(() => fake.close());

// The client logs Slack's error messages and missing-text warnings; these tests provoke both.
const quiet: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  setLevel() {},
  getLevel: () => LogLevel.ERROR,
  setName() {},
};
const clientFor = (token?: string) =>
  new WebClient(token, { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 }, logger: quiet });

/** The Slack error a WebClient call failed with. */
async function slackError(call: Promise<unknown>): Promise<WebAPIPlatformError["data"] & { errors?: string[] }> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, "the call should have failed").toBeInstanceOf(Error);
  return (error as WebAPIPlatformError).data;
}

const approvalBlocks = (id: string) => [
  { type: "section", text: { type: "mrkdwn", text: `Approve cancellation for *${id}*?` } },
  {
    type: "actions",
    block_id: "decision",
    elements: [
      {
        type: "button",
        action_id: "approve",
        text: { type: "plain_text", text: "Approve" },
        value: id,
        style: "primary",
      },
      { type: "button", action_id: "reject", text: { type: "plain_text", text: "Reject" }, value: id, style: "danger" },
    ],
  },
];

describe("Web API", () => {
  it("answers auth.test with the bot's identity", async () => {
    const result = await client.auth.test();
    expect(result).toMatchObject({
      ok: true,
      user_id: fake.botUserId,
      bot_id: fake.botId,
      team_id: fake.teamId,
      url: `https://${fake.teamDomain}.slack.com/`,
    });
    expect(fake.apiUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/$/);
    expect(fake.lastCall("auth.test")).toMatchObject({ method: "auth.test", body: {} });
  });

  it("refuses missing and unknown tokens, and unknown methods", async () => {
    expect(await slackError(clientFor(undefined).auth.test())).toMatchObject({ error: "not_authed" });
    expect(await slackError(clientFor("xoxb-nope").auth.test())).toMatchObject({ error: "invalid_auth" });
    expect(await slackError(client.apiCall("chat.teleport"))).toMatchObject({ error: "unknown_method" });
  });

  it("takes JSON bodies with a bearer token, and forms with a token field", async () => {
    const json = await fetch(`${fake.apiUrl}chat.postMessage`, {
      method: "POST",
      headers: { "content-type": "application/json; charset=utf-8", authorization: `Bearer ${fake.botToken}` },
      body: JSON.stringify({ channel: "C0RAW", text: "as JSON", blocks: [{ type: "divider" }] }),
    });
    expect(await json.json()).toMatchObject({
      ok: true,
      message: { text: "as JSON", blocks: [{ type: "divider", block_id: expect.any(String) }] },
    });
    const form = await fetch(`${fake.apiUrl}chat.postMessage`, {
      method: "POST",
      body: new URLSearchParams({
        token: fake.botToken,
        channel: "C0RAW",
        text: "as a form",
        blocks: JSON.stringify([{ type: "divider" }]),
      }),
    });
    expect(await form.json()).toMatchObject({ ok: true, message: { text: "as a form" } });
    expect(fake.lastCall("chat.postMessage")?.body).toEqual({
      channel: "C0RAW",
      text: "as a form",
      blocks: [{ type: "divider" }],
    });
  });

  it("posts messages and threads them, with increasing ts", async () => {
    const parent = await client.chat.postMessage({ channel: "C0APPROVALS", text: "Case CASE-1 opened" });
    const reply = await client.chat.postMessage({
      channel: "C0APPROVALS",
      text: "Rider replied",
      thread_ts: parent.ts,
    });
    const second = await client.chat.postMessage({
      channel: "C0APPROVALS",
      text: "Reply to the reply",
      thread_ts: reply.ts,
    });
    expect(parent).toMatchObject({
      ok: true,
      channel: "C0APPROVALS",
      message: { text: "Case CASE-1 opened", user: fake.botUserId, bot_id: fake.botId },
    });
    expect(parent.ts).toMatch(/^\d{10}\.\d{6}$/);
    expect(Number(reply.ts)).toBeGreaterThan(Number(parent.ts));
    expect(second.message?.thread_ts).toBe(parent.ts);

    expect(fake.thread("C0APPROVALS", parent.ts as string).map((m) => m.text)).toEqual([
      "Case CASE-1 opened",
      "Rider replied",
      "Reply to the reply",
    ]);
    expect(fake.messages("C0APPROVALS").map((m) => [m.text, m.reply_count])).toEqual([["Case CASE-1 opened", 2]]);
    const replies = await client.conversations.replies({ channel: "C0APPROVALS", ts: parent.ts as string });
    expect(replies.messages?.map((m) => m.ts)).toEqual([parent.ts, reply.ts, second.ts]);
    const history = await client.conversations.history({ channel: "C0APPROVALS" });
    expect(history.messages?.map((m) => m.ts)).toEqual([parent.ts]);
    expect(fake.callsTo("chat.postMessage").at(-1)?.body).toMatchObject({
      channel: "C0APPROVALS",
      thread_ts: reply.ts,
    });
  });

  it("keeps message metadata, returns it from history and replies only when asked, and refuses a malformed one", async () => {
    const metadata = { event_type: "poolpatrol_post", event_payload: { key: "alert:CASE-1" } };
    const parent = await client.chat.postMessage({ channel: "C0METADATA", text: "Alert", metadata });
    const reply = await client.chat.postMessage({
      channel: "C0METADATA",
      thread_ts: parent.ts as string,
      text: "Card",
      metadata: { event_type: "poolpatrol_post", event_payload: { key: "card:APR-1" } },
    });
    const plain = await client.conversations.history({ channel: "C0METADATA" });
    expect(plain.messages?.map((m) => m.metadata)).toEqual([undefined]);
    const asked = await client.conversations.history({ channel: "C0METADATA", include_all_metadata: true });
    expect(asked.messages?.map((m) => m.metadata)).toEqual([metadata]);
    const thread = await client.conversations.replies({
      channel: "C0METADATA",
      ts: parent.ts as string,
      include_all_metadata: true,
    });
    expect(thread.messages?.map((m) => [m.ts, m.metadata?.event_type])).toEqual([
      [parent.ts, "poolpatrol_post"],
      [reply.ts, "poolpatrol_post"],
    ]);
    await expect(
      client.chat.postMessage({
        channel: "C0METADATA",
        text: "Bad",
        metadata: { event_type: "has spaces", event_payload: {} },
      }),
    ).rejects.toMatchObject({ data: { error: "invalid_metadata_format" } });
  });

  it("updates a message by channel and ts, and refuses one that does not exist", async () => {
    const posted = await client.chat.postMessage({
      channel: "C0UPDATES",
      text: "Pending",
      blocks: approvalBlocks("APR-1"),
    });
    const updated = await client.chat.update({
      channel: "C0UPDATES",
      ts: posted.ts as string,
      text: "Approved by alice",
      blocks: [],
    });
    expect(updated).toMatchObject({ ok: true, channel: "C0UPDATES", ts: posted.ts, text: "Approved by alice" });
    expect(fake.messages("C0UPDATES")).toEqual([
      expect.objectContaining({ ts: posted.ts, text: "Approved by alice", blocks: [], edited: expect.any(Object) }),
    ]);
    expect(await slackError(client.chat.update({ channel: "C0UPDATES", ts: "1.000001", text: "x" }))).toMatchObject({
      error: "message_not_found",
    });
  });

  it("answers users, user groups, ephemerals, permalinks and reactions", async () => {
    expect((await client.users.info({ user: "U0ALICE" })).user).toMatchObject({
      id: "U0ALICE",
      name: "alice",
      profile: { email: "alice@northwind.test" },
    });
    expect(await slackError(client.users.info({ user: "U0NOBODY" }))).toMatchObject({ error: "user_not_found" });
    expect((await client.usergroups.users.list({ usergroup: "S0APPROVERS" })).users).toEqual(["U0ALICE", "U0BOB"]);
    const ephemeral = await client.chat.postEphemeral({
      channel: "C0APPROVALS",
      user: "U0ALICE",
      text: "Only you can see this",
    });
    expect(fake.ephemerals("U0ALICE")).toEqual([
      {
        channel: "C0APPROVALS",
        message: expect.objectContaining({ ts: ephemeral.message_ts, text: "Only you can see this" }),
      },
    ]);
    const posted = await client.chat.postMessage({ channel: "C0LINKS", text: "Link me" });
    const link = await client.chat.getPermalink({ channel: "C0LINKS", message_ts: posted.ts as string });
    expect(link.permalink).toBe(
      `https://${fake.teamDomain}.slack.com/archives/C0LINKS/p${(posted.ts as string).replace(".", "")}`,
    );
    await client.reactions.add({ channel: "C0LINKS", timestamp: posted.ts as string, name: "white_check_mark" });
    expect(fake.messages("C0LINKS")[0]?.reactions).toEqual([
      { name: "white_check_mark", users: [fake.botUserId], count: 1 },
    ]);
    expect(
      await slackError(
        client.reactions.add({ channel: "C0LINKS", timestamp: posted.ts as string, name: "white_check_mark" }),
      ),
    ).toMatchObject({ error: "already_reacted" });
  });

  it("lets a scripted failure through once", async () => {
    fake.failNext("chat.postMessage", "channel_not_found");
    expect(await slackError(client.chat.postMessage({ channel: "C0GONE", text: "hi" }))).toMatchObject({
      error: "channel_not_found",
    });
    expect((await client.chat.postMessage({ channel: "C0GONE", text: "hi" })).ok).toBe(true);
  });
});

describe("Block Kit limits", () => {
  it("answers invalid_blocks the way Slack does", async () => {
    const data = await slackError(
      client.chat.postMessage({
        channel: "C0LIMITS",
        text: "Too long",
        blocks: [{ type: "section", text: { type: "mrkdwn", text: "x".repeat(3001) } }],
      }),
    );
    expect(data).toEqual({
      ok: false,
      error: "invalid_blocks",
      errors: ["must be less than 3001 characters [json-pointer:/blocks/0/text/text]"],
      response_metadata: { messages: ["[ERROR] must be less than 3001 characters [json-pointer:/blocks/0/text/text]"] },
    });
    expect(fake.messages("C0LIMITS")).toEqual([]);
  });

  it("requires a text fallback with blocks, and text or blocks at all", async () => {
    expect(
      (await slackError(client.chat.postMessage({ channel: "C0LIMITS", blocks: approvalBlocks("APR-2") }))).errors,
    ).toEqual(["must provide a top-level text fallback when sending blocks [json-pointer:/text]"]);
    expect(await slackError(client.apiCall("chat.postMessage", { channel: "C0LIMITS" }))).toMatchObject({
      error: "no_text",
    });
  });

  it("checks counts, lengths and unique ids as a pure function", () => {
    const section = { type: "section", text: { type: "plain_text", text: "row" } };
    expect(validateBlocks(Array(50).fill(section), "message")).toEqual([]);
    expect(validateBlocks(Array(51).fill(section), "message")).toEqual([
      "no more than 50 items allowed [json-pointer:/blocks]",
    ]);
    expect(validateBlocks(Array(100).fill(section), "modal")).toEqual([]);
    const button = (action_id: string, text: string, value: string) => ({
      type: "button",
      action_id,
      text: { type: "plain_text", text },
      value,
    });
    expect(
      validateBlocks(
        [
          {
            type: "actions",
            block_id: "b".repeat(256),
            elements: [button("go", "y".repeat(76), "v".repeat(2001)), button("go", "Go", "1")],
          },
        ],
        "message",
      ),
    ).toEqual([
      "must be less than 256 characters [json-pointer:/blocks/0/block_id]",
      "must be less than 76 characters [json-pointer:/blocks/0/elements/0/text/text]",
      "must be less than 2001 characters [json-pointer:/blocks/0/elements/0/value]",
      'duplicate action_id "go" [json-pointer:/blocks/0/elements/1/action_id]',
    ]);
  });
});

describe("modals and App Home", () => {
  const modal: types.ModalView = {
    type: "modal",
    callback_id: "edit_reply",
    title: { type: "plain_text", text: "Edit reply" },
    submit: { type: "plain_text", text: "Send" },
    blocks: [
      {
        type: "input",
        block_id: "body",
        label: { type: "plain_text", text: "Reply" },
        element: { type: "plain_text_input", action_id: "body_input", multiline: true },
      },
    ],
  };

  it("opens a modal with a fresh trigger id only once, and not after it expires", async () => {
    const trigger = fake.issueTriggerId("U0ALICE");
    const opened = await client.views.open({ trigger_id: trigger, view: modal });
    expect(opened.view).toMatchObject({ id: expect.stringMatching(/^V/), callback_id: "edit_reply", type: "modal" });
    expect(fake.views("U0ALICE").map((v) => v.id)).toContain(opened.view?.id);
    expect(await slackError(client.views.open({ trigger_id: trigger, view: modal }))).toMatchObject({
      error: "exchanged_trigger_id",
    });
    expect(await slackError(client.views.open({ trigger_id: "123.456.abc", view: modal }))).toMatchObject({
      error: "invalid_trigger_id",
    });

    const late = fake.issueTriggerId("U0ALICE");
    clock += 3001;
    expect(await slackError(client.views.open({ trigger_id: late, view: modal }))).toMatchObject({
      error: "expired_trigger_id",
    });
  });

  it("refuses a modal title over 24 characters with invalid_arguments", async () => {
    const data = await slackError(
      client.views.open({
        trigger_id: fake.issueTriggerId("U0ALICE"),
        view: { ...modal, title: { type: "plain_text", text: "A title that is far too long" } },
      }),
    );
    expect(data).toEqual({
      ok: false,
      error: "invalid_arguments",
      response_metadata: { messages: ["[ERROR] must be less than 25 characters [json-pointer:/view/title/text]"] },
    });
  });

  it("updates an open view and publishes a home tab per user", async () => {
    const { view } = await client.views.open({ trigger_id: fake.issueTriggerId("U0ALICE"), view: modal });
    await client.views.update({
      view_id: view?.id as string,
      view: { ...modal, title: { type: "plain_text", text: "Edited" } },
    });
    expect(fake.view(view?.id as string)?.title).toEqual({ type: "plain_text", text: "Edited" });
    expect(fake.viewHistory(view?.id as string)).toHaveLength(2);
    await client.views.publish({
      user_id: "U0ALICE",
      view: { type: "home", blocks: [{ type: "section", text: { type: "mrkdwn", text: "3 open cases" } }] },
    });
    expect(fake.home("U0ALICE")?.blocks[0]).toMatchObject({ text: { text: "3 open cases" } });
    expect(fake.home("U0BOB")).toBeUndefined();
  });

  it("builds a submission from the opened view, refusing inputs it does not have", async () => {
    const { view } = await client.views.open({ trigger_id: fake.issueTriggerId("U0ALICE"), view: modal });
    const stored = fake.view(view?.id as string);
    if (!stored) throw new Error("view not stored");
    const payload = JSON.parse(
      new URLSearchParams(fake.viewSubmissionPayload({ view: stored, values: { body_input: "Thanks, all set." } })).get(
        "payload",
      ) ?? "",
    );
    expect(payload).toMatchObject({
      type: "view_submission",
      user: { id: "U0ALICE" },
      view: {
        id: stored.id,
        state: { values: { body: { body_input: { type: "plain_text_input", value: "Thanks, all set." } } } },
      },
    });
    expect(() => fake.viewSubmissionPayload({ view: stored, values: { nope: "x" } })).toThrow(/no input "nope"/);
    expect(() => fake.viewSubmissionPayload({ view: stored, values: {} })).toThrow(/"body_input" is required/);
  });
});

describe("requests to the app", () => {
  it("signs the way Slack documents it", () => {
    const body =
      "token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c";
    expect(signRequest("8f742231b10e8888abcd99yyyzzz85a5", body, 1531420618)).toEqual({
      "x-slack-signature": "v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503",
      "x-slack-request-timestamp": "1531420618",
    });
  });

  it("clicks only buttons the message actually has", async () => {
    const posted = await client.chat.postMessage({
      channel: "C0CLICKS",
      text: "Approve APR-3?",
      blocks: approvalBlocks("APR-3"),
    });
    const message = posted.message as SlackMessage;
    const build = (action: { action_id: string; value?: string }) =>
      blockActionPayload({
        user: "U0ALICE",
        channel: "C0CLICKS",
        message,
        action,
        trigger_id: "t",
        response_url: "http://127.0.0.1/response/x",
      });

    const payload = JSON.parse(
      new URLSearchParams(build({ action_id: "approve", value: "APR-3" })).get("payload") ?? "",
    );
    expect(payload).toMatchObject({
      type: "block_actions",
      user: { id: "U0ALICE" },
      container: { type: "message", message_ts: posted.ts, channel_id: "C0CLICKS", is_ephemeral: false },
      message: { ts: posted.ts },
      actions: [
        {
          type: "button",
          action_id: "approve",
          block_id: "decision",
          value: "APR-3",
          action_ts: expect.stringMatching(/^\d+\.\d{6}$/),
        },
      ],
    });
    expect(() => build({ action_id: "escalate" })).toThrow(/no element with action_id "escalate"/);
    expect(() => build({ action_id: "approve", value: "APR-999" })).toThrow(/another value/);
    expect(() =>
      fake.blockActionPayload({
        user: "U0ALICE",
        message: { ...message, ts: "1.000001" },
        action: { action_id: "approve" },
      }),
    ).toThrow(/never posted/);
    expect(() =>
      fake.blockActionPayload({
        user: "U0ALICE",
        message: { ...message, blocks: approvalBlocks("APR-4") },
        action: { action_id: "approve" },
      }),
    ).toThrow(/never had these blocks/);
  });
});

describe("a real Bolt app against the fake", () => {
  const signingSecret = "test-signing-secret";
  let app: App;
  let endpoint: string;
  beforeAll(async () => {
    app = new App({
      token: fake.botToken,
      signingSecret,
      logLevel: LogLevel.ERROR,
      clientOptions: { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } },
    });
    app.command("/patrol", async ({ ack, respond, say, command }) => {
      await ack();
      await say({ text: `Approve ${command.text}?`, blocks: approvalBlocks(command.text) });
      await respond({ text: "Posted for approval." });
    });
    app.action("approve", async ({ ack, respond, body }) => {
      await ack();
      await respond({ replace_original: true, text: `Approved by <@${body.user.id}>` });
    });
    app.message(/^status/, async ({ message, say }) => {
      if (message.subtype === undefined) await say({ text: "All vans audited.", thread_ts: message.ts });
    });
    const server = (await app.start(0)) as Server;
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`;
  });
  afterAll(() => app.stop());

  it("runs a command, a click on the card it posted and a message event, through signed requests", async () => {
    const command = await postSigned(
      endpoint,
      signingSecret,
      fake.slashCommandBody({ command: "/patrol", text: "APR-5", user_id: "U0ALICE", channel_id: "C0BOLT" }),
    );
    expect(command.status).toBe(200);
    await vi.waitFor(() =>
      expect(fake.responses()).toContainEqual(
        expect.objectContaining({ body: { text: "Posted for approval." }, status: 200 }),
      ),
    );
    expect(fake.ephemerals("U0ALICE").map((e) => e.message.text)).toContain("Posted for approval.");

    const card = fake.find((m, channel) => channel === "C0BOLT" && m.text === "Approve APR-5?");
    if (!card) throw new Error("the app posted no card");
    const click = await postSigned(
      endpoint,
      signingSecret,
      fake.blockActionPayload({ user: "U0ALICE", message: card, action: { action_id: "approve", value: "APR-5" } }),
    );
    expect(click.status).toBe(200);
    await vi.waitFor(() => expect(fake.messages("C0BOLT").map((m) => m.text)).toEqual(["Approved by <@U0ALICE>"]));

    const { message, body } = fake.userMessage({ user: "U0ALICE", channel: "C0BOLT", text: "status please" });
    expect((await postSigned(endpoint, signingSecret, body)).status).toBe(200);
    await vi.waitFor(() =>
      expect(fake.thread("C0BOLT", message.ts).map((m) => m.text)).toEqual(["status please", "All vans audited."]),
    );

    const forged = await fetch(endpoint, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...signRequest("wrong-secret", "x=1") },
      body: "x=1",
    });
    expect(forged.status).toBe(401);
  });
});
