// The Web API methods the bot uses, over an in-memory workspace: channels of
// messages with their threads, ephemerals, modals, App Home tabs, users and groups.
import { randomBytes } from "node:crypto";
import { isObject, type Json, validateBlocks, validateView, withBlockIds } from "./block-kit.js";
import type { SlackMessage, SlackView } from "./payloads.js";

export class ApiError extends Error {
  constructor(
    readonly error: string,
    readonly extra: Json = {},
  ) {
    super(error);
  }
}

export interface Identity {
  teamId: string;
  teamDomain: string;
  appId: string;
  botUserId: string;
  botId: string;
}

export interface FakeUser {
  id: string;
  name?: string;
  real_name?: string;
  email?: string;
  tz?: string;
  is_bot?: boolean;
  deleted?: boolean;
}

interface Entry {
  channel: string;
  versions: SlackMessage[];
  deleted: boolean;
  ephemeralFor?: string;
}

interface ViewEntry {
  user: string;
  versions: SlackView[];
}

/** Where a response_url came from: what replace_original and ephemeral replies act on. */
export interface ResponseContext {
  user?: string;
  channel?: string;
  ts?: string;
}

export const TEXT_FALLBACK_MISSING = "must provide a top-level text fallback when sending blocks [json-pointer:/text]";

const str = (v: unknown): string | undefined =>
  typeof v === "string" && v !== "" ? v : typeof v === "number" ? String(v) : undefined;
const bool = (v: unknown): boolean => v === true || v === "true" || v === "1" || v === 1;
const latest = <T>(versions: T[]): T => versions[versions.length - 1] as T;

export function compareTs(a: string, b: string): number {
  const [as = "0", am = "0"] = a.split(".");
  const [bs = "0", bm = "0"] = b.split(".");
  return Number(as) - Number(bs) || Number(am.padEnd(6, "0")) - Number(bm.padEnd(6, "0"));
}

/** A file uploaded through files.getUploadURLExternal (files.ts): its bytes once POSTed, shared once completed. */
export interface StoredFile {
  id: string;
  name: string;
  title: string;
  filetype: string;
  mimetype: string;
  size: number;
  user: string;
  created: number;
  content: string | null;
  shared: boolean;
}

/** What a workspace keeps across restarts: messages with their versions, App Home tabs, files, and the ts clock. */
export interface WorkspaceSnapshot {
  entries: [string, Entry][];
  homes: [string, { user: string; versions: SlackView[] }][];
  files?: [string, StoredFile][];
  lastMicros: number;
}

export class Workspace {
  /** Every message and ephemeral by ts, which is unique across the workspace. */
  readonly entries = new Map<string, Entry>();
  readonly viewEntries = new Map<string, ViewEntry>();
  readonly homes = new Map<string, string>();
  readonly users = new Map<string, FakeUser>();
  readonly usergroups = new Map<string, string[]>();
  /** Channels whose members were given; any other channel has every person in the workspace. */
  readonly channelMembers = new Map<string, string[]>();
  readonly files = new Map<string, StoredFile>();
  /** An assistant thread's status line ("is reading the location check…", shown after the app name) by "channel:thread_ts", every one set, in order. */
  readonly statuses = new Map<string, string[]>();
  /** An assistant thread's suggested prompts by "channel:thread_ts", as last set. */
  readonly suggestedPrompts = new Map<string, { title?: string; prompts: { title: string; message: string }[] }>();
  /** Where Socket Mode clients connect (apps.connections.open); unset: Socket Mode is off. */
  socketModeUrl: string | undefined;
  /** Where file bytes are POSTed and where shared files are downloaded (set once the server listens). */
  uploadUrl = "";
  filesUrl = "";
  private readonly triggers = new Map<string, { user: string; expiresAt: number; used: boolean }>();
  private lastMicros = 0;

  constructor(
    readonly id: Identity,
    readonly now: () => number,
    private readonly triggerTtlMs: number,
  ) {}

