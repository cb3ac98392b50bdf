// What posting to the audit channel needs: the Web API client, the channel's settings and the
// database the posts are kept in. The bot's listener context is a superset of it.
import type { WebClient } from "@slack/web-api";
import type pg from "pg";
import type { Settings, SlackSettings } from "../config/settings.js";
import type { PrismaClient } from "../data/prisma.js";

export interface ChannelContext {
  deps: { prisma: PrismaClient; pool: pg.Pool; settings: Settings; now(): Date };
  client: WebClient;
  slack: SlackSettings;
}
