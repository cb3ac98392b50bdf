// `poolpatrol report [--period P] [--csv FILE]`: the figures `/poolpatrol report` posts, printed, and
// the same case register written as a CSV file. People who decided in Slack are named through Slack
// when it is configured (users.info), else as "a Slack user".
import fs from "node:fs";
import { WebClient } from "@slack/web-api";
import { loadSettings, withContext } from "../app/context.js";
import { programFigures } from "../data/program-figures.js";
import { parsePeriod, periodHelp } from "../domain/report-period.js";
import { hoursSavedNote, reportFacts } from "../slack/blocks/report.js";
import { registerFile } from "../slack/report.js";
import { createUserNames } from "../slack/user-names.js";
import { out, UsageError } from "./command-kit.js";

export async function reportCommand(options: { period?: string; csv?: string }) {
  const settings = loadSettings();
  const slack = settings.slack;
  const userName = slack
    ? createUserNames(new WebClient(slack.botToken, { ...(slack.apiUrl ? { slackApiUrl: slack.apiUrl } : {}) }))
    : async () => "a Slack user";
  await withContext(settings, async (ctx) => {
    const { prisma, now } = ctx.agentDeps;
    const period = parsePeriod(options.period ?? "", now(), settings.timeZone);
    if ("error" in period) throw new UsageError(periodHelp(period.error));
    const [figures, register] = await Promise.all([
      programFigures(prisma, period.since, period.until),
      options.csv ? registerFile({ prisma, timeZone: settings.timeZone, userName }, period) : undefined,
    ]);
    const facts = reportFacts(figures);
    const width = Math.max(...facts.map(([label]) => label.length));
    out(
      `Pool Patrol report, ${period.label} (${settings.timeZone})\n${facts.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`).join("\n")}\n${hoursSavedNote(figures)}\n`,
    );
    if (options.csv && register) {
      fs.writeFileSync(options.csv, register.csv);
      out(`Case register: ${register.rows} row(s), one per case and rider, written to ${options.csv}\n`);
    }
  });
}
