// Every /api request carries a token (`Authorization: Bearer …`): none, an unknown or a revoked one
// gets 401, a read token on a write 403, and nothing changes. The caller's name and scopes ride on the request.
import type { MiddlewareHandler } from "hono";
import type pg from "pg";
import { findApiTokenBySecret } from "../../data/api-token-repository.js";
import type { ApiEnv } from "./context.js";
import { problemResponse } from "./problem.js";

const READ_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function requireToken(pool: pg.Pool): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    const header = c.req.header("authorization") ?? "";
    const secret = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
    const challenge = { "www-authenticate": 'Bearer realm="poolpatrol"' };
    if (!secret) {
      c.header("www-authenticate", challenge["www-authenticate"]);
      return problemResponse(
        c,
        401,
        "This API needs a token: send `Authorization: Bearer <token>` (`poolpatrol token create`).",
      );
    }
    const token = await findApiTokenBySecret(pool, secret);
    if (!token) {
      c.header("www-authenticate", challenge["www-authenticate"]);
      return problemResponse(c, 401, "This token is unknown or was revoked.");
    }
    const needed = READ_METHODS.has(c.req.method) ? "read" : "write";
    if (!token.scopes.includes(needed))
      return problemResponse(c, 403, `The token "${token.name}" has no ${needed} scope; nothing was changed.`);
    c.set("caller", { name: token.name, scopes: token.scopes });
    await next();
  };
}

/** Whether the caller may see home addresses, email addresses and exact coordinates. */
export const seesPersonalData = (caller: ApiEnv["Variables"]["caller"]) => caller.scopes.includes("pii");

/** The actor a write is recorded under, in the case timeline and the audit log. */
export const actorOf = (caller: ApiEnv["Variables"]["caller"]) => `api:${caller.name}`;
