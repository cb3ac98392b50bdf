// Every setting Pool Patrol reads from the environment, parsed and validated once.
// A wrong value stops start-up with a message that names the variable.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

const emptyAsUndefined = (value: unknown) => (value === "" ? undefined : value);
const optionalString = z.preprocess(emptyAsUndefined, z.string().optional());

const postgresUrl = z.preprocess(
  emptyAsUndefined,
  z
    .string()
    .refine((value) => {
      try {
        const url = new URL(value);
        return (url.protocol === "postgresql:" || url.protocol === "postgres:") && url.hostname !== "" && url.pathname.length > 1;
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
  POOLPATROL_MAX_DISTANCE_MILES: number(50, (n) => n.positive("must be greater than 0")),
  POOLPATROL_SHIFT_TOLERANCE_MINUTES: number(60, (n) => n.int("must be a whole number of minutes").min(0).max(720)),
  POOLPATROL_SHIFT_MIN_COMPATIBLE_RATIO: number(0.8, (n) => n.gt(0, "must be above 0").max(1, "must be at most 1")),
  POOLPATROL_TIMEZONE: z.preprocess(
    emptyAsUndefined,
    z.string().refine(isTimeZone, "must be an IANA time zone such as America/Los_Angeles").default("America/Los_Angeles"),
  ),
  GOOGLE_MAPS_API_KEY: optionalString,
  GOOGLE_MAPS_BASE_URL: z.preprocess(emptyAsUndefined, z.url({ error: "must be a URL" }).optional()),
  RESEND_API_KEY: optionalString,
  RESEND_BASE_URL: z.preprocess(emptyAsUndefined, z.url({ error: "must be a URL" }).optional()),
  POOLPATROL_EMAIL_FROM: z.preprocess(emptyAsUndefined, z.string().min(3).default("Pool Patrol <pool-patrol@northwind.example>")),
  POOLPATROL_CC_COORDINATOR: z.preprocess(emptyAsUndefined, z.enum(["true", "false", "1", "0", "yes", "no"], { error: "must be true or false" }).default("false")),
  OPENAI_API_KEY: optionalString,
  OPENAI_BASE_URL: z.preprocess(emptyAsUndefined, z.url({ error: "must be a URL" }).optional()),
  POOLPATROL_MODEL_CASE_MANAGER: optionalString,
  POOLPATROL_MODEL_OUTREACH: optionalString,
  POOLPATROL_MODEL_LOCATION: optionalString,
  POOLPATROL_MODEL_SHIFT: optionalString,
  POOLPATROL_MODEL_TIMEOUT_MS: number(30_000, (n) => n.int().min(1000, "must be at least 1000 (ms)")),
  LANGSMITH_API_KEY: optionalString,
  LANGSMITH_ENDPOINT: z.preprocess(emptyAsUndefined, z.url({ error: "must be a URL" }).optional()),
  LANGSMITH_PROJECT: z.preprocess(emptyAsUndefined, z.string().default("pool-patrol")),
});

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

export interface Settings {
  databaseUrl: string | undefined;
  dataDir: string;
  /** Default time zone for audit weeks (a vanpool's own time zone wins) and schedules. */
  timeZone: string;
  policy: VerificationPolicy;
  googleMaps: { apiKey: string; baseUrl: string | undefined } | undefined;
  email: { from: string; ccCoordinator: boolean; resend: { apiKey: string; baseUrl: string | undefined } | undefined };
  /** "rules" or an OpenAI model name, per agent. */
  models: Record<AgentName, string>;
  openai: { apiKey: string; baseUrl: string | undefined } | undefined;
  modelTimeoutMs: number;
  langsmith: { apiKey: string; endpoint: string | undefined; project: string } | undefined;
}

export type AgentName = "case_manager" | "outreach" | "location" | "shift";
/** The seeds' models, used when an OpenAI key is configured and no model is named. */
const SEED_MODELS: Record<AgentName, string> = { case_manager: "gpt-4.1", outreach: "gpt-4.1", location: "gpt-4.1-mini", shift: "gpt-4.1-mini" };

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

function models(s: z.infer<typeof settingsSchema>): Record<AgentName, string> {
  const named: Record<AgentName, string | undefined> = {
    case_manager: s.POOLPATROL_MODEL_CASE_MANAGER,
    outreach: s.POOLPATROL_MODEL_OUTREACH,
    location: s.POOLPATROL_MODEL_LOCATION,
    shift: s.POOLPATROL_MODEL_SHIFT,
  };
  const problems: string[] = [];
  const chosen = Object.fromEntries((Object.keys(named) as AgentName[]).map((agent) => {
    const model = named[agent] ?? (s.OPENAI_API_KEY ? SEED_MODELS[agent] : "rules");
    if (model !== "rules" && !s.OPENAI_API_KEY) problems.push(`POOLPATROL_MODEL_${agent.toUpperCase()}: "${model}" needs OPENAI_API_KEY (or use "rules")`);
    return [agent, model];
  })) as Record<AgentName, string>;
  if (problems.length > 0) throw new SettingsError(problems);
  return chosen;
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
    timeZone: s.POOLPATROL_TIMEZONE,
    policy: {
      maxDistanceMiles: s.POOLPATROL_MAX_DISTANCE_MILES,
      shiftToleranceMinutes: s.POOLPATROL_SHIFT_TOLERANCE_MINUTES,
      minCompatibleDayRatio: s.POOLPATROL_SHIFT_MIN_COMPATIBLE_RATIO,
    },
    googleMaps: s.GOOGLE_MAPS_API_KEY ? { apiKey: s.GOOGLE_MAPS_API_KEY, baseUrl: s.GOOGLE_MAPS_BASE_URL } : undefined,
    email: {
      from: s.POOLPATROL_EMAIL_FROM,
      ccCoordinator: ["true", "1", "yes"].includes(s.POOLPATROL_CC_COORDINATOR),
      resend: s.RESEND_API_KEY ? { apiKey: s.RESEND_API_KEY, baseUrl: s.RESEND_BASE_URL } : undefined,
    },
    models: models(s),
    openai: s.OPENAI_API_KEY ? { apiKey: s.OPENAI_API_KEY, baseUrl: s.OPENAI_BASE_URL } : undefined,
    modelTimeoutMs: s.POOLPATROL_MODEL_TIMEOUT_MS,
    langsmith: s.LANGSMITH_API_KEY
      ? { apiKey: s.LANGSMITH_API_KEY, endpoint: s.LANGSMITH_ENDPOINT, project: s.LANGSMITH_PROJECT }
      : undefined,
  };
}
