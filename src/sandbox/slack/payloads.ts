// What Slack sends to an app: signed slash commands, interactions and events. An
// interaction can only be built from elements the bot actually rendered, so a test
// cannot click a button the app never showed.
import { createHmac, randomBytes } from "node:crypto";
import { inputElements, interactiveElements, isObject, type Json, optionsOf, type Rendered } from "./block-kit.js";

export interface SlackMessage {
  type: "message";
  ts: string;
  text?: string;
  blocks?: Json[];
  thread_ts?: string;
  user?: string;
  bot_id?: string;
  [key: string]: unknown;
}

export interface SlackView {
  id: string;
  type: string;
  blocks: Json[];
  hash: string;
  [key: string]: unknown;
}

/** A user id, or the user object Slack puts in payloads. */
export type UserRef = string | { id: string; name?: string; username?: string; team_id?: string };

/** Ids of the fake workspace; the fake and the builders agree on them unless told otherwise. */
export const FAKE_WORKSPACE = {
  teamId: "T0FAKETEAM",
  teamDomain: "poolpatrol-test",
  appId: "A0POOLPATROL",
  botUserId: "U0POOLBOT",
  botId: "B0POOLBOT",
  botToken: "xoxb-fake-pool-patrol",
  verificationToken: "fake-verification-token",
} as const;

interface Workspace {
  team_id?: string;
  team_domain?: string;
  api_app_id?: string;
}

export type SignatureHeaders = { "x-slack-signature": string; "x-slack-request-timestamp": string };

export function signRequest(
  signingSecret: string,
  rawBody: string,
  timestamp: number | string = Math.floor(Date.now() / 1000),
): SignatureHeaders {
  const ts = String(timestamp);
  const hex = createHmac("sha256", signingSecret).update(`v0:${ts}:${rawBody}`).digest("hex");
  return { "x-slack-signature": `v0=${hex}`, "x-slack-request-timestamp": ts };
}

/** POSTs a built body to the app the way Slack does: JSON for events, a form otherwise. */
export function postSigned(
  url: string,
  signingSecret: string,
  rawBody: string,
  options: { timestamp?: number } = {},
): Promise<Response> {
  const contentType = rawBody.startsWith("{") ? "application/json" : "application/x-www-form-urlencoded";
  return fetch(url, {
    method: "POST",
    headers: { "content-type": contentType, ...signRequest(signingSecret, rawBody, options.timestamp) },
    body: rawBody,
  });
}

export interface SlashCommandInput extends Workspace {
  command: string;
  text?: string;
  user_id: string;
  user_name?: string;
  channel_id: string;
  channel_name?: string;
  trigger_id: string;
  response_url: string;
}

export function slashCommandBody(input: SlashCommandInput): string {
  const team = workspace(input);
  return new URLSearchParams({
    token: FAKE_WORKSPACE.verificationToken,
    team_id: team.team_id,
    team_domain: team.team_domain,
    channel_id: input.channel_id,
    channel_name: input.channel_name ?? input.channel_id,
    user_id: input.user_id,
    user_name: input.user_name ?? input.user_id,
    command: input.command,
    text: input.text ?? "",
    api_app_id: team.api_app_id,
    is_enterprise_install: "false",
    response_url: input.response_url,
    trigger_id: input.trigger_id,
  }).toString();
}

/** What the user did to one rendered element: its action_id, plus the button value or chosen option(s). */
export interface ActionInput {
  action_id: string;
  block_id?: string;
  value?: string;
  values?: string[];
  [key: string]: unknown;
}

export interface BlockActionInput extends Workspace {
  user: UserRef;
  /** A message in a channel (with `channel`), or a modal / App Home view. */
  channel?: string;
  message?: SlackMessage;
  ephemeral?: boolean;
  view?: SlackView;
  action: ActionInput;
  trigger_id: string;
  response_url?: string;
}

