// A local Slack: the Web API surface Pool Patrol uses, in memory. The test suite
// drives the real Bolt app against it, and the sandbox puts a browser UI on it. The
// app and WebClient talk to it over HTTP (slackApiUrl = apiUrl); it records every
// call, keeps what the bot posted, opened and published, takes what the app sends to
// response URLs, and builds the signed requests Slack would send to the app.
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Json } from "./block-kit.js";
import { fileMethods, receiveUpload } from "./files.js";
import { createOpenIdProvider, type OpenIdClient } from "./openid.js";
import {
  type BlockActionInput,
  blockActionPayload,
  type EventCallbackInput,
  eventCallbackBody,
  FAKE_WORKSPACE,
  type SlackMessage,
  type SlackView,
  type SlashCommandInput,
  slashCommandBody,
  type ViewSubmissionInput,
  viewSubmissionPayload,
} from "./payloads.js";
import {
  ApiError,
  applyResponse,
  type FakeUser,
  JSON_FIELDS,
  methods,
  type ResponseContext,
  type StoredFile,
  Workspace,
  type WorkspaceSnapshot,
} from "./web-api.js";

export { type Surface, validateBlocks, validateView } from "./block-kit.js";
export {
  type ActionInput,
  type BlockActionInput,
  blockActionPayload,
  type EventCallbackInput,
  eventCallbackBody,
  FAKE_WORKSPACE,
  type InputValue,
  postSigned,
  type SignatureHeaders,
  type SlackMessage,
  type SlackView,
  type SlashCommandInput,
  signRequest,
  slackTs,
  slashCommandBody,
  type UserRef,
  type ViewSubmissionInput,
  viewSubmissionPayload,
} from "./payloads.js";
export type { FakeUser, ResponseContext, StoredFile, WorkspaceSnapshot } from "./web-api.js";

export interface FakeSlackOptions {
  botToken?: string;
  /** More tokens the fake accepts besides the bot token. */
  tokens?: string[];
  botUserId?: string;
  botId?: string;
  appId?: string;
  teamId?: string;
  teamDomain?: string;
  /** How long an issued trigger_id can open a modal; Slack allows 3 seconds. */
  triggerTtlMs?: number;
  users?: FakeUser[];
  usergroups?: Record<string, string[]>;
  /** Members of a channel by id (conversations.members); a channel not listed has every person in the workspace. */
  channelMembers?: Record<string, string[]>;
  /** Apps that may use Sign in with Slack (OpenID Connect) against this workspace. */
  openIdClients?: OpenIdClient[];
  now?: () => number;
  /** The WebSocket URL apps.connections.open hands to Socket Mode clients. */
  socketModeUrl?: string;
  /** Port to listen on (0: any free port). */
  port?: number;
  host?: string;
  /** Keeps the workspace across restarts (the sandbox); without it the workspace lives in memory. */
  store?: WorkspaceStore;
  /** Requests answered before this server reads them (the bot's REST API); return true when handled. */
  before?: (req: http.IncomingMessage, res: http.ServerResponse) => boolean;
  /** More routes on the same server (the sandbox UI); return true when handled. */
  routes?: (req: http.IncomingMessage, res: http.ServerResponse, url: URL, raw: string) => boolean | Promise<boolean>;
}

export interface WorkspaceStore {
  load(): Promise<WorkspaceSnapshot | undefined>;
  save(snapshot: WorkspaceSnapshot): Promise<void>;
}

export interface ApiCall {
  method: string;
  body: Record<string, unknown>;
  at: number;
  response?: Json;
}

export interface ResponseCall {
  id: string;
  body: Json;
  at: number;
  status: number;
}

type Filled<T, K extends keyof T> = Omit<T, K> & Partial<Pick<T, K>>;
type Ids = "team_id" | "team_domain" | "api_app_id";

