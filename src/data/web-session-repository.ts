// Sign-in to the web pages: a one-time link made by `/poolpatrol web` (single use, 10 minutes), or Sign
// in with Slack, starts a session whose secret rides in an HTTP-only cookie. Only the SHA-256 of each secret is stored.
import { createHash, randomBytes, randomUUID } from "node:crypto";
import type pg from "pg";
import type { PrismaClient } from "./prisma.js";

export type WebRole = "approver" | "member";

export interface WebUser {
  userId: string;
  userName: string;
  role: WebRole;
}

export const SIGN_IN_LINK_MINUTES = 10;
export const SESSION_HOURS = 12;

// Timestamps are stored as UTC in columns without a time zone: compared and written as UTC whatever the process's zone.
const utc = (n: number) => `$${n}::timestamptz AT TIME ZONE 'UTC'`;

const hashOf = (secret: string) => createHash("sha256").update(secret).digest("hex");
const newSecret = () => randomBytes(32).toString("base64url");

/** A sign-in link's secret for this Slack user, valid once within SIGN_IN_LINK_MINUTES. */
export async function createSignInLink(prisma: PrismaClient, user: WebUser, now: Date): Promise<string> {
  const secret = newSecret();
  await prisma.webSignIn.create({
    data: {
      tokenHash: hashOf(secret),
      userId: user.userId,
      userName: user.userName,
      role: user.role,
      createdAt: now,
      expiresAt: new Date(now.getTime() + SIGN_IN_LINK_MINUTES * 60_000),
    },
  });
  return secret;
}

export type SignInOutcome =
  | { ok: true; session: string; user: WebUser }
  | { ok: false; reason: "unknown" | "expired" | "used" };

/** Whether a sign-in link would still start a session, without using it. */
export async function signInLinkState(
  pool: pg.Pool,
  secret: string,
  now: Date,
): Promise<"valid" | "unknown" | "expired" | "used"> {
  const { rows } = await pool.query<{ used: boolean; expired: boolean }>(
    `SELECT used_at IS NOT NULL AS used, expires_at <= ${utc(2)} AS expired FROM web_sign_ins WHERE token_hash = $1`,
    [hashOf(secret), now.toISOString()],
  );
  const link = rows[0];
  return !link ? "unknown" : link.used ? "used" : link.expired ? "expired" : "valid";
}

/**
 * Uses the link (once: the first of two racing requests wins) and starts a session. A link already
 * used, past its 10 minutes or never made is refused with the reason.
 */
export async function redeemSignInLink(pool: pg.Pool, secret: string, now: Date): Promise<SignInOutcome> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const { rows } = await client.query<{ user_id: string; user_name: string; role: WebRole }>(
      `UPDATE web_sign_ins SET used_at = ${utc(2)} WHERE token_hash = $1 AND used_at IS NULL AND expires_at > ${utc(2)}
       RETURNING user_id, user_name, role`,
      [hashOf(secret), now.toISOString()],
    );
    const link = rows[0];
    if (!link) {
      await client.query("ROLLBACK");
      const state = await signInLinkState(pool, secret, now);
      return { ok: false, reason: state === "valid" ? "used" : state };
    }
    const user: WebUser = { userId: link.user_id, userName: link.user_name, role: link.role };
    const session = await insertSession(client, user, now);
    await client.query("COMMIT");
    return { ok: true, session, user };
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

async function insertSession(db: Pick<pg.Pool, "query">, user: WebUser, now: Date): Promise<string> {
  const session = newSecret();
  await db.query(
    `INSERT INTO web_sessions (id, secret_hash, user_id, user_name, role, created_at, expires_at)
     VALUES ($7, $1, $2, $3, $4, ${utc(5)}, ${utc(6)})`,
    [
      hashOf(session),
      user.userId,
      user.userName,
      user.role,
      now.toISOString(),
      new Date(now.getTime() + SESSION_HOURS * 3_600_000).toISOString(),
      randomUUID(),
    ],
  );
  return session;
}

/** Starts a session for someone Slack vouched for (Sign in with Slack); returns its secret. */
export const startWebSession = (pool: pg.Pool, user: WebUser, now: Date): Promise<string> =>
  insertSession(pool, user, now);

/** The signed-in user of a live session, or undefined (unknown, ended or past its hours). */
export async function findWebSession(pool: pg.Pool, secret: string, now: Date): Promise<WebUser | undefined> {
  const { rows } = await pool.query<{ user_id: string; user_name: string; role: WebRole }>(
    `SELECT user_id, user_name, role FROM web_sessions WHERE secret_hash = $1 AND expires_at > ${utc(2)}`,
    [hashOf(secret), now.toISOString()],
  );
  const row = rows[0];
  return row ? { userId: row.user_id, userName: row.user_name, role: row.role } : undefined;
}

/** Ends a session (signing out). */
export async function endWebSession(pool: pg.Pool, secret: string): Promise<void> {
  await pool.query("DELETE FROM web_sessions WHERE secret_hash = $1", [hashOf(secret)]);
}
