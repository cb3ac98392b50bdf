// `poolpatrol token create NAME --scope read|write [--scope pii]`, `token list`, `token revoke NAME`:
// the REST API's tokens. A new token's secret is printed once; only its hash is stored.
import { loadSettings, withDatabase } from "../app/context.js";
import {
  API_SCOPES,
  type ApiScope,
  createApiToken,
  listApiTokens,
  revokeApiToken,
} from "../data/api-token-repository.js";
import { notFound } from "../errors.js";
import { out, UsageError } from "./command-kit.js";

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** The scopes asked for (`--scope write --scope pii` or `--scope write,pii`); write includes read. */
export function parseScopes(values: string[]): ApiScope[] {
  const asked = values
    .flatMap((v) => v.split(","))
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean);
  for (const scope of asked)
    if (!(API_SCOPES as readonly string[]).includes(scope))
      throw new UsageError(`Unknown scope "${scope}"; use read or write, and pii to see home addresses and emails.`);
  if (!asked.includes("read") && !asked.includes("write"))
    throw new UsageError("Give --scope read or --scope write (pii is added to one of them).");
  const scopes = new Set(asked as ApiScope[]);
  if (scopes.has("write")) scopes.add("read");
  return API_SCOPES.filter((s) => scopes.has(s));
}

export async function tokenCreateCommand(name: string, options: { scope?: string[] }): Promise<void> {
  if (!NAME.test(name))
    throw new UsageError(`"${name}" is not a token name: letters, digits, dot, dash or underscore, up to 64.`);
  const scopes = parseScopes(options.scope ?? []);
  await withDatabase(loadSettings(), async (db) => {
    const { secret } = await createApiToken(db.prisma, { name, scopes, now: new Date() });
    out(
      `${secret}\nToken "${name}" (${scopes.join(", ")}) created. This is the only time it is shown: keep it now. Send it as "Authorization: Bearer <token>".\n`,
    );
  });
}

export async function tokenListCommand(): Promise<void> {
  await withDatabase(loadSettings(), async (db) => {
    const tokens = await listApiTokens(db.prisma);
    out(
      tokens.length
        ? `${tokens
            .map(
              (t) =>
                `${t.name.padEnd(24)} ${t.scopes.join(",").padEnd(16)} created ${t.created_at.toISOString().slice(0, 16).replace("T", " ")}${t.revoked_at ? `  revoked ${t.revoked_at.toISOString().slice(0, 16).replace("T", " ")}` : ""}`,
            )
            .join("\n")}\n`
        : "No API tokens. `poolpatrol token create NAME --scope read` makes one.\n",
    );
  });
}

export async function tokenRevokeCommand(name: string): Promise<void> {
  await withDatabase(loadSettings(), async (db) => {
    if (!(await revokeApiToken(db.prisma, name, new Date())))
      throw notFound(`No live token named "${name}"; \`poolpatrol token list\` shows them.`);
    out(`Token "${name}" revoked: requests with it are refused from now on.\n`);
  });
}