export interface FakeSlack {
  /** Base for the Web API, ending in "/api/". */
  apiUrl: string;
  baseUrl: string;
  botToken: string;
  botUserId: string;
  botId: string;
  appId: string;
  teamId: string;
  teamDomain: string;
  calls: ApiCall[];
  callsTo(method: string): ApiCall[];
  lastCall(method: string): ApiCall | undefined;
  /** Top-level messages of a channel, oldest first, thread parents with their reply summary. */
  messages(channel: string): SlackMessage[];
  /** A thread's parent followed by its replies. */
  thread(channel: string, ts: string): SlackMessage[];
  find(predicate: (message: SlackMessage, channel: string) => boolean): SlackMessage | undefined;
  channelOf(ts: string): string | undefined;
  /** Every version a message went through, first as posted (what a person with an old screen still sees). */
  messageHistory(ts: string): SlackMessage[];
  ephemerals(user: string): { channel: string; message: SlackMessage }[];
  /** Every status line an assistant thread showed, in order ("" clears it); the last is what it shows now. */
  statuses(channel: string, threadTs: string): string[];
  /** The suggested prompts an assistant thread offers. */
  suggestedPrompts(
    channel: string,
    threadTs: string,
  ): { title?: string; prompts: { title: string; message: string }[] } | undefined;
  /** Modals as they are now, in the order they were opened. */
  views(user?: string): SlackView[];
  view(id: string): SlackView | undefined;
  /** Every version a view went through, first as opened. */
  viewHistory(id: string): SlackView[];
  home(user: string): SlackView | undefined;
  addUser(user: FakeUser): void;
  setUsergroup(id: string, members: string[]): void;
  issueTriggerId(userId: string): string;
  responseUrl(context?: ResponseContext): string;
  /** What the app POSTed to one response URL (by id or the URL), or to all of them. */
  responses(idOrUrl?: string): ResponseCall[];
  /** The next call to `method` answers {ok:false, error, ...extra}. */
  failNext(method: string, error: string, extra?: Json): void;
  /** The next call to `method` fails as a Slack outage does: HTTP 500, nothing done. */
  serverErrorNext(method: string): void;
  /** The next call of `method` takes effect, but its answer is lost (HTTP 500): a crash right after Slack took it. */
  loseResponseNext(method: string): void;
  /** The next `times` calls to `method` are refused as Slack refuses too many: HTTP 429 with Retry-After. */
  rateLimitNext(method: string, retryAfterSeconds: number, times?: number): void;
  /** The next call to `method` is answered as things stand when it arrives, but the answer is sent `ms` later. */
  delayNext(method: string, ms: number): void;
  /** Files the bot uploaded (files.ts), with their bytes; `shared` once completed into a channel. */
  files(): StoredFile[];
  /** The next `times` POSTs of file bytes to an upload URL answer HTTP `status` (500, or 429 with Retry-After 1). */
  failUploadsNext(status: number, times?: number): void;
  slashCommandBody(input: Filled<SlashCommandInput, "trigger_id" | "response_url" | Ids>): string;
  /** Refuses messages and views the bot never rendered, and elements they do not contain. */
  blockActionPayload(input: Filled<BlockActionInput, "trigger_id" | "channel" | Ids>): string;
  viewSubmissionPayload(input: Filled<ViewSubmissionInput, "user" | "trigger_id" | Ids>): string;
  eventCallbackBody(input: EventCallbackInput): string;
  /** A person posts in a channel or thread: stored like any message, returned with its message event. */
  /** A person's message as Slack delivers it: the `message` event, plus an `app_mention` event when it @mentions the bot. */
  userMessage(input: { user: string; channel: string; text: string; thread_ts?: string; blocks?: Json[] }): {
    message: SlackMessage;
    body: string;
    mention?: string;
  };
  close(): Promise<void>;
}