  /** Open modals are left out: like Slack's, they close when the client goes away. */
  snapshot(): WorkspaceSnapshot {
    const homes = [...this.homes.values()].flatMap((id) => {
      const entry = this.viewEntries.get(id);
      return entry ? [[id, entry] as [string, ViewEntry]] : [];
    });
    const files = [...this.files].filter(([, file]) => file.shared);
    return { entries: [...this.entries], homes, files, lastMicros: this.lastMicros };
  }

  restore(snapshot: WorkspaceSnapshot): void {
    for (const [ts, entry] of snapshot.entries) this.entries.set(ts, entry);
    for (const [id, file] of snapshot.files ?? []) this.files.set(id, file);
    for (const [id, entry] of snapshot.homes) {
      this.viewEntries.set(id, entry);
      this.homes.set(entry.user, id);
    }
    this.lastMicros = Math.max(this.lastMicros, snapshot.lastMicros);
  }

  /** The status line a thread shows now ("" when none). */
  status(channel: string, threadTs: string): string {
    return this.statuses.get(`${channel}:${threadTs}`)?.at(-1) ?? "";
  }

  setStatus(channel: string, threadTs: string, status: string): void {
    const key = `${channel}:${threadTs}`;
    this.statuses.set(key, [...(this.statuses.get(key) ?? []), status]);
  }

  /** The app's reply clears the thread's status line, as Slack does. */
  clearStatus(channel: string, threadTs: string | undefined): void {
    if (threadTs && this.status(channel, threadTs)) this.setStatus(channel, threadTs, "");
  }

  nextTs(): string {
    this.lastMicros = Math.max(this.now() * 1000, this.lastMicros + 100);
    return `${Math.floor(this.lastMicros / 1e6)}.${String(this.lastMicros % 1e6).padStart(6, "0")}`;
  }

  issueTrigger(user: string): string {
    const id = `${Math.floor(this.now() / 1000)}${String(this.triggers.size).padStart(3, "0")}.${this.id.teamId.slice(1)}.${randomBytes(16).toString("hex")}`;
    this.triggers.set(id, { user, expiresAt: this.now() + this.triggerTtlMs, used: false });
    return id;
  }

  consumeTrigger(id: string | undefined): string {
    const trigger = id === undefined ? undefined : this.triggers.get(id);
    if (!trigger) throw new ApiError("invalid_trigger_id");
    if (trigger.used) throw new ApiError("exchanged_trigger_id");
    if (this.now() > trigger.expiresAt) throw new ApiError("expired_trigger_id");
    trigger.used = true;
    return trigger.user;
  }

  entry(ts: string | undefined, channel?: string): Entry | undefined {
    const entry = ts === undefined ? undefined : this.entries.get(ts);
    return entry && !entry.deleted && (channel === undefined || entry.channel === channel) ? entry : undefined;
  }

  add(channel: string, message: SlackMessage, ephemeralFor?: string): SlackMessage {
    this.entries.set(message.ts, { channel, versions: [message], deleted: false, ephemeralFor });
    return message;
  }

  botMessage(ts: string, content: Content, threadTs?: string): SlackMessage {
    return {
      type: "message",
      text: content.text ?? "",
      user: this.id.botUserId,
      bot_id: this.id.botId,
      app_id: this.id.appId,
      team: this.id.teamId,
      ts,
      ...(content.blocks ? { blocks: withBlockIds(content.blocks) } : {}),
      ...(content.attachments !== undefined ? { attachments: content.attachments } : {}),
      ...(content.metadata !== undefined ? { metadata: content.metadata } : {}),
      ...(threadTs ? { thread_ts: threadTs, parent_user_id: this.entries.get(threadTs)?.versions[0]?.user } : {}),
    };
  }

  /** Replies to a reply land in the parent's thread; an unknown thread_ts posts to the channel. */
  threadRoot(channel: string, threadTs: string | undefined): string | undefined {
    const parent = this.entry(threadTs, channel);
    if (!parent || parent.ephemeralFor) return undefined;
    return latest(parent.versions).thread_ts ?? threadTs;
  }

  channelMessages(channel: string): SlackMessage[] {
    return this.live(channel)
      .filter((m) => !m.thread_ts || m.thread_ts === m.ts || m.reply_broadcast === true)
      .map((m) => this.decorate(m));
  }

