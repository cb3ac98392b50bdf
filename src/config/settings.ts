// Every setting Pool Patrol reads from the environment, parsed and validated once.
// A wrong value stops start-up with a message that names the variable.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import cron from "node-cron";
import { z } from "zod";
import { isTimeZone } from "../domain/schedule.js";

/** The folder with package.json, whether this file runs from src/ or compiled from dist/src/. */
export const PROJECT_ROOT = findProjectRoot(path.dirname(fileURLToPath(import.meta.url)));

function findProjectRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, "package.json"))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`No package.json above ${from}.`);
  }
}

const emptyAsUndefined = (value: unknown) => (value === "" ? undefined : value);
const optionalString = z.preprocess(emptyAsUndefined, z.string().optional());

const postgresUrl = z.preprocess(
  emptyAsUndefined,
  z
    .string()
    .refine((value) => {
      try {
        const url = new URL(value);
        return (
          (url.protocol === "postgresql:" || url.protocol === "postgres:") &&
          url.hostname !== "" &&
          url.pathname.length > 1
        );
      } catch {
        return false;
      }
    }, "must be a URL like postgresql://user:password@host:5432/database")
    .optional(),
);

const number = (fallback: number, check: (n: z.ZodNumber) => z.ZodNumber) =>
  z.preprocess(emptyAsUndefined, check(z.coerce.number({ error: "must be a number" })).default(fallback));