export async function startLocalSlack(options: FakeSlackOptions = {}): Promise<FakeSlack> {
  const now = options.now ?? Date.now;
  const id = {
    teamId: options.teamId ?? FAKE_WORKSPACE.teamId,
    teamDomain: options.teamDomain ?? FAKE_WORKSPACE.teamDomain,
    appId: options.appId ?? FAKE_WORKSPACE.appId,
    botUserId: options.botUserId ?? FAKE_WORKSPACE.botUserId,
    botId: options.botId ?? FAKE_WORKSPACE.botId,
  };
  const botToken = options.botToken ?? FAKE_WORKSPACE.botToken;
  const tokens = new Set([botToken, ...(options.tokens ?? [])]);
  const ws = new Workspace(id, now, options.triggerTtlMs ?? 3000);
  ws.socketModeUrl = options.socketModeUrl;
  ws.users.set(id.botUserId, { id: id.botUserId, name: "pool_patrol", is_bot: true });
  for (const user of options.users ?? []) ws.users.set(user.id, user);
  for (const [group, members] of Object.entries(options.usergroups ?? {})) ws.usergroups.set(group, members);
  for (const [channel, members] of Object.entries(options.channelMembers ?? {}))
    ws.channelMembers.set(channel, members);
  const openId = createOpenIdProvider(ws, options.openIdClients ?? [], now);
  const stored = await options.store?.load();
  if (stored) ws.restore(stored);
  // Saves run one after another, each with the workspace as it is then, before the call is answered.
  let saving: Promise<void> = Promise.resolve();
  const persist = () => {
    const store = options.store;
    if (!store) return saving;
    saving = saving.catch(() => undefined).then(() => store.save(ws.snapshot()));
    return saving;
  };

  const calls: ApiCall[] = [];
  const failures = new Map<string, Json[]>();
  const rateLimits = new Map<string, number[]>();
  const delays = new Map<string, number[]>();
  const serverErrors = new Map<string, number>();
  const lostResponses = new Map<string, number>();
  const responseUrls = new Map<string, { context: ResponseContext; uses: number }>();
  const responseCalls: ResponseCall[] = [];

  function answer(method: string, token: string | undefined, args: Json): Json {
    const handler = Object.hasOwn(methods, method)
      ? methods[method]
      : Object.hasOwn(fileMethods, method)
        ? fileMethods[method]
        : undefined;
    if (!handler) return { ok: false, error: "unknown_method" };
    if (!token) return { ok: false, error: "not_authed" };
    if (!tokens.has(token)) return { ok: false, error: "invalid_auth" };
    const failure = failures.get(method)?.shift();
    if (failure) return { ok: false, ...failure };
    try {
      return { ok: true, ...handler(ws, args) };
    } catch (error) {
      if (error instanceof ApiError) return { ok: false, error: error.error, ...error.extra };
      throw error;
    }
  }

  function api(method: string, req: http.IncomingMessage, url: URL, raw: string, res: http.ServerResponse): void {
    const args = parseArgs(req, url, raw);
    if (!args) return send(res, 200, { ok: false, error: "invalid_json" });
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    const token = bearer ?? (typeof args.token === "string" ? args.token : undefined);
    delete args.token;
    const call: ApiCall = { method, body: args, at: now() };
    calls.push(call);
    if (serverErrors.get(method)) {
      serverErrors.set(method, (serverErrors.get(method) ?? 1) - 1);
      call.response = { ok: false, error: "internal_error" };
      return send(res, 500, call.response);
    }
    // Sign in with Slack's token exchange authenticates the app by its client credentials, not a token.
    if (method === "openid.connect.token") {
      const failure = failures.get(method)?.shift();
      call.response = failure ? { ok: false, ...failure } : openId.token(args, req.headers.authorization);
      return send(res, 200, call.response);
    }
    const retryAfter = rateLimits.get(method)?.shift();
    if (retryAfter !== undefined) {
      call.response = { ok: false, error: "ratelimited" };
      res.writeHead(429, { "content-type": "application/json; charset=utf-8", "retry-after": String(retryAfter) });
      return void res.end(JSON.stringify(call.response));
    }
    call.response = answer(method, token, args);
    if (lostResponses.get(method)) {
      lostResponses.set(method, (lostResponses.get(method) ?? 1) - 1);
      return void persist().then(() => send(res, 500, { ok: false, error: "internal_error" }));
    }
    const response = call.response;
    const delay = delays.get(method)?.shift() ?? 0;
    const reply = (body: Json) => (delay ? void setTimeout(() => send(res, 200, body), delay) : send(res, 200, body));
    if (!options.store || !response.ok || !MUTATING.has(method)) return reply(response);
    persist().then(
      () => reply(response),
      (error: Error) => reply({ ok: false, error: "fatal_error", detail: error.message }),
    );
  }

  const uploadFailures: number[] = [];
  /** File bytes POSTed to an upload URL (files.getUploadURLExternal handed it out). */
  function upload(id: string, req: http.IncomingMessage, raw: string, res: http.ServerResponse): void {
    const status = uploadFailures.shift();
    if (status !== undefined) {
      res.writeHead(status, { "content-type": "text/plain", ...(status === 429 ? { "retry-after": "1" } : {}) });
      return void res.end(status === 429 ? "rate limited" : "upload failed");
    }
    receiveUpload(ws, id, Buffer.from(raw, "utf8"), req.headers["content-type"]).then(
      (taken) => {
        res.writeHead(taken ? 200 : 404, { "content-type": "text/plain" });
        res.end(taken ? `OK - ${Buffer.byteLength(raw)}` : "no such upload");
      },
      (error: Error) => send(res, 400, { ok: false, error: "invalid_upload", detail: error.message }),
    );
  }

  /** A shared file's bytes, as its url_private gives them (an attachment with ?download=1). */
  function download(url: URL, res: http.ServerResponse): void {
    const [, id = "", name = ""] = url.pathname.split("/").slice(1);
    const file = ws.files.get(id);
    if (!file?.shared || file.content === null || decodeURIComponent(name) !== file.name)
      return send(res, 404, { ok: false, error: "file_not_found" });
    res.writeHead(200, {
      "content-type": `${file.mimetype}; charset=utf-8`,
      "content-disposition": `${url.searchParams.has("download") ? "attachment" : "inline"}; filename="${file.name.replace(/["\\]/g, "")}"`,
    });
    res.end(file.content);
  }

  // Slack accepts at most five responses per response URL.
  function respond(responseId: string, raw: string, res: http.ServerResponse): void {
    let body: Json;
    try {
      body = JSON.parse(raw) as Json;
    } catch {
      return send(res, 400, { ok: false, error: "invalid_payload" });
    }
    const record: ResponseCall = { id: responseId, body, at: now(), status: 200 };
    responseCalls.push(record);
    const entry = responseUrls.get(responseId);
    const reply = (status: number, result: Json) => {
      record.status = status;
      send(res, status, result);
    };
    if (!entry) return reply(404, { ok: false, error: "expired_url" });
    if (entry.uses >= 5) return reply(404, { ok: false, error: "used_url" });
    entry.uses += 1;
    try {
      applyResponse(ws, entry.context, body);
      persist().then(
        () => reply(200, { ok: true }),
        (error: Error) => reply(500, { ok: false, error: "fatal_error", detail: error.message }),
      );
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      reply(400, { ok: false, error: error.error, ...error.extra });
    }
  }

  const server = http.createServer((req, res) => {
    if (options.before?.(req, res)) return;
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://fake-slack");
      const raw = Buffer.concat(chunks).toString("utf8");
      const refusal = foreignRequest(req, (server.address() as AddressInfo).port);
      if (refusal) return send(res, 403, { ok: false, error: "forbidden", detail: refusal });
      try {
        if (url.pathname.startsWith("/api/"))
          return api(decodeURIComponent(url.pathname.slice("/api/".length)), req, url, raw, res);
        if (url.pathname.startsWith("/response/") && req.method === "POST")
          return respond(url.pathname.slice("/response/".length), raw, res);
        if (url.pathname.startsWith("/upload/") && req.method === "POST")
          return upload(url.pathname.slice("/upload/".length), req, raw, res);
        if (url.pathname.startsWith("/files/") && req.method === "GET") return download(url, res);
        if (url.pathname === "/openid/connect/authorize") return void openId.authorize(req, res, url, raw);
        Promise.resolve(options.routes?.(req, res, url, raw) ?? false)
          .then((handled) => {
            if (!handled) send(res, 404, { ok: false, error: "not_found" });
          })
          .catch((error: Error) => {
            process.stderr.write(`local Slack failed on ${req.url}: ${error.stack}\n`);
            if (!res.headersSent) send(res, 500, { ok: false, error: "local_slack_failure", detail: error.message });
          });
      } catch (error) {
        process.stderr.write(`local Slack failed on ${req.url}: ${(error as Error).stack}\n`);
        send(res, 500, { ok: false, error: "local_slack_failure", detail: (error as Error).message });
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", resolve);
  });
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  ws.uploadUrl = `${baseUrl}/upload`;
  ws.filesUrl = `${baseUrl}/files`;

  const userName = (user: string) => ws.users.get(user)?.name ?? user;
  const ids = { team_id: id.teamId, team_domain: id.teamDomain, api_app_id: id.appId };
  const responseUrl = (context: ResponseContext = {}) => {
    const responseId = randomBytes(8).toString("hex");
    responseUrls.set(responseId, { context, uses: 0 });
    return `${baseUrl}/response/${responseId}`;
  };
  const sameBlocks = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  const latestView = (viewId: string) => ws.view(viewId)?.versions.at(-1);

  return {
    apiUrl: `${baseUrl}/api/`,
    baseUrl,
    botToken,
    ...id,
    calls,
    callsTo: (method) => calls.filter((c) => c.method === method),
    lastCall: (method) => calls.filter((c) => c.method === method).at(-1),
    messages: (channel) => ws.channelMessages(channel),
    thread: (channel, ts) => ws.thread(channel, ts),
    find(predicate) {
      const live = [...ws.entries.values()].filter((e) => !e.deleted && !e.ephemeralFor);
      for (const entry of live) {
        const message = ws.decorate(entry.versions.at(-1) as SlackMessage);
        if (predicate(message, entry.channel)) return message;
      }
      return undefined;
    },
    channelOf: (ts) => ws.entries.get(ts)?.channel,
    messageHistory: (ts) => [...(ws.entries.get(ts)?.versions ?? [])],
    ephemerals: (user) => ws.ephemeralsFor(user),
    views: (user) =>
      [...ws.viewEntries.values()]
        .filter((e) => e.versions[0]?.type === "modal" && (user === undefined || e.user === user))
        .map((e) => e.versions.at(-1) as SlackView),
    view: (viewId) => latestView(viewId),
    viewHistory: (viewId) => [...(ws.view(viewId)?.versions ?? [])],
    home: (user) => latestView(ws.homes.get(user) ?? ""),
    addUser: (user) => void ws.users.set(user.id, user),
    setUsergroup: (group, members) => void ws.usergroups.set(group, [...members]),
    issueTriggerId: (user) => ws.issueTrigger(user),
    responseUrl,
    responses(idOrUrl) {
      const wanted = idOrUrl?.split("/").pop();
      return responseCalls.filter((r) => wanted === undefined || r.id === wanted);
    },
    statuses: (channel, threadTs) => [...(ws.statuses.get(`${channel}:${threadTs}`) ?? [])],
    suggestedPrompts: (channel, threadTs) => ws.suggestedPrompts.get(`${channel}:${threadTs}`),
    loseResponseNext(method) {
      lostResponses.set(method, (lostResponses.get(method) ?? 0) + 1);
    },
    serverErrorNext(method) {
      serverErrors.set(method, (serverErrors.get(method) ?? 0) + 1);
    },
    failNext(method, error, extra = {}) {
      failures.set(method, [...(failures.get(method) ?? []), { error, ...extra }]);
    },
    rateLimitNext(method, retryAfterSeconds, times = 1) {
      rateLimits.set(method, [...(rateLimits.get(method) ?? []), ...Array(times).fill(retryAfterSeconds)]);
    },
    delayNext(method, ms) {
      delays.set(method, [...(delays.get(method) ?? []), ms]);
    },
    files: () => [...ws.files.values()],
    failUploadsNext(status, times = 1) {
      uploadFailures.push(...Array<number>(times).fill(status));
    },

    slashCommandBody: (input) =>
      slashCommandBody({
        ...ids,
        user_name: userName(input.user_id),
        ...input,
        trigger_id: input.trigger_id ?? ws.issueTrigger(input.user_id),
        response_url: input.response_url ?? responseUrl({ user: input.user_id, channel: input.channel_id }),
      }),

    blockActionPayload(input) {
      const user = typeof input.user === "string" ? { id: input.user, name: userName(input.user) } : input.user;
      const trigger_id = input.trigger_id ?? ws.issueTrigger(user.id);
      if (input.message) {
        const entry = ws.entries.get(input.message.ts);
        if (!entry) throw new Error(`the bot never posted a message with ts ${input.message.ts}`);
        if (entry.deleted) throw new Error(`message ${input.message.ts} was deleted`);
        if (input.channel !== undefined && input.channel !== entry.channel)
          throw new Error(`message ${input.message.ts} is in ${entry.channel}, not ${input.channel}`);
        if (!entry.versions.some((v) => sameBlocks(v.blocks, input.message?.blocks)))
          throw new Error(`message ${input.message.ts} never had these blocks`);
        if (entry.ephemeralFor !== undefined && entry.ephemeralFor !== user.id)
          throw new Error(`only ${entry.ephemeralFor} can see ephemeral message ${input.message.ts}`);
        const context = { user: user.id, channel: entry.channel, ts: input.message.ts };
        return blockActionPayload({
          ...ids,
          ...input,
          user,
          trigger_id,
          channel: entry.channel,
          ephemeral: entry.ephemeralFor !== undefined,
          response_url: input.response_url ?? responseUrl(context),
        });
      }
      if (input.view) {
        const entry = ws.view(input.view.id);
        if (!entry?.versions.some((v) => sameBlocks(v.blocks, input.view?.blocks)))
          throw new Error(`the bot never showed view ${input.view.id} with these blocks`);
        if (entry.user !== user.id) throw new Error(`view ${input.view.id} belongs to ${entry.user}, not ${user.id}`);
      }
      return blockActionPayload({ ...ids, ...input, user, trigger_id });
    },

    viewSubmissionPayload(input) {
      const entry = ws.view(input.view.id);
      if (!entry?.versions.some((v) => sameBlocks(v.blocks, input.view.blocks)))
        throw new Error(`the bot never opened view ${input.view.id} with these blocks`);
      if (input.view.type !== "modal")
        throw new Error(`view ${input.view.id} is a ${input.view.type}, which cannot be submitted`);
      const owner = input.user === undefined ? entry.user : typeof input.user === "string" ? input.user : input.user.id;
      if (owner !== entry.user) throw new Error(`view ${input.view.id} was opened for ${entry.user}, not ${owner}`);
      return viewSubmissionPayload({
        ...ids,
        ...input,
        user: typeof input.user === "object" ? input.user : { id: owner, name: userName(owner) },
        trigger_id: input.trigger_id ?? ws.issueTrigger(owner),
      });
    },

    eventCallbackBody: (input) =>
      eventCallbackBody({ team_id: id.teamId, api_app_id: id.appId, bot_user_id: id.botUserId, ...input }),

    userMessage(input) {
      const ts = ws.nextTs();
      const threadTs = ws.threadRoot(input.channel, input.thread_ts);
      const message = ws.add(input.channel, {
        type: "message",
        user: input.user,
        text: input.text,
        ts,
        team: id.teamId,
        ...(input.blocks ? { blocks: input.blocks } : {}),
        ...(threadTs ? { thread_ts: threadTs, parent_user_id: ws.entries.get(threadTs)?.versions[0]?.user } : {}),
      });
      persist().catch((error: Error) => process.stderr.write(`local Slack could not save: ${error.message}\n`));
      const channelType = input.channel.startsWith("D") ? "im" : input.channel.startsWith("G") ? "group" : "channel";
      const body = eventCallbackBody({
        team_id: id.teamId,
        api_app_id: id.appId,
        bot_user_id: id.botUserId,
        event: { ...message, channel: input.channel, event_ts: ts, channel_type: channelType },
      });
      const mentioned = input.text.includes(`<@${id.botUserId}>`) && channelType !== "im";
      const mention = mentioned
        ? eventCallbackBody({
            team_id: id.teamId,
            api_app_id: id.appId,
            bot_user_id: id.botUserId,
            event: {
              type: "app_mention",
              user: input.user,
              text: input.text,
              ts,
              channel: input.channel,
              event_ts: ts,
              ...(threadTs ? { thread_ts: threadTs } : {}),
            },
          })
        : undefined;
      return { message, body, ...(mention ? { mention } : {}) };
    },

    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const MUTATING = new Set([
  "chat.postMessage",
  "chat.startStream",
  "chat.appendStream",
  "chat.stopStream",
  "assistant.threads.setStatus",
  "assistant.threads.setSuggestedPrompts",
  "chat.update",
  "chat.delete",
  "chat.postEphemeral",
  "reactions.add",
  "views.publish",
  "files.completeUploadExternal",
]);

/** Arguments from the query string and a JSON or form body; undefined when the JSON is broken. */
function parseArgs(req: http.IncomingMessage, url: URL, raw: string): Json | undefined {
  const args: Json = Object.fromEntries(url.searchParams);
  if ((req.headers["content-type"] ?? "").includes("application/json")) {
    try {
      const body: unknown = raw ? JSON.parse(raw) : {};
      return { ...args, ...(body as Json) };
    } catch {
      return undefined;
    }
  }
  for (const [key, value] of new URLSearchParams(raw)) args[key] = value;
  for (const key of JSON_FIELDS) {
    const value = args[key];
    if (typeof value !== "string") continue;
    try {
      args[key] = JSON.parse(value);
    } catch {
      // Left as text: the method reports it the way Slack reports malformed JSON fields.
    }
  }
  return args;
}

/**
 * Refuses, on every route (the Web API, response URLs, the page and its API), what another web page
 * could make a browser send: a Host other than this machine's loopback names at this port (a
 * DNS-rebinding page names its own, with a matching Origin), an Origin of another site, or a
 * request the browser marks as cross-site. The bot and local scripts send no Origin.
 */
export function foreignRequest(req: http.IncomingMessage, port: number): string | undefined {
  const allowed = new Set(["localhost", "127.0.0.1", "[::1]"].map((host) => `${host}:${port}`));
  if (!allowed.has(req.headers.host ?? "")) return `Only requests to localhost:${port} are taken.`;
  const origin = req.headers.origin;
  if (origin !== undefined) {
    let host: string | undefined;
    try {
      host = new URL(origin).host;
    } catch {
      host = undefined;
    }
    if (!host || !allowed.has(host)) return "Requests from other sites are refused.";
  }
  const site = req.headers["sec-fetch-site"];
  if (site === "cross-site" || site === "same-site") return "Requests from other sites are refused.";
  return undefined;
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
  res.end(JSON.stringify(body));
}
