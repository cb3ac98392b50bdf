// `/poolpatrol report [period]`: the program's figures for the period posted in the audit channel,
// then the period's case register uploaded there as a CSV file. The post is made once per command
// (post-once.ts); the upload is tried once per command, its outcome kept, so a retried job never
// uploads the file twice. A failed upload leaves the figures posted and says the file is missing.
import { WebClient } from "@slack/web-api";
import { caseRegister } from "../data/case-register-repository.js";
import { programFigures } from "../data/program-figures.js";
import { holdPost, keepPost, keptPost } from "../data/slack-post-repository.js";
import { registerCsv, registerSlackUsers } from "../domain/case-register.js";
import { reportMessage } from "./blocks/report.js";
import type { ChannelContext } from "./channel-context.js";
import { createChannelPacer } from "./channel-pacer.js";
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

export function createReport(
  ctx: ChannelContext,
  options: { userName(id: string): Promise<string>; warn(message: string): void },
) {
  const { prisma } = ctx.deps;
  const pacer = createChannelPacer(prisma, { client: ctx.client });
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
    const at = await postKeptOnce({ prisma, client: ctx.client, pacer }, `report:${request.key}`, {
      channel,
      ...reportMessage({ label: request.label, figures, rows: register.rows }),
    });
    const uploaded = await uploadOnce(request, channel, register.csv);
    if (uploaded) return `Report for ${request.label} posted in <#${channel}> with its case register.`;
    await postKeptOnce({ prisma, client: ctx.client, pacer }, `report-missing:${request.key}`, {
      channel,
      thread_ts: at.ts,
      text: "The case register could not be attached to this report: Slack did not take the file. Ask for the report again, or run `poolpatrol report` on the command line.",
    });
    return `Report for ${request.label} posted in <#${channel}>, but its case register could not be attached (Slack did not take the file). Ask again with \`/poolpatrol report\`, or run \`poolpatrol report --csv FILE\` on the command line.`;
  }

  /**
   * Uploads the register once for this command: true when it is (or was) shared. A claim left by an
   * attempt that did not finish may have shared the file already, so it is not uploaded again.
   */
  async function uploadOnce(request: ReportRequest, channel: string, csv: string): Promise<boolean> {
    const key = `report-file:${request.key}`;
    const done = await keptPost(prisma, key);
    if (done) return done.ts !== "failed";
    const holder = `report:${process.pid}:${Date.now()}`;
    const claim = await holdPost(prisma, { key, channel, holder, holdMs: 120_000 });
    if (!claim || claim.earlier) return true;
    const filename = registerFileName(request, ctx.deps.settings.timeZone);
    try {
      const result = await uploader.filesUploadV2({
        channel_id: channel,
        filename,
        title: `Case register, ${request.label}`,
        content: csv,
        initial_comment: `Case register, ${request.label}: one row per case and rider.`,
      });
      const fileId = result.files.flatMap((f) => f.files ?? []).find((f) => f.id)?.id ?? "shared";
      await keepPost(prisma, key, holder, fileId);
      return true;
    } catch (error) {
      options.warn(`report ${request.key}: the case register was not uploaded: ${(error as Error).message}`);
      await keepPost(prisma, key, holder, "failed");
      return false;
    }
  }

  return { post };
}

export type Report = ReturnType<typeof createReport>;
