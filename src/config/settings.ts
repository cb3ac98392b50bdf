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
  langsmith: { apiKey: string; endpoint: string | undefined; project: string } | undefined;
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
    langsmith: s.LANGSMITH_API_KEY
      ? { apiKey: s.LANGSMITH_API_KEY, endpoint: s.LANGSMITH_ENDPOINT, project: s.LANGSMITH_PROJECT }
      : undefined,
  };
}