  thread(channel: string, ts: string): SlackMessage[] {
    const parent = this.entry(ts, channel);
    if (!parent) return [];
    const root = latest(parent.versions).thread_ts ?? ts;
    const rootMessage = this.entry(root, channel);
    const replies = this.live(channel).filter((m) => m.thread_ts === root && m.ts !== root);
    return [...(rootMessage ? [this.decorate(latest(rootMessage.versions))] : []), ...replies];
  }

  ephemeralsFor(user: string): { channel: string; message: SlackMessage }[] {
    return [...this.entries.values()]
      .filter((e) => !e.deleted && e.ephemeralFor === user)
      .map((e) => ({ channel: e.channel, message: latest(e.versions) }));
  }

  private live(channel: string): SlackMessage[] {
    return [...this.entries.values()]
      .filter((e) => e.channel === channel && !e.deleted && !e.ephemeralFor)
      .map((e) => latest(e.versions))
      .sort((a, b) => compareTs(a.ts, b.ts));
  }

  /** A thread parent carries its reply summary, as conversations.history shows it. */
  decorate(message: SlackMessage): SlackMessage {
    const replies = [...this.entries.values()]
      .filter(
        (e) =>
          !e.deleted && !e.ephemeralFor && e.versions[0]?.thread_ts === message.ts && e.versions[0]?.ts !== message.ts,
      )
      .map((e) => latest(e.versions));
    if (replies.length === 0) return message;
    const users = [...new Set(replies.map((r) => String(r.user)))];
    return {
      ...message,
      thread_ts: message.ts,
      reply_count: replies.length,
      reply_users_count: users.length,
      reply_users: users,
      latest_reply: latest(replies.sort((a, b) => compareTs(a.ts, b.ts))).ts,
    };
  }

  update(entry: Entry, changes: Partial<SlackMessage>): SlackMessage {
    const next = { ...latest(entry.versions), ...changes };
    entry.versions.push(next);
    return next;
  }

  view(id: string | undefined): ViewEntry | undefined {
    return id === undefined ? undefined : this.viewEntries.get(id);
  }

  saveView(user: string, input: Json, existing?: ViewEntry, previousViewId?: string): SlackView {
    const id = existing ? latest(existing.versions).id : `V${randomBytes(5).toString("hex").toUpperCase()}`;
    const root = existing
      ? latest(existing.versions).root_view_id
      : previousViewId
        ? this.view(previousViewId)?.versions[0]?.root_view_id
        : id;
    const view: SlackView = {
      id,
      team_id: this.id.teamId,
      type: String(input.type),
      blocks: withBlockIds(input.blocks) ?? [],
      ...(input.title !== undefined ? { title: input.title } : {}),
      ...(input.submit !== undefined ? { submit: input.submit } : {}),
      ...(input.close !== undefined ? { close: input.close } : {}),
      private_metadata: str(input.private_metadata) ?? "",
      callback_id: str(input.callback_id) ?? "",
      external_id: str(input.external_id) ?? "",
      state: { values: {} },
      hash: `${Math.floor(this.now() / 1000)}.${randomBytes(4).toString("hex")}`,
      clear_on_close: bool(input.clear_on_close),
      notify_on_close: bool(input.notify_on_close),
      root_view_id: root ?? id,
      previous_view_id: previousViewId ?? null,
      app_id: this.id.appId,
      app_installed_team_id: this.id.teamId,
      bot_id: this.id.botId,
    };
    if (existing) existing.versions.push(view);
    else this.viewEntries.set(id, { user, versions: [view] });
    return view;
  }
}

export interface Content {
  text?: string;
  blocks?: Json[];
  attachments?: unknown;
  metadata?: unknown;
}

