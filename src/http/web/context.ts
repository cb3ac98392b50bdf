// What the web pages are given, and what a request carries once its session is checked.
import type { AgentDeps } from "../../agents/deps.js";
import type { WebUser } from "../../data/web-session-repository.js";
import type { SlackSignIn } from "../../slack/sign-in-with-slack.js";

export interface WebDeps {
  agent: AgentDeps;
  /** The session cookie is sent over HTTPS only (the pages' URL is https). */
  secureCookie: boolean;
  /** The link to a message in Slack (a case alert), or undefined when Slack no longer has it. */
  permalink?(channel: string, ts: string): Promise<string | undefined>;
  /** A Slack user's name as people read it (never their id). */
  userName?(userId: string): Promise<string>;
  /** Sign in with Slack, when the app's client credentials are configured. */
  slackSignIn?: {
    provider: SlackSignIn;
    /** The workspace the bot is installed in: a sign-in to another is refused. */
    teamId: string;
    auditChannel: string;
    /** Where Slack sends the browser back: POOLPATROL_WEB_URL + /web/sign-in/slack/callback. */
    redirectUri: string;
    isApprover(userId: string): Promise<boolean>;
  };
}

export interface WebEnv {
  Variables: { user: WebUser };
}