const settingsSchema = z.object({
  DATABASE_URL: postgresUrl,
  POOLPATROL_DATA_DIR: optionalString,
  POOLPATROL_DB_POOL_SIZE: number(12, (n) => n.int("must be a whole number").min(4).max(500)),
  POOLPATROL_MAX_DISTANCE_MILES: number(50, (n) => n.positive("must be greater than 0")),
  POOLPATROL_SHIFT_TOLERANCE_MINUTES: number(60, (n) => n.int("must be a whole number of minutes").min(0).max(720)),
  POOLPATROL_SHIFT_MIN_COMPATIBLE_RATIO: number(0.8, (n) => n.gt(0, "must be above 0").max(1, "must be at most 1")),
  POOLPATROL_TIMEZONE: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .refine(isTimeZone, "must be an IANA time zone such as America/Los_Angeles")
      .default("America/Los_Angeles"),
  ),
  GOOGLE_MAPS_API_KEY: optionalString,
  GOOGLE_MAPS_BROWSER_KEY: optionalString,
  GOOGLE_MAPS_BASE_URL: z.preprocess(emptyAsUndefined, z.url({ error: "must be a URL" }).optional()),
  RESEND_API_KEY: optionalString,
  RESEND_BASE_URL: z.preprocess(emptyAsUndefined, z.url({ error: "must be a URL" }).optional()),
  POOLPATROL_EMAIL_FROM: z.preprocess(
    emptyAsUndefined,
    z.string().min(3).default("Pool Patrol <pool-patrol@northwind.example>"),
  ),
  POOLPATROL_INBOUND_ADDRESS: z.preprocess(
    emptyAsUndefined,
    z.email({ error: "must be an email address like replies@inbound.example.com" }).optional(),
  ),
  RESEND_WEBHOOK_SECRET: z.preprocess(
    emptyAsUndefined,
    z.string().startsWith("whsec_", "must be the webhook's signing secret, starting with whsec_").optional(),
  ),
  POOLPATROL_CC_COORDINATOR: z.preprocess(
    emptyAsUndefined,
    z.enum(["true", "false", "1", "0", "yes", "no"], { error: "must be true or false" }).default("false"),
  ),
  OPENAI_API_KEY: optionalString,
  OPENAI_BASE_URL: z.preprocess(emptyAsUndefined, z.url({ error: "must be a URL" }).optional()),
  POOLPATROL_MODEL_CASE_MANAGER: optionalString,
  POOLPATROL_MODEL_OUTREACH: optionalString,
  POOLPATROL_MODEL_LOCATION: optionalString,
  POOLPATROL_MODEL_SHIFT: optionalString,
  POOLPATROL_MODEL_TIMEOUT_MS: number(30_000, (n) => n.int().min(1000, "must be at least 1000 (ms)")),
  SLACK_BOT_TOKEN: optionalString,
  SLACK_SIGNING_SECRET: optionalString,
  SLACK_APP_TOKEN: optionalString,
  SLACK_API_URL: z.preprocess(emptyAsUndefined, z.url({ error: "must be a URL" }).optional()),
  SLACK_CLIENT_ID: optionalString,
  SLACK_CLIENT_SECRET: optionalString,
  PORT: number(3000, (n) => n.int().min(0).max(65535)),
  POOLPATROL_WEB_URL: z.preprocess(emptyAsUndefined, z.url({ error: "must be a URL" }).optional()),
  POOLPATROL_AUDIT_CHANNEL: optionalString,
  POOLPATROL_APPROVERS: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(
        /^\s*[A-Z0-9]+(\s*,\s*[A-Z0-9]+)*\s*$/,
        "must be Slack user or user-group ids separated by commas, like U012ABC,S034DEF",
      )
      .optional(),
  ),
  POOLPATROL_REPLY_WARMUP: z.preprocess(
    emptyAsUndefined,
    z.enum(["true", "false"], { error: "must be true or false" }).default("true"),
  ),
  POOLPATROL_RESTRICT_AUDITS: z.preprocess(
    emptyAsUndefined,
    z.enum(["true", "false"], { error: "must be true or false" }).default("true"),
  ),
  POOLPATROL_REMINDER_HOURS: number(24, (n) => n.positive()),
  POOLPATROL_APPROVAL_EXPIRY_HOURS: number(72, (n) => n.positive()),
  POOLPATROL_CANCEL_APPROVALS: number(1, (n) => n.int().min(1, "must be 1 or 2").max(2, "must be 1 or 2")),
  POOLPATROL_UNDO_MINUTES: number(10, (n) => n.min(0)),
  POOLPATROL_EXCEPTION_DAYS: number(180, (n) => n.int("must be a whole number of days").min(1)),
  POOLPATROL_DIGEST_CRON: z.preprocess(emptyAsUndefined, z.string().default("0 9 * * 1-5")),
  POOLPATROL_CHECKPOINT_RETENTION_DAYS: number(30, (n) => n.int("must be a whole number of days").min(1)),
  POOLPATROL_HTTP_TIMEOUT_MS: number(15_000, (n) => n.int().min(1000, "must be at least 1000 (ms)")),
  POOLPATROL_SLACK_POST_INTERVAL_MS: number(1000, (n) => n.int("must be a whole number of ms").min(0)),
  POOLPATROL_CLAIM_SECONDS: number(20, (n) => n.int("must be a whole number of seconds").min(2)),
  POOLPATROL_JOB_CONCURRENCY: number(4, (n) => n.int().min(1).max(64)),
  POOLPATROL_AUDIT_CRON: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .default("0 6 * * 1")
      .refine((v) => cron.validate(v), { error: "is not a cron expression" }),
  ),
  POOLPATROL_SWEEP_CONCURRENCY: number(4, (n) => n.int("must be a whole number").min(1).max(64)),
  POOLPATROL_SWEEP_PAGE_SIZE: number(500, (n) => n.int("must be a whole number").min(10).max(5000)),
  POOLPATROL_SWEEP_PAGE_TIMEOUT_SECONDS: number(900, (n) => n.int("must be a whole number of seconds").min(5)),
  // 0 tries again at once (tests: the same five tries without the doubling pauses).
  POOLPATROL_SWEEP_RETRY_DELAY_SECONDS: number(5, (n) => n.int("must be a whole number of seconds").min(0)),
  POOLPATROL_IMPORT_CRON: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .refine((v) => cron.validate(v), { error: "is not a cron expression" })
      .optional(),
  ),
  POOLPATROL_IMPORT_DIR: optionalString,
  POOLPATROL_IMPORT_URL: z.preprocess(
    emptyAsUndefined,
    z
      .url({ error: "must be a URL" })
      .refine((v) => v.includes("{kind}"), "must contain {kind}, replaced by employees, shifts, vanpools and riders")
      .refine(
        (v) => v.startsWith("https://") || /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])[:/]/.test(v),
        "must be an https:// URL (plain http only to localhost, for tests)",
      )
      .optional(),
  ),
  POOLPATROL_IMPORT_TOKEN: optionalString,
  POOLPATROL_IMPORT_MAPPINGS: optionalString,
  POOLPATROL_WORKER_PROCESSES: number(1, (n) => n.int("must be a whole number").min(0).max(16)),
  LANGSMITH_API_KEY: optionalString,
  LANGSMITH_ENDPOINT: z.preprocess(emptyAsUndefined, z.url({ error: "must be a URL" }).optional()),
  LANGSMITH_PROJECT: z.preprocess(emptyAsUndefined, z.string().default("pool-patrol")),
});

/** "Pool Patrol <pool-patrol@example.com>" -> "pool-patrol@example.com" */
export function bareAddress(address: string): string {
  return (address.match(/<([^>]+)>/)?.[1] ?? address).trim();
}

