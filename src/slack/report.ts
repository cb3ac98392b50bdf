// `/poolpatrol report [period]`: the program's figures for the period posted in the audit channel,
// then the period's case register uploaded there as a CSV file. The post is made once per command
// (post-once.ts); the upload is tried once per command, its outcome kept, so a retried job never
// uploads the file twice, even after a crash between the upload and its record. A failed upload leaves
// the figures posted and says the file is missing.
import { setTimeout as sleep } from "node:timers/promises";
import { WebClient } from "@slack/web-api";
import { caseRegister } from "../data/case-register-repository.js";
import { programFigures } from "../data/program-figures.js";
import { holdPost, keepPost, keptPost } from "../data/slack-post-repository.js";
import { registerCsv, registerSlackUsers } from "../domain/case-register.js";
import { reportMessage } from "./blocks/report.js";
import type { ChannelContext } from "./channel-context.js";
import { channelPacerFor } from "./channel-pacer.js";
import { postKeptOnce } from "./post-once.js";

export interface ReportRequest {
  /** Unique to the command (its trigger id): names the post and the upload for good. */
  key: string;
  since: Date;
  until: Date;
  label: string;
}

/** The case register of a window as CSV text, people named as Slack shows them. */
export async function registerFile(
  deps: { prisma: ChannelContext["deps"]["prisma"]; timeZone: string; userName(id: string): Promise<string> },
  window: { since: Date; until: Date },
): Promise<{ csv: string; rows: number }> {
  const entries = await caseRegister(deps.prisma, window.since, window.until);
  const ids = registerSlackUsers(entries);
  const names = new Map(await Promise.all(ids.map(async (id) => [id, await deps.userName(id)] as const)));
  return { csv: registerCsv(entries, { timeZone: deps.timeZone, names }), rows: entries.length };
}

/** "case-register-2026-11-16-to-2026-11-22.csv", in the program's time zone. */
export function registerFileName(window: { since: Date; until: Date }, timeZone: string): string {
  const day = (d: Date) => d.toLocaleDateString("en-CA", { timeZone });
  const first = day(window.since);
  const last = day(new Date(Math.max(window.since.getTime(), window.until.getTime() - 1)));
  return `case-register-${first}${last === first ? "" : `-to-${last}`}.csv`;
}

/** Uploads get a short retry budget of their own: a job must not wait half an hour on a failing upload. */
const UPLOAD_RETRIES = 2;
/** Longer than an upload with its retries takes; a killed uploader holds up a retry this long at most. */
const UPLOAD_HOLD_MS = 120_000;
/** Slack's clock and the database's may differ: the search for an earlier upload starts this much before it. */
const CLOCK_SKEW_MS = 5 * 60_000;

export function createReport(
  ctx: ChannelContext,
  options: { userName(id: string): Promise<string>; warn(message: string): void; channelIntervalMs?: number },
) {
  const { prisma } = ctx.deps;
  const pacer = channelPacerFor(ctx, options.channelIntervalMs);
  const once = { prisma, client: ctx.client, pacer, holdMs: ctx.deps.settings.claimMs };
  const uploader = new WebClient(ctx.client.token, {
    slackApiUrl: ctx.client.slackApiUrl,
    retryConfig: { retries: UPLOAD_RETRIES, factor: 2, minTimeout: 500, maxTimeout: 5_000 },
    timeout: 30_000,
  });

  /** Posts the report and uploads its register; what to tell the person who asked. */
  async function post(request: ReportRequest): Promise<string> {
    const channel = ctx.slack.auditChannel;
    const timeZone = ctx.deps.settings.timeZone;
    const [figures, register] = await Promise.all([
      programFigures(prisma, request.since, request.until),
      registerFile({ prisma, timeZone, userName: options.userName }, request),
    ]);
    const at = await postKeptOnce(once, `report:${request.key}`, {
      channel,
      ...reportMessage({ label: request.label, figures, rows: register.rows }),
    });
    const uploaded = await uploadOnce(request, channel, register.csv);
    if (uploaded) return `Report for ${request.label} posted in <#${channel}> with its case register.`;
    await postKeptOnce(once, `report-missing:${request.key}`, {
      channel,
      thread_ts: at.ts,
      text: "The case register could not be attached to this report: Slack did not take the file. Ask for the report again, or run `poolpatrol report` on the command line.",
    });
    return `Report for ${request.label} posted in <#${channel}>, but its case register could not be attached (Slack did not take the file). Ask again with \`/poolpatrol report\`, or run \`poolpatrol report --csv FILE\` on the command line.`;
  }

  /**
   * Uploads the register once for this command: true when it is (or was) shared. An attempt that did not
   * finish (a crash between the upload and its record) may have shared the file already: the channel is
   * searched for it since that attempt before uploading again.
   */
  async function uploadOnce(request: ReportRequest, channel: string, csv: string): Promise<boolean> {
    const key = `report-file:${request.key}`;
    const filename = registerFileName(request, ctx.deps.settings.timeZone);
    const holder = `report:${process.pid}:${Date.now()}`;
    const given = Date.now();
    for (;;) {
      const done = await keptPost(prisma, key);
      if (done) return done.ts !== "failed";
      const claim = await holdPost(prisma, { key, channel, holder, holdMs: UPLOAD_HOLD_MS });
      if (claim) {
        const earlier = claim.earlier ? await sharedFileSince(channel, filename, claim.intendedAt) : undefined;
        if (earlier) {
          await keepPost(prisma, key, holder, earlier);
          return true;
        }
        return upload(request, { key, holder, channel, filename, csv });
      }
      // Another process is uploading it now: its outcome is this command's.
      if (Date.now() - given > UPLOAD_HOLD_MS * 2) throw new Error(`Another process is still uploading ${key}.`);
      await sleep(500);
    }
  }

  async function upload(
    request: ReportRequest,
    file: { key: string; holder: string; channel: string; filename: string; csv: string },
  ): Promise<boolean> {
    try {
      const result = await uploader.filesUploadV2({
        channel_id: file.channel,
        filename: file.filename,
        title: `Case register, ${request.label}`,
        content: file.csv,
        initial_comment: `Case register, ${request.label}: one row per case and rider.`,
      });
      const fileId = result.files.flatMap((f) => f.files ?? []).find((f) => f.id)?.id ?? "shared";
      await keepPost(prisma, file.key, file.holder, fileId);
      return true;
    } catch (error) {
      options.warn(`report ${request.key}: the case register was not uploaded: ${(error as Error).message}`);
      await keepPost(prisma, file.key, file.holder, "failed");
      return false;
    }
  }

  /**
   * The id of a register file this bot shared in `channel` under `filename` since `since`, if any. Files
   * carry no key of ours, so a register of the same period shared meanwhile by another command counts
   * as this one's: it holds the same rows.
   */
  async function sharedFileSince(channel: string, filename: string, since: Date): Promise<string | undefined> {
    const oldest = ((since.getTime() - CLOCK_SKEW_MS) / 1000).toFixed(6);
    let cursor: string | undefined;
    do {
      const page = await ctx.client.conversations.history({ channel, oldest, limit: 200, cursor });
      for (const message of page.messages ?? []) {
        if (!message.bot_id) continue;
        const file = message.files?.find((f) => f.name === filename);
        if (file?.id) return file.id;
      }
      cursor = page.response_metadata?.next_cursor || undefined;
    } while (cursor);
    return undefined;
  }

  return { post };
}

export type Report = ReturnType<typeof createReport>;
