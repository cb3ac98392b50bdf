// Sign in with Slack (OpenID Connect, docs.slack.dev "Sign in with Slack"): where the browser is sent
// to approve, the exchange of the code it comes back with for the person's identity, and whether
// that person is in the audit channel.
import { WebClient } from "@slack/web-api";

export interface SlackIdentity {
  userId: string;
  teamId: string;
  name: string;
  nonce: string | undefined;
}

export interface SlackSignIn {
  /** Slack's page that asks the person to approve; it returns to redirectUri with ?code&state. */
  authorizeUrl(options: { state: string; nonce: string; redirectUri: string }): string;
  /** Who signed in: the id_token's claims, once its audience, issuer and expiry are checked. */
  exchange(code: string, redirectUri: string): Promise<SlackIdentity>;
  isChannelMember(channel: string, userId: string): Promise<boolean>;
}

export class SignInRefused extends Error {}

const SLACK_ISSUER = "https://slack.com";

function claimsOf(idToken: string): Record<string, unknown> {
  const payload = idToken.split(".")[1];
  if (!payload) throw new SignInRefused("Slack's answer held no identity.");
  try {
    return JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Record<string, unknown>;
  } catch {
    throw new SignInRefused("Slack's answer held no identity.");
  }
}

export function createSlackSignIn(
  client: WebClient,
  credentials: { clientId: string; clientSecret: string; authorizeUrl?: string },
  now: () => Date,
): SlackSignIn {
  // Slack's web pages sit beside its Web API (slack.com/api/ -> slack.com/openid/...), the local Slack's too.
  const authorizeEndpoint = new URL(
    credentials.authorizeUrl ?? new URL("../openid/connect/authorize", client.slackApiUrl),
  );
  // The exchange proves the app by its client credentials; the bot's token stays out of it. A person waits
  // in the browser, so a failure is shown at once (they sign in again) rather than retried for minutes.
  const tokenless = new WebClient(undefined, {
    slackApiUrl: client.slackApiUrl,
    timeout: 15_000,
    retryConfig: { retries: 0 },
  });
  return {
    authorizeUrl({ state, nonce, redirectUri }) {
      const url = new URL(authorizeEndpoint);
      url.search = new URLSearchParams({
        response_type: "code",
        scope: "openid profile",
        client_id: credentials.clientId,
        state,
        nonce,
        redirect_uri: redirectUri,
      }).toString();
      return url.toString();
    },

    async exchange(code, redirectUri) {
      const answer = await tokenless.openid.connect
        .token({
          client_id: credentials.clientId,
          client_secret: credentials.clientSecret,
          code,
          redirect_uri: redirectUri,
          grant_type: "authorization_code",
        })
        .catch((error: Error & { data?: { error?: string } }) => {
          if (error.data?.error) throw new SignInRefused(`Slack did not confirm the sign-in (${error.data.error}).`);
          throw error;
        });
      // The id_token comes straight from Slack's token endpoint over TLS, so its claims are read as
      // sent (OpenID Connect Core 3.1.3.7); what is checked is that it was issued to this app, now.
      const claims = claimsOf(answer.id_token ?? "");
      const audience = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
      if (claims.iss !== SLACK_ISSUER || !audience.includes(credentials.clientId))
        throw new SignInRefused("Slack's answer was not issued to Pool Patrol.");
      if (typeof claims.exp !== "number" || claims.exp * 1000 <= now().getTime())
        throw new SignInRefused("Slack's answer had expired.");
      const userId = claims["https://slack.com/user_id"];
      const teamId = claims["https://slack.com/team_id"];
      if (typeof userId !== "string" || typeof teamId !== "string")
        throw new SignInRefused("Slack's answer held no identity.");
      return {
        userId,
        teamId,
        name: typeof claims.name === "string" ? claims.name : userId,
        nonce: typeof claims.nonce === "string" ? claims.nonce : undefined,
      };
    },

    async isChannelMember(channel, userId) {
      let cursor: string | undefined;
      do {
        const page = await client.conversations.members({ channel, limit: 200, ...(cursor ? { cursor } : {}) });
        if (page.members?.includes(userId)) return true;
        cursor = page.response_metadata?.next_cursor || undefined;
      } while (cursor);
      return false;
    },
  };
}