/** Text and blocks of a message, or the error Slack gives for them. */
export function messageContent(args: Json): Content {
  const text = typeof args.text === "string" ? args.text : undefined;
  if (args.blocks !== undefined) {
    const errors = validateBlocks(args.blocks, "message");
    if (!text?.trim()) errors.push(TEXT_FALLBACK_MISSING);
    if (errors.length > 0)
      throw new ApiError("invalid_blocks", {
        errors,
        response_metadata: { messages: errors.map((e) => `[ERROR] ${e}`) },
      });
  } else if (!text && args.attachments === undefined) {
    throw new ApiError("no_text");
  }
  if (text && text.length > 40000) throw new ApiError("msg_too_long");
  if (args.metadata !== undefined && !isMetadata(args.metadata)) throw new ApiError("invalid_metadata_format");
  return { text, blocks: args.blocks as Json[] | undefined, attachments: args.attachments, metadata: args.metadata };
}

/** A streamed piece of text: markdown, at most 12,000 characters a call. */
function streamedText(args: Json): string {
  if (typeof args.markdown_text !== "string" || args.markdown_text === "") throw new ApiError("invalid_arguments");
  if (args.markdown_text.length > 12000) throw new ApiError("msg_too_long");
  return args.markdown_text;
}

/** The bot's message whose stream is still open. */
function streamingEntry(ws: Workspace, args: Json) {
  const found = botEntry(ws, args, "ts", "cant_update_message");
  if (latest(found.entry.versions).streaming !== true) throw new ApiError("message_not_in_streaming_state");
  return found;
}

/** Message metadata as Slack takes it: an event type (letters, digits, underscores) and a payload object. */
function isMetadata(value: unknown): boolean {
  const metadata = value as { event_type?: unknown; event_payload?: unknown } | null;
  return (
    typeof metadata === "object" &&
    metadata !== null &&
    typeof metadata.event_type === "string" &&
    /^[a-z0-9_]{1,255}$/i.test(metadata.event_type) &&
    typeof metadata.event_payload === "object" &&
    metadata.event_payload !== null
  );
}

/** conversations.history and .replies leave metadata out unless asked with include_all_metadata, as Slack does. */
function withMetadataIf(args: Json, messages: SlackMessage[]): SlackMessage[] {
  if (bool(args.include_all_metadata)) return messages;
  return messages.map(({ metadata: _, ...message }) => message as SlackMessage);
}

function checkView(view: unknown, kind: "modal" | "home"): Json {
  const errors = validateView(view, kind);
  if (errors.length > 0)
    throw new ApiError("invalid_arguments", { response_metadata: { messages: errors.map((e) => `[ERROR] ${e}`) } });
  return view as Json;
}

function userProfile(ws: Workspace, u: FakeUser): Json {
  const name = u.name ?? u.id.toLowerCase();
  const realName = u.real_name ?? name;
  return {
    id: u.id,
    team_id: ws.id.teamId,
    name,
    deleted: u.deleted === true,
    real_name: realName,
    tz: u.tz ?? "America/Los_Angeles",
    tz_offset: -28800,
    is_bot: u.is_bot === true,
    is_app_user: false,
    profile: { real_name: realName, display_name: name, ...(u.email ? { email: u.email } : {}), team: ws.id.teamId },
  };
}

function page<T>(items: T[], args: Json, defaultLimit: number): { items: T[]; has_more: boolean; next_cursor: string } {
  const offset = str(args.cursor)
    ? Number(Buffer.from(String(args.cursor), "base64url").toString().replace("offset:", "")) || 0
    : 0;
  const limit = Number(args.limit) > 0 ? Math.min(Number(args.limit), 1000) : defaultLimit;
  const slice = items.slice(offset, offset + limit);
  const more = offset + limit < items.length;
  return {
    items: slice,
    has_more: more,
    next_cursor: more ? Buffer.from(`offset:${offset + limit}`).toString("base64url") : "",
  };
}

function inRange(ts: string, args: Json): boolean {
  const inclusive = bool(args.inclusive);
  const oldest = str(args.oldest);
  const newest = str(args.latest);
  if (oldest && (inclusive ? compareTs(ts, oldest) < 0 : compareTs(ts, oldest) <= 0)) return false;
  if (newest && (inclusive ? compareTs(ts, newest) > 0 : compareTs(ts, newest) >= 0)) return false;
  return true;
}