export interface Settings {
  databaseUrl: string | undefined;
  dataDir: string;
  /** Database connections one process may open at most (its pools together). */
  dbPoolSize: number;
  /** Default time zone for audit weeks (a vanpool's own time zone wins) and schedules. */
  timeZone: string;
  policy: VerificationPolicy;
  googleMaps: { apiKey: string; baseUrl: string | undefined } | undefined;
  /** The key the vanpool page's Google map uses in the browser; the offline map without one. */
  webMapKey: string | undefined;
  email: {
    from: string;
    /** Replies come back to this address, plus-addressed per thread (replies+THREAD-…@domain). */
    inboundAddress: string;
    /** Signs Resend's webhooks; without it Pool Patrol makes one for local use (see inbound/webhook-secret.ts). */
    webhookSecret: string | undefined;
    ccCoordinator: boolean;
    resend: { apiKey: string; baseUrl: string | undefined } | undefined;
  };
  /** "rules" or an OpenAI model name, per agent. */
  models: Record<AgentName, string>;
  openai: { apiKey: string; baseUrl: string | undefined } | undefined;
  modelTimeoutMs: number;
  /** Present when the Slack bot can run; `missing` says what is not set otherwise. */
  slack: SlackSettings | undefined;
  slackMissing: string[];
  /** HTTP port: the Slack endpoint in HTTP mode, or the sandbox's page. */
  port: number;
  schedule: { reminderHours: number; approvalExpiryHours: number; digestCron: string };
  /** How many different approvers a rider's removal needs (1 or 2). */
  cancelApprovals: number;
  /** How long after a cancellation is carried out its card offers Undo (0: never). */
  undoMinutes: number;
  /** How long a person's exception for a failing rider holds at most (docs/exceptions.md). */
  exceptionDays: number;
  jobs: {
    /** Checkpoint threads of cases closed longer than this are deleted by the retention job. */
    checkpointRetentionDays: number;
    /** Jobs of one queue run at the same time in one process. */
    concurrency: number;
  };
  /** Every call to Resend, Google Maps and Slack gives up after this long. */
  httpTimeoutMs: number;
  /** Spacing of posts to one Slack channel, shared by every process (Slack allows about one a second); 0: none. */
  slackPostIntervalMs: number;
  /**
   * How long a process's claim on a piece of work (a case's turn, a Slack post) keeps the others away, renewed
   * while the work runs: a process killed holding one holds up the next for at most this long.
   */
  claimMs: number;
  /** Audits of every vanpool: on `cron`, in pages of `pageSize`, `concurrency` case steps at a time per page. */
  sweep: {
    cron: string;
    concurrency: number;
    pageSize: number;
    pageTimeoutSeconds: number;
    retryDelaySeconds: number;
  };
  /** The scheduled import sync (docs/import.md): absent unless POOLPATROL_IMPORT_CRON is set. */
  importSync: ImportSyncSettings | undefined;
  /**
   * `poolpatrol worker` processes a bot or the sandbox starts and supervises, so a sweep's CPU work runs
   * outside the process answering Slack; 0: the bot works every queue itself.
   */
  workerProcesses: number;
  /**
   * Whether the bot and the sandbox train the reply reader and load its sentence encoder right after they start,
   * so the first rider reply does not wait seconds for it (docs/reply-buckets.md).
   */
  replyWarmup: boolean;
  langsmith: { apiKey: string; endpoint: string | undefined; project: string } | undefined;
}

export interface ImportSyncSettings {
  cron: string;
  /** Where the files are: a folder an export job drops files into, or a URL with `{kind}` in it. */
  source: { dir: string } | { url: string; token: string | undefined };
  /** A folder with `<kind>.mapping.json` files (default: the import folder itself). */
  mappingsDir: string | undefined;
}

export type AgentName = "case_manager" | "outreach" | "location" | "shift";
/** The seeds' models, used when an OpenAI key is configured and no model is named. */
const SEED_MODELS: Record<AgentName, string> = {
  case_manager: "gpt-4.1",
  outreach: "gpt-4.1",
  location: "gpt-4.1-mini",
  shift: "gpt-4.1-mini",
};

export interface SlackSettings {
  botToken: string;
  /** HTTP mode; Socket Mode uses appToken instead. */
  signingSecret: string | undefined;
  appToken: string | undefined;
  apiUrl: string | undefined;
  port: number;
  auditChannel: string;
  /** Slack user ids (U…/W…) and user-group ids (S…) allowed to decide. */
  approvers: string[];
  /** Only approvers may start audits and re-audits from Slack. */
  restrictAudits: boolean;
  /** Where people open the web pages (`/poolpatrol web` links there), without a trailing slash. */
  webUrl: string;
  /**
   * Sign in with Slack (OpenID Connect) on the web pages: the app's client credentials, when both are set,
   * and where Slack's approval page is when it is not beside the Web API (the sandbox: on the pages' host).
   */
  signIn?: { clientId: string; clientSecret: string; authorizeUrl?: string };
}