export function blockActionPayload(input: BlockActionInput): string {
  const team = workspace(input);
  const user = userObject(input.user, team.team_id);
  const source = input.message ?? input.view;
  if (!source) throw new Error("blockActionPayload needs the message or view the action is in");
  const action = {
    ...actionFrom(clickTarget(source.blocks, input.action), input.action),
    action_ts: slackTs(Date.now()),
  };
  const common = {
    type: "block_actions",
    user,
    api_app_id: team.api_app_id,
    token: FAKE_WORKSPACE.verificationToken,
    trigger_id: input.trigger_id,
    team: { id: team.team_id, domain: team.team_domain },
    enterprise: null,
    is_enterprise_install: false,
  };
  let payload: Json;
  if (input.message) {
    if (!input.channel) throw new Error("blockActionPayload needs the channel of the message");
    const m = input.message;
    payload = {
      ...common,
      container: {
        type: "message",
        message_ts: m.ts,
        channel_id: input.channel,
        is_ephemeral: input.ephemeral === true,
        ...(m.thread_ts ? { thread_ts: m.thread_ts } : {}),
      },
      channel: { id: input.channel, name: input.channel },
      // Slack leaves the message out when the user clicked in an ephemeral one.
      ...(input.ephemeral ? {} : { message: m }),
      state: { values: {} },
      ...(input.response_url ? { response_url: input.response_url } : {}),
      actions: [action],
    };
  } else {
    const view = input.view as SlackView;
    payload = { ...common, container: { type: "view", view_id: view.id }, view, actions: [action] };
  }
  return formPayload(payload);
}

/** Values by action_id: text for inputs, option values for selects, ids for user/conversation pickers. */
export type InputValue = string | string[] | null | Json;

export interface ViewSubmissionInput extends Workspace {
  user: UserRef;
  view: SlackView;
  values?: Record<string, InputValue>;
  trigger_id: string;
}

export function viewSubmissionPayload(input: ViewSubmissionInput): string {
  const team = workspace(input);
  return formPayload({
    type: "view_submission",
    team: { id: team.team_id, domain: team.team_domain },
    user: userObject(input.user, team.team_id),
    api_app_id: team.api_app_id,
    token: FAKE_WORKSPACE.verificationToken,
    trigger_id: input.trigger_id,
    view: { ...input.view, state: { values: submittedState(input.view, input.values ?? {}) } },
    response_urls: [],
    is_enterprise_install: false,
    enterprise: null,
  });
}

export interface EventCallbackInput {
  event: Json;
  event_id?: string;
  team_id?: string;
  api_app_id?: string;
  event_time?: number;
  bot_user_id?: string;
}

export function eventCallbackBody(input: EventCallbackInput): string {
  const teamId = input.team_id ?? FAKE_WORKSPACE.teamId;
  const now = Date.now();
  return JSON.stringify({
    token: FAKE_WORKSPACE.verificationToken,
    team_id: teamId,
    api_app_id: input.api_app_id ?? FAKE_WORKSPACE.appId,
    event: { event_ts: slackTs(now), ...input.event },
    type: "event_callback",
    event_id: input.event_id ?? `Ev${randomBytes(5).toString("hex").toUpperCase()}`,
    event_time: input.event_time ?? Math.floor(now / 1000),
    authorizations: [
      {
        enterprise_id: null,
        team_id: teamId,
        user_id: input.bot_user_id ?? FAKE_WORKSPACE.botUserId,
        is_bot: true,
        is_enterprise_install: false,
      },
    ],
    is_ext_shared_channel: false,
  });
}

/** A Slack timestamp ("seconds.micros") for a time in milliseconds. */
export function slackTs(ms: number, micros = 0): string {
  return `${Math.floor(ms / 1000)}.${String((ms % 1000) * 1000 + micros).padStart(6, "0")}`;
}

function workspace(input: Workspace): Required<Workspace> {
  return {
    team_id: input.team_id ?? FAKE_WORKSPACE.teamId,
    team_domain: input.team_domain ?? FAKE_WORKSPACE.teamDomain,
    api_app_id: input.api_app_id ?? FAKE_WORKSPACE.appId,
  };
}

function userObject(user: UserRef, teamId: string): Json {
  const u = typeof user === "string" ? { id: user } : user;
  const name = u.name ?? u.username ?? u.id;
  return { id: u.id, username: u.username ?? name, name, team_id: u.team_id ?? teamId };
}

const formPayload = (payload: Json) => new URLSearchParams({ payload: JSON.stringify(payload) }).toString();

function clickTarget(blocks: unknown, action: ActionInput): Rendered {
  const rendered = interactiveElements(blocks);
  const described =
    rendered
      .map((r) => `${String(r.element.action_id)}${r.element.value !== undefined ? `=${String(r.element.value)}` : ""}`)
      .join(", ") || "nothing";
  const candidates = rendered.filter(
    (r) =>
      r.element.action_id === action.action_id && (action.block_id === undefined || r.block_id === action.block_id),
  );
  if (candidates.length === 0)
    throw new Error(`no element with action_id "${action.action_id}" is rendered here (rendered: ${described})`);
  const match = candidates.find(
    (r) => r.element.type !== "button" || action.value === undefined || r.element.value === action.value,
  );
  if (!match)
    throw new Error(
      `button "${action.action_id}" is rendered with another value than "${action.value}" (rendered: ${described})`,
    );
  return match;
}