function botEntry(ws: Workspace, args: Json, tsKey: string, refuse: string) {
  const channel = str(args.channel);
  const entry = ws.entry(str(args[tsKey]), channel);
  if (!channel || !entry || entry.ephemeralFor) throw new ApiError("message_not_found");
  if (latest(entry.versions).bot_id !== ws.id.botId) throw new ApiError(refuse);
  return { channel, entry };
}

type Method = (ws: Workspace, args: Json) => Json;

export const methods: Record<string, Method> = {
  "auth.test": (ws) => ({
    url: `https://${ws.id.teamDomain}.slack.com/`,
    team: ws.id.teamDomain,
    user: "pool_patrol",
    team_id: ws.id.teamId,
    user_id: ws.id.botUserId,
    bot_id: ws.id.botId,
    is_enterprise_install: false,
  }),

  "apps.connections.open": (ws) => {
    if (!ws.socketModeUrl) throw new ApiError("not_allowed_token_type");
    return { url: ws.socketModeUrl };
  },

  "chat.postMessage": (ws, args) => {
    const channel = str(args.channel);
    if (!channel) throw new ApiError("channel_not_found");
    const content = messageContent(args);
    const threadTs = ws.threadRoot(channel, str(args.thread_ts));
    ws.clearStatus(channel, threadTs);
    const message = ws.add(channel, {
      ...ws.botMessage(ws.nextTs(), content, threadTs),
      ...(threadTs && bool(args.reply_broadcast) ? { reply_broadcast: true } : {}),
    });
    return { channel, ts: message.ts, message };
  },

  "chat.startStream": (ws, args) => {
    const channel = str(args.channel);
    if (!channel) throw new ApiError("channel_not_found");
    const threadTs = ws.threadRoot(channel, str(args.thread_ts));
    if (!threadTs) throw new ApiError("invalid_thread_ts");
    if (!channel.startsWith("D") && (!str(args.recipient_user_id) || !str(args.recipient_team_id)))
      throw new ApiError("missing_recipient_user_id");
    const text = streamedText(args);
    ws.clearStatus(channel, threadTs);
    const message = ws.add(channel, { ...ws.botMessage(ws.nextTs(), { text }, threadTs), streaming: true });
    return { channel, ts: message.ts };
  },

  "chat.appendStream": (ws, args) => {
    const { channel, entry } = streamingEntry(ws, args);
    const text = streamedText(args);
    const message = ws.update(entry, { text: `${latest(entry.versions).text ?? ""}${text}` });
    if (String(message.text).length > 40000) throw new ApiError("msg_too_long");
    return { channel, ts: message.ts };
  },

  "chat.stopStream": (ws, args) => {
    const { channel, entry } = streamingEntry(ws, args);
    const text = args.markdown_text === undefined ? "" : streamedText(args);
    const blocks = args.blocks === undefined ? undefined : messageContent({ text: "-", blocks: args.blocks }).blocks;
    if (args.metadata !== undefined && !isMetadata(args.metadata)) throw new ApiError("invalid_metadata_format");
    const message = ws.update(entry, {
      text: `${latest(entry.versions).text ?? ""}${text}`,
      streaming: false,
      ...(blocks ? { blocks: withBlockIds(blocks) } : {}),
      ...(args.metadata !== undefined ? { metadata: args.metadata } : {}),
    });
    return { channel, ts: message.ts, message };
  },

  "assistant.threads.setStatus": (ws, args) => {
    const channel = str(args.channel_id);
    const threadTs = str(args.thread_ts);
    if (!channel || !threadTs || !ws.entry(threadTs, channel)) throw new ApiError("invalid_thread_ts");
    if (typeof args.status !== "string") throw new ApiError("invalid_arguments");
    ws.setStatus(channel, threadTs, args.status);
    return {};
  },

  "assistant.threads.setSuggestedPrompts": (ws, args) => {
    const channel = str(args.channel_id);
    const threadTs = str(args.thread_ts);
    if (!channel || !threadTs) throw new ApiError("invalid_thread_ts");
    const prompts = args.prompts;
    const valid =
      Array.isArray(prompts) &&
      prompts.length >= 1 &&
      prompts.length <= 4 &&
      prompts.every((p) => isObject(p) && str(p.title) !== undefined && str(p.message) !== undefined);
    if (!valid) throw new ApiError("invalid_arguments");
    ws.suggestedPrompts.set(`${channel}:${threadTs}`, {
      ...(str(args.title) ? { title: str(args.title) } : {}),
      prompts: (prompts as Json[]).map((p) => ({ title: String(p.title), message: String(p.message) })),
    });
    return {};
  },

  "chat.update": (ws, args) => {
    const { channel, entry } = botEntry(ws, args, "ts", "cant_update_message");
    const content = messageContent(args);
    const message = ws.update(entry, {
      ...(content.text !== undefined ? { text: content.text } : {}),
      ...(content.blocks !== undefined ? { blocks: withBlockIds(content.blocks) } : {}),
      ...(content.attachments !== undefined ? { attachments: content.attachments } : {}),
      edited: { user: ws.id.botUserId, ts: ws.nextTs() },
      ...(latest(entry.versions).streaming ? { streaming: false } : {}),
    });
    return { channel, ts: message.ts, text: message.text, message };
  },

  "chat.delete": (ws, args) => {
    const { channel, entry } = botEntry(ws, args, "ts", "cant_delete_message");
    entry.deleted = true;
    return { channel, ts: latest(entry.versions).ts };
  },

  "chat.postEphemeral": (ws, args) => {
    const channel = str(args.channel);
    const user = str(args.user);
    if (!channel) throw new ApiError("channel_not_found");
    if (!user) throw new ApiError("user_not_in_channel");
    const content = messageContent(args);
    const message = ws.add(
      channel,
      ws.botMessage(ws.nextTs(), content, ws.threadRoot(channel, str(args.thread_ts))),
      user,
    );
    return { message_ts: message.ts };
  },

  "chat.getPermalink": (ws, args) => {
    const channel = str(args.channel);
    const entry = ws.entry(str(args.message_ts), channel);
    if (!channel || !entry || entry.ephemeralFor) throw new ApiError("message_not_found");
    const message = latest(entry.versions);
    const thread =
      message.thread_ts && message.thread_ts !== message.ts ? `?thread_ts=${message.thread_ts}&cid=${channel}` : "";
    return {
      channel,
      permalink: `https://${ws.id.teamDomain}.slack.com/archives/${channel}/p${message.ts.replace(".", "")}${thread}`,
    };
  },

  "conversations.history": (ws, args) => {
    const channel = str(args.channel);
    if (!channel) throw new ApiError("channel_not_found");
    const newestFirst = ws
      .channelMessages(channel)
      .filter((m) => inRange(m.ts, args))
      .reverse();
    const { items, has_more, next_cursor } = page(newestFirst, args, 100);
    return { messages: withMetadataIf(args, items), has_more, pin_count: 0, response_metadata: { next_cursor } };
  },

  "conversations.replies": (ws, args) => {
    const channel = str(args.channel);
    const ts = str(args.ts);
    if (!channel || !ts || !ws.entry(ts, channel) || ws.entry(ts)?.ephemeralFor) throw new ApiError("thread_not_found");
    const { items, has_more, next_cursor } = page(
      ws.thread(channel, ts).filter((m, i) => i === 0 || inRange(m.ts, args)),
      args,
      1000,
    );
    return { messages: withMetadataIf(args, items), has_more, response_metadata: { next_cursor } };
  },

  "reactions.add": (ws, args) => {
    const name = str(args.name);
    const entry = ws.entry(str(args.timestamp), str(args.channel));
    if (!name) throw new ApiError("invalid_name");
    if (!entry || entry.ephemeralFor) throw new ApiError("message_not_found");
    const reactions =
      (latest(entry.versions).reactions as { name: string; users: string[]; count: number }[] | undefined) ?? [];
    const existing = reactions.find((r) => r.name === name);
    if (existing?.users.includes(ws.id.botUserId)) throw new ApiError("already_reacted");
    const next = existing
      ? reactions.map((r) => (r === existing ? { ...r, users: [...r.users, ws.id.botUserId], count: r.count + 1 } : r))
      : [...reactions, { name, users: [ws.id.botUserId], count: 1 }];
    ws.update(entry, { reactions: next });
    return {};
  },

  "views.open": (ws, args) => {
    const view = checkView(args.view, "modal");
    return { view: ws.saveView(ws.consumeTrigger(str(args.trigger_id)), view) };
  },

  "views.push": (ws, args) => {
    const view = checkView(args.view, "modal");
    const user = ws.consumeTrigger(str(args.trigger_id));
    const below = [...ws.viewEntries.entries()]
      .filter(([, e]) => e.user === user && e.versions[0]?.type === "modal")
      .map(([id]) => id)
      .pop();
    return { view: ws.saveView(user, view, undefined, below) };
  },

  "views.update": (ws, args) => {
    const externalId = str(args.external_id);
    const existing =
      ws.view(str(args.view_id)) ??
      [...ws.viewEntries.values()].find(
        (e) => externalId !== undefined && latest(e.versions).external_id === externalId,
      );
    if (!existing) throw new ApiError("not_found");
    const current = latest(existing.versions);
    const view = checkView(args.view, current.type === "home" ? "home" : "modal");
    if (str(args.hash) && args.hash !== current.hash) throw new ApiError("hash_conflict");
    return { view: ws.saveView(existing.user, view, existing) };
  },

  "views.publish": (ws, args) => {
    const user = str(args.user_id);
    if (!user)
      throw new ApiError("invalid_arguments", {
        response_metadata: { messages: ["[ERROR] missing required field: user_id"] },
      });
    const view = checkView(args.view, "home");
    const existing = ws.view(ws.homes.get(user));
    if (existing && str(args.hash) && args.hash !== latest(existing.versions).hash) throw new ApiError("hash_conflict");
    const saved = ws.saveView(user, view, existing);
    ws.homes.set(user, saved.id);
    return { view: saved };
  },

  "users.info": (ws, args) => {
    const user = ws.users.get(str(args.user) ?? "");
    if (!user) throw new ApiError("user_not_found");
    return { user: userProfile(ws, user) };
  },

  "conversations.members": (ws, args) => {
    const channel = str(args.channel);
    if (!channel) throw new ApiError("channel_not_found");
    const members =
      ws.channelMembers.get(channel) ??
      [...ws.users.values()].filter((user) => !user.deleted && !user.is_bot).map((user) => user.id);
    const { items, next_cursor } = page(members, args, 100);
    return { members: items, response_metadata: { next_cursor } };
  },

  "usergroups.users.list": (ws, args) => {
    const members = ws.usergroups.get(str(args.usergroup) ?? "");
    if (!members) throw new ApiError("no_such_subteam");
    return { users: [...members] };
  },
};

/** Applies what an app POSTs to a response_url, as Slack would. */
export function applyResponse(ws: Workspace, context: ResponseContext, body: Json): void {
  const original = context.ts ? ws.entry(context.ts, context.channel) : undefined;
  if (bool(body.delete_original)) {
    if (!original) throw new ApiError("message_not_found");
    original.deleted = true;
    return;
  }
  const content = messageContent(body);
  if (bool(body.replace_original)) {
    if (!original) throw new ApiError("message_not_found");
    ws.update(original, {
      text: content.text ?? "",
      ...(content.blocks ? { blocks: withBlockIds(content.blocks) } : { blocks: undefined }),
    });
    return;
  }
  if (!context.channel) throw new ApiError("channel_not_found");
  const threadTs = ws.threadRoot(context.channel, str(body.thread_ts));
  const message = ws.botMessage(ws.nextTs(), content, threadTs);
  if (body.response_type === "in_channel") ws.add(context.channel, message);
  else ws.add(context.channel, message, context.user);
}

/** Form fields Slack decodes as JSON. */
export const JSON_FIELDS = new Set([
  "blocks",
  "attachments",
  "view",
  "metadata",
  "user_auth_blocks",
  "unfurls",
  "files",
  "prompts",
  "chunks",
]);