export interface VerificationPolicy {
  maxDistanceMiles: number;
  shiftToleranceMinutes: number;
  minCompatibleDayRatio: number;
}

export class SettingsError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "SettingsError";
  }
}

function slack(s: z.infer<typeof settingsSchema>): { slack: SlackSettings | undefined; slackMissing: string[] } {
  const missing = [
    ...(s.SLACK_BOT_TOKEN ? [] : ["SLACK_BOT_TOKEN"]),
    ...(s.SLACK_APP_TOKEN || s.SLACK_SIGNING_SECRET
      ? []
      : ["SLACK_APP_TOKEN (Socket Mode) or SLACK_SIGNING_SECRET (HTTP mode)"]),
    ...(s.POOLPATROL_AUDIT_CHANNEL ? [] : ["POOLPATROL_AUDIT_CHANNEL"]),
  ];
  if (missing.length > 0) return { slack: undefined, slackMissing: missing };
  if (Boolean(s.SLACK_CLIENT_ID) !== Boolean(s.SLACK_CLIENT_SECRET))
    throw new SettingsError([
      "SLACK_CLIENT_ID and SLACK_CLIENT_SECRET: Sign in with Slack needs both (Basic Information > App Credentials), or neither",
    ]);
  if (s.POOLPATROL_DIGEST_CRON && !cron.validate(s.POOLPATROL_DIGEST_CRON))
    throw new SettingsError([`POOLPATROL_DIGEST_CRON: "${s.POOLPATROL_DIGEST_CRON}" is not a cron expression`]);
  return {
    slackMissing: [],
    slack: {
      botToken: s.SLACK_BOT_TOKEN!,
      signingSecret: s.SLACK_SIGNING_SECRET,
      appToken: s.SLACK_APP_TOKEN,
      apiUrl: s.SLACK_API_URL,
      port: s.PORT,
      auditChannel: s.POOLPATROL_AUDIT_CHANNEL!,
      approvers: (s.POOLPATROL_APPROVERS ?? "")
        .split(",")
        .map((id) => id.trim())
        .filter(Boolean),
      restrictAudits: s.POOLPATROL_RESTRICT_AUDITS === "true",
      webUrl: (s.POOLPATROL_WEB_URL ?? `http://localhost:${s.PORT}`).replace(/\/+$/, ""),
      signIn:
        s.SLACK_CLIENT_ID && s.SLACK_CLIENT_SECRET
          ? { clientId: s.SLACK_CLIENT_ID, clientSecret: s.SLACK_CLIENT_SECRET }
          : undefined,
    },
  };
}

function models(s: z.infer<typeof settingsSchema>): Record<AgentName, string> {
  const named: Record<AgentName, string | undefined> = {
    case_manager: s.POOLPATROL_MODEL_CASE_MANAGER,
    outreach: s.POOLPATROL_MODEL_OUTREACH,
    location: s.POOLPATROL_MODEL_LOCATION,
    shift: s.POOLPATROL_MODEL_SHIFT,
  };
  const problems: string[] = [];
  const chosen = Object.fromEntries(
    (Object.keys(named) as AgentName[]).map((agent) => {
      const model = named[agent] ?? (s.OPENAI_API_KEY ? SEED_MODELS[agent] : "rules");
      if (model !== "rules" && !s.OPENAI_API_KEY)
        problems.push(`POOLPATROL_MODEL_${agent.toUpperCase()}: "${model}" needs OPENAI_API_KEY (or use "rules")`);
      return [agent, model];
    }),
  ) as Record<AgentName, string>;
  if (problems.length > 0) throw new SettingsError(problems);
  return chosen;
}

function importSync(s: z.infer<typeof settingsSchema>): ImportSyncSettings | undefined {
  const dir = s.POOLPATROL_IMPORT_DIR && path.resolve(s.POOLPATROL_IMPORT_DIR);
  const url = s.POOLPATROL_IMPORT_URL;
  if (!s.POOLPATROL_IMPORT_CRON) {
    if (dir || url)
      throw new SettingsError(["POOLPATROL_IMPORT_CRON: must be set to sync from POOLPATROL_IMPORT_DIR or _URL"]);
    return undefined;
  }
  if (Boolean(dir) === Boolean(url))
    throw new SettingsError([
      "POOLPATROL_IMPORT_CRON: needs exactly one of POOLPATROL_IMPORT_DIR and POOLPATROL_IMPORT_URL",
    ]);
  const mappingsDir = s.POOLPATROL_IMPORT_MAPPINGS ? path.resolve(s.POOLPATROL_IMPORT_MAPPINGS) : dir || undefined;
  return {
    cron: s.POOLPATROL_IMPORT_CRON,
    source: dir ? { dir } : { url: url!, token: s.POOLPATROL_IMPORT_TOKEN },
    mappingsDir,
  };
}

