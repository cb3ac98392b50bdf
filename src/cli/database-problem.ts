// An external database the CLI cannot use (DATABASE_URL), told in one sentence that says what to
// check, instead of the driver's stack trace.

/** PostgreSQL's SQLSTATEs for a refused login and for a database that does not exist. */
const REFUSED_LOGIN = new Set(["28P01", "28000"]);
const MISSING_DATABASE = "3D000";

/** The sentence for `error` when it means DATABASE_URL's server cannot be used; undefined for any other error. */
export function databaseProblem(error: unknown, databaseUrl: string | undefined): string | undefined {
  if (!databaseUrl) return undefined;
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code !== "string") return undefined;
  const url = safeUrl(databaseUrl);
  if (!url) return undefined;
  const server = `${url.hostname}:${url.port || "5432"}`;
  const database = decodeURIComponent(url.pathname.replace(/^\//, "")) || "(none)";
  const user = decodeURIComponent(url.username) || "(none)";
  switch (code) {
    case "ECONNREFUSED":
      return `Nothing answers at ${server}, the database server in DATABASE_URL: check that PostgreSQL is running there and that the host and port are right.`;
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `The host "${url.hostname}" in DATABASE_URL cannot be found: check the host name and your network.`;
    case "ETIMEDOUT":
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return `The database server ${server} in DATABASE_URL cannot be reached: check the host, the port and any firewall between here and there.`;
    case MISSING_DATABASE:
      return `The database "${database}" does not exist on ${server}: create it, or fix its name in DATABASE_URL.`;
    default:
      if (REFUSED_LOGIN.has(code))
        return `The database server ${server} refused the login of user "${user}": check the user name and password in DATABASE_URL.`;
      return undefined;
  }
}

/** A worker that can't reach the embedded PostgreSQL of the bot that started it (which restarts it). */
export function botDatabaseProblem(databaseUrl: string | undefined): string {
  const url = safeUrl(databaseUrl ?? "");
  const where = url ? ` at ${url.hostname}:${url.port}` : "";
  return `The embedded PostgreSQL of the bot that started this worker${where} went away: the bot restarts it, and this worker after it.`;
}

function safeUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}
