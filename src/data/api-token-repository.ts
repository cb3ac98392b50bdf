// REST API tokens: a name, its scopes and the SHA-256 of its secret (the secret itself is shown
// once, when made, and never stored). A revoked token is kept so its name stays taken.
import { createHash, randomBytes } from "node:crypto";
import type pg from "pg";
import { AppError } from "../errors.js";
import { recordEvent } from "./audit-log.js";
import { Prisma, type PrismaClient } from "./prisma.js";

export const API_SCOPES = ["read", "write", "pii"] as const;
export type ApiScope = (typeof API_SCOPES)[number];

export interface ApiTokenRecord {
  name: string;
  scopes: ApiScope[];
  created_at: Date;
  revoked_at: Date | null;
}

const TOKEN_PREFIX = "pp_";

const hashOf = (secret: string) => createHash("sha256").update(secret).digest("hex");

/** Makes a token; resolves to its secret (shown once) with its record. Refuses a name already taken. */
export async function createApiToken(
  prisma: PrismaClient,
  input: { name: string; scopes: ApiScope[]; now: Date },
): Promise<{ secret: string; token: ApiTokenRecord }> {
  const secret = `${TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
  try {
    const row = await prisma.$transaction(async (tx) => {
      const created = await tx.apiToken.create({
        data: { name: input.name, scopes: input.scopes, tokenHash: hashOf(secret), createdAt: input.now },
      });
      await recordEvent(tx, {
        actor: "cli",
        action: "api_token.created",
        subjectType: "api_token",
        subjectId: input.name,
        details: { scopes: input.scopes },
        at: input.now,
      });
      return created;
    });
    return { secret, token: toRecord(row) };
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002")
      throw new AppError("conflict", `A token named "${input.name}" exists already (a revoked token keeps its name).`);
    throw error;
  }
}

export async function listApiTokens(prisma: PrismaClient): Promise<ApiTokenRecord[]> {
  const rows = await prisma.apiToken.findMany({ orderBy: { createdAt: "asc" } });
  return rows.map(toRecord);
}

/** Revokes the token named `name`; false when there is none (or it was revoked already). */
export async function revokeApiToken(prisma: PrismaClient, name: string, now: Date): Promise<boolean> {
  return prisma.$transaction(async (tx) => {
    const { count } = await tx.apiToken.updateMany({ where: { name, revokedAt: null }, data: { revokedAt: now } });
    if (count > 0)
      await recordEvent(tx, {
        actor: "cli",
        action: "api_token.revoked",
        subjectType: "api_token",
        subjectId: name,
        at: now,
      });
    return count > 0;
  });
}

/** The live token whose secret this is, or undefined (unknown or revoked): one indexed query over pg on every request. */
export async function findApiTokenBySecret(pool: pg.Pool, secret: string): Promise<ApiTokenRecord | undefined> {
  if (!secret.startsWith(TOKEN_PREFIX)) return undefined;
  // Named: every API request asks it, so each connection prepares it once.
  const { rows } = await pool.query<Parameters<typeof toRecord>[0]>({
    name: "api-token",
    text: `SELECT name, scopes, created_at AS "createdAt", revoked_at AS "revokedAt" FROM api_tokens
      WHERE token_hash = $1 AND revoked_at IS NULL`,
    values: [hashOf(secret)],
  });
  return rows[0] ? toRecord(rows[0]) : undefined;
}

function toRecord(
  row: Pick<Prisma.ApiTokenGetPayload<object>, "name" | "scopes" | "createdAt" | "revokedAt">,
): ApiTokenRecord {
  return {
    name: row.name,
    scopes: row.scopes.filter((s): s is ApiScope => (API_SCOPES as readonly string[]).includes(s)),
    created_at: row.createdAt,
    revoked_at: row.revokedAt,
  };
}
