// The local Slack's Sign in with Slack (OpenID Connect): /openid/connect/authorize shows the consent
// page, where a person picks who they are in this workspace; approving sends the browser back to the
// app's redirect_uri with a one-time code, which openid.connect.token exchanges for an id_token.
// The id_token is a JWT with Slack's claims; its signature is a placeholder, since an app receives
// it straight from the token endpoint over TLS and reads it without verifying one.
import { randomBytes } from "node:crypto";
import type http from "node:http";
import { html } from "hono/html";
import type { Json } from "./block-kit.js";
import type { Workspace } from "./web-api.js";

export interface OpenIdClient {
  clientId: string;
  clientSecret: string;
}

interface IssuedCode {
  user: string;
  clientId: string;
  redirectUri: string;
  nonce: string | undefined;
  expiresAt: number;
}

const CODE_MINUTES = 10;

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

export function createOpenIdProvider(ws: Workspace, clients: OpenIdClient[], now: () => number) {
  const codes = new Map<string, IssuedCode>();
  const clientOf = (id: unknown) => clients.find((client) => client.clientId === id);

  function refuse(res: http.ServerResponse, text: string): true {
    res.writeHead(400, { "content-type": "text/html; charset=utf-8" });
    res.end(String(html`<!doctype html><title>Sign in with Slack</title><p>${text}</p>`));
    return true;
  }

  /** GET shows who may sign in; POST (the person chose) redirects back to the app with a code. */
  function authorize(req: http.IncomingMessage, res: http.ServerResponse, url: URL, raw: string): true {
    const params = req.method === "POST" ? new URLSearchParams(raw) : url.searchParams;
    const clientId = params.get("client_id") ?? "";
    const redirectUri = params.get("redirect_uri") ?? "";
    const state = params.get("state") ?? "";
    const nonce = params.get("nonce") ?? undefined;
    if (!clientOf(clientId)) return refuse(res, "invalid_client_id");
    if (params.get("response_type") !== "code") return refuse(res, "unsupported_response_type");
    if (!(params.get("scope") ?? "").split(/[ ,]+/).includes("openid")) return refuse(res, "invalid_scope");
    if (!/^https?:\/\//.test(redirectUri)) return refuse(res, "bad_redirect_uri");
    if (req.method === "POST") {
      const user = ws.users.get(params.get("user") ?? "");
      if (!user || user.is_bot || user.deleted) return refuse(res, "user_not_found");
      const code = randomBytes(16).toString("hex");
      codes.set(code, { user: user.id, clientId, redirectUri, nonce, expiresAt: now() + CODE_MINUTES * 60_000 });
      const back = new URL(redirectUri);
      back.searchParams.set("code", code);
      if (state) back.searchParams.set("state", state);
      res.writeHead(302, { location: back.toString() });
      res.end();
      return true;
    }
    const people = [...ws.users.values()].filter((user) => !user.is_bot && !user.deleted);
    const hidden = [...url.searchParams].map(
      ([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`,
    );
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(
      String(html`<!doctype html><html lang="en"><title>Sign in with Slack</title>
<h1>Sign in to ${ws.id.teamDomain} with Slack</h1>
<p>Pool Patrol asks to know who you are in this workspace.</p>
${people.map(
  (user) => html`<form method="post" action="/openid/connect/authorize">${hidden}
<button name="user" value="${user.id}">Continue as ${user.real_name ?? user.name ?? user.id}</button></form>`,
)}</html>`),
    );
    return true;
  }

  /** openid.connect.token: the app's credentials and a code it was given once, for an id_token. */
  function token(args: Json, authorization: string | undefined): Json {
    const basic = /^Basic (.+)$/.exec(authorization ?? "")?.[1];
    const [basicId, basicSecret] = basic ? Buffer.from(basic, "base64").toString().split(":") : [];
    const client = clientOf(args.client_id ?? basicId);
    if (!client) return { ok: false, error: "invalid_client_id" };
    if ((args.client_secret ?? basicSecret) !== client.clientSecret) return { ok: false, error: "bad_client_secret" };
    const issued = codes.get(String(args.code ?? ""));
    if (!issued || issued.clientId !== client.clientId || issued.expiresAt <= now())
      return { ok: false, error: "invalid_code" };
    codes.delete(String(args.code));
    if (args.redirect_uri !== issued.redirectUri) return { ok: false, error: "bad_redirect_uri" };
    const user = ws.users.get(issued.user)!;
    const issuedAt = Math.floor(now() / 1000);
    const claims = {
      iss: "https://slack.com",
      sub: user.id,
      aud: client.clientId,
      exp: issuedAt + 3600,
      iat: issuedAt,
      auth_time: issuedAt,
      ...(issued.nonce ? { nonce: issued.nonce } : {}),
      "https://slack.com/user_id": user.id,
      "https://slack.com/team_id": ws.id.teamId,
      name: user.real_name ?? user.name ?? user.id,
    };
    return {
      ok: true,
      access_token: `xoxp-local-${randomBytes(8).toString("hex")}`,
      token_type: "Bearer",
      id_token: `${base64url({ alg: "RS256", typ: "JWT" })}.${base64url(claims)}.local-slack`,
    };
  }

  return { authorize, token };
}