function actionFrom({ block_id, element }: Rendered, input: ActionInput): Json {
  const type = String(element.type);
  const base = { type, block_id, action_id: element.action_id };
  if (type === "button") return { ...base, text: element.text, ...pick(element, ["value", "style", "url"]) };
  if (type === "feedback_buttons") {
    const clicked = [element.positive_button, element.negative_button].find(
      (b) => isObject(b) && b.value === input.value,
    ) as Json | undefined;
    if (!clicked) throw new Error(`feedback buttons "${String(element.action_id)}" have no button "${input.value}"`);
    return { ...base, text: clicked.text, value: clicked.value };
  }
  const { action_id: _a, block_id: _b, value, values, ...rest } = input;
  if (type === "static_select" || type === "overflow" || type === "radio_buttons") {
    return {
      ...base,
      selected_option: value === undefined ? (rest.selected_option ?? null) : option(element, value),
      ...pick(element, ["placeholder"]),
    };
  }
  if (type === "multi_static_select" || type === "checkboxes") {
    return { ...base, selected_options: (values ?? []).map((v) => option(element, v)) };
  }
  return { ...base, ...rest };
}

function option(element: Json, value: string): Json {
  // An external select's options come from the app's options load; those it shows at first are its initial ones.
  const shown = [...optionsOf(element), ...[element.initial_option, element.initial_options].flat().filter(isObject)];
  const found = shown.find((o) => o.value === value);
  if (!found)
    throw new Error(
      `"${String(element.action_id)}" has no option "${value}" (options: ${[...new Set(shown.map((o) => String(o.value)))].join(", ")})`,
    );
  return found;
}

function pick(source: Json, keys: string[]): Json {
  return Object.fromEntries(keys.filter((k) => source[k] !== undefined).map((k) => [k, source[k]]));
}

function submittedState(view: SlackView, values: Record<string, InputValue>): Record<string, Record<string, Json>> {
  const inputs = inputElements(view.blocks);
  for (const actionId of Object.keys(values)) {
    if (!inputs.some((i) => i.element.action_id === actionId)) {
      throw new Error(
        `the view has no input "${actionId}" (inputs: ${inputs.map((i) => String(i.element.action_id)).join(", ") || "none"})`,
      );
    }
  }
  const state: Record<string, Record<string, Json>> = {};
  for (const { block_id, element, optional } of inputs) {
    const actionId = String(element.action_id);
    const entry = stateEntry(element, values[actionId]);
    if (!optional && isEmpty(entry))
      throw new Error(`input "${actionId}" is required; Slack would not let the user submit without it`);
    state[block_id] = { ...state[block_id], [actionId]: entry };
  }
  return state;
}

// A value left out is whatever the view showed initially, as in Slack; null is a choice or text cleared.
function stateEntry(element: Json, given: InputValue | undefined): Json {
  const type = String(element.type);
  if (isObject(given)) return { type, ...given };
  const one = (key: string, initial: string) => ({
    type,
    [key]: given === undefined ? (element[initial] ?? null) : given === "" ? null : given,
  });
  const many = (key: string, initial: string) => ({
    type,
    [key]: given === undefined ? (element[initial] ?? []) : Array.isArray(given) ? given : [],
  });
  switch (type) {
    case "static_select":
    case "external_select":
    case "radio_buttons":
      return {
        type,
        selected_option:
          given === undefined
            ? (element.initial_option ?? null)
            : typeof given === "string" && given !== ""
              ? option(element, given)
              : null,
      };
    case "multi_static_select":
    case "multi_external_select":
    case "checkboxes":
      return {
        type,
        selected_options: Array.isArray(given) ? given.map((v) => option(element, v)) : (element.initial_options ?? []),
      };
    case "users_select":
      return one("selected_user", "initial_user");
    case "multi_users_select":
      return many("selected_users", "initial_users");
    case "conversations_select":
      return one("selected_conversation", "initial_conversation");
    case "multi_conversations_select":
      return many("selected_conversations", "initial_conversations");
    case "channels_select":
      return one("selected_channel", "initial_channel");
    case "multi_channels_select":
      return many("selected_channels", "initial_channels");
    case "datepicker":
      return one("selected_date", "initial_date");
    case "timepicker":
      return one("selected_time", "initial_time");
    default:
      // plain_text_input, email_text_input, url_text_input, number_input, rich text: a value.
      return one("value", "initial_value");
  }
}

function isEmpty(entry: Json): boolean {
  const { type: _type, ...rest } = entry;
  return Object.values(rest).every(
    (v) => v === null || v === undefined || v === "" || (Array.isArray(v) && v.length === 0),
  );
}