export function parseSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const parsed = settingsSchema.safeParse(env);
  if (!parsed.success) {
    throw new SettingsError(parsed.error.issues.map((issue) => `${String(issue.path[0])}: ${issue.message}`));
  }
  const s = parsed.data;
  return {
    databaseUrl: s.DATABASE_URL,
    dataDir: path.resolve(PROJECT_ROOT, s.POOLPATROL_DATA_DIR ?? ".poolpatrol"),
    dbPoolSize: s.POOLPATROL_DB_POOL_SIZE,
    timeZone: s.POOLPATROL_TIMEZONE,
    policy: {
      maxDistanceMiles: s.POOLPATROL_MAX_DISTANCE_MILES,
      shiftToleranceMinutes: s.POOLPATROL_SHIFT_TOLERANCE_MINUTES,
      minCompatibleDayRatio: s.POOLPATROL_SHIFT_MIN_COMPATIBLE_RATIO,
    },
    googleMaps: s.GOOGLE_MAPS_API_KEY ? { apiKey: s.GOOGLE_MAPS_API_KEY, baseUrl: s.GOOGLE_MAPS_BASE_URL } : undefined,
    webMapKey: s.GOOGLE_MAPS_BROWSER_KEY ?? s.GOOGLE_MAPS_API_KEY,
    email: {
      from: s.POOLPATROL_EMAIL_FROM,
      inboundAddress: s.POOLPATROL_INBOUND_ADDRESS ?? bareAddress(s.POOLPATROL_EMAIL_FROM),
      webhookSecret: s.RESEND_WEBHOOK_SECRET,
      ccCoordinator: ["true", "1", "yes"].includes(s.POOLPATROL_CC_COORDINATOR),
      resend: s.RESEND_API_KEY ? { apiKey: s.RESEND_API_KEY, baseUrl: s.RESEND_BASE_URL } : undefined,
    },
    models: models(s),
    openai: s.OPENAI_API_KEY ? { apiKey: s.OPENAI_API_KEY, baseUrl: s.OPENAI_BASE_URL } : undefined,
    modelTimeoutMs: s.POOLPATROL_MODEL_TIMEOUT_MS,
    ...slack(s),
    port: s.PORT,
    schedule: {
      reminderHours: s.POOLPATROL_REMINDER_HOURS,
      approvalExpiryHours: s.POOLPATROL_APPROVAL_EXPIRY_HOURS,
      digestCron: s.POOLPATROL_DIGEST_CRON,
    },
    cancelApprovals: s.POOLPATROL_CANCEL_APPROVALS,
    undoMinutes: s.POOLPATROL_UNDO_MINUTES,
    exceptionDays: s.POOLPATROL_EXCEPTION_DAYS,
    jobs: {
      checkpointRetentionDays: s.POOLPATROL_CHECKPOINT_RETENTION_DAYS,
      concurrency: s.POOLPATROL_JOB_CONCURRENCY,
    },
    httpTimeoutMs: s.POOLPATROL_HTTP_TIMEOUT_MS,
    slackPostIntervalMs: s.POOLPATROL_SLACK_POST_INTERVAL_MS,
    claimMs: s.POOLPATROL_CLAIM_SECONDS * 1000,
    sweep: {
      cron: s.POOLPATROL_AUDIT_CRON,
      concurrency: s.POOLPATROL_SWEEP_CONCURRENCY,
      pageSize: s.POOLPATROL_SWEEP_PAGE_SIZE,
      pageTimeoutSeconds: s.POOLPATROL_SWEEP_PAGE_TIMEOUT_SECONDS,
      retryDelaySeconds: s.POOLPATROL_SWEEP_RETRY_DELAY_SECONDS,
    },
    importSync: importSync(s),
    workerProcesses: s.POOLPATROL_WORKER_PROCESSES,
    replyWarmup: s.POOLPATROL_REPLY_WARMUP === "true",
    langsmith: s.LANGSMITH_API_KEY
      ? { apiKey: s.LANGSMITH_API_KEY, endpoint: s.LANGSMITH_ENDPOINT, project: s.LANGSMITH_PROJECT }
      : undefined,
  };
}
