// A slash command's answer through its response URL arrives at most once per job, whatever happens to
// the POST: refused before Slack saw it (answered by the retry), accepted then timed out, cut, or
// followed by a failure before the job could record it (never answered twice). Answers are counted
// where they land, in the fake Slack.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JOB_SCHEMA } from "../../src/data/job-repository.js";
import { QUEUES } from "../../src/queue/queues.js";
import { ALICE, AUDIT_CHANNEL, type Harness, startHarness } from "../support/bot-harness.js";
import { failNextWrite } from "../support/db-faults.js";
import { type ResponseFault, type ResponseFaults, startResponseFaults } from "../support/response-faults.js";
import { waitFor } from "../support/wait.js";

const TIMEOUT_MS = 1000;
let h: Harness;
let faults: ResponseFaults;
beforeAll(async () => {
  faults = await startResponseFaults();
  h = await startHarness({ env: { POOLPATROL_HTTP_TIMEOUT_MS: String(TIMEOUT_MS) } });
});
afterAll(async () => {
  await h.close();
  await faults.close();
});

/** Alice types `/poolpatrol <text>`, its response URL reached through the fault proxy. */
async function command(text: string, fault?: ResponseFault) {
  const url = h.fake.responseUrl({ user: ALICE, channel: AUDIT_CHANNEL });
  if (fault) faults.next(fault);
  const response = await h.post(
    h.fake.slashCommandBody({
      command: "/poolpatrol",
      text,
      user_id: ALICE,
      channel_id: AUDIT_CHANNEL,
      response_url: faults.via(url),
    }),
  );
  expect(response.status).toBe(200);
  return { url, via: faults.via(url) };
}

/** The job answering `via`, once it completed (after its retries). */
const completedJob = (queue: string, { via }: { via: string }) =>
  waitFor(
    `the ${queue} job answering ${via} to complete`,
    async () => {
      const rows = await h.db.prisma.$queryRawUnsafe<{ state: string; retry_count: number }[]>(
        `SELECT state, retry_count FROM ${JOB_SCHEMA}.job
         WHERE name = $1 AND coalesce(data->'answer'->>'url', data->>'responseUrl') = $2`,
        queue,
        via,
      );
      return rows[0]?.state === "completed" && rows[0];
    },
    { timeoutMs: 30_000 },
  );

/** What Slack accepted at `url`. */
const accepted = ({ url }: { url: string }) => h.fake.responses(url).filter((r) => r.status === 200);

describe("answers through a response URL are posted once", () => {
  it("a POST refused with a 500 before Slack saw it: the job's retry answers, once", { timeout: 40_000 }, async () => {
    const received = faults.received;
    const url = await command("audit VP-111", "refuse-500");
    const job = await completedJob(QUEUES.auditVanpool, url);
    expect(job.retry_count).toBe(1);
    expect(faults.received - received).toBe(2);
    expect(accepted(url)).toHaveLength(1);
    expect((accepted(url)[0]!.body as { text: string }).text).toMatch(/^VP-111/);
  });

  it.each<ResponseFault>(["hang-after-accept", "cut-after-accept"])(
    "Slack accepts the answer, then the POST fails (%s): the answer is not sent again",
    { timeout: 40_000 },
    async (fault) => {
      const received = faults.received;
      const url = await command("audit VP-111", fault);
      await completedJob(QUEUES.auditVanpool, url);
      // Long enough for a retry two seconds later to have answered.
      await new Promise((resolve) => setTimeout(resolve, 3000));
      expect(faults.received - received).toBe(1);
      expect(accepted(url)).toHaveLength(1);
    },
  );

  it("Slack accepts the answer, then the job fails before recording it (as a crash would): its retry does not answer again", {
    timeout: 60_000,
  }, async () => {
    await failNextWrite(h.db.prisma, {
      name: "answer_record_lost",
      table: "slack_post_intents",
      column: "ts",
      when: "NEW.key LIKE 'answer:audit:%'",
    });
    const received = faults.received;
    const url = await command("audit VP-111");
    const job = await completedJob(QUEUES.auditVanpool, url);
    expect(job.retry_count).toBe(1);
    expect(faults.received - received).toBe(1);
    expect(accepted(url)).toHaveLength(1);
  });

  it("the digest's answer, refused once with a 500, arrives once", { timeout: 40_000 }, async () => {
    const url = await command("digest", "refuse-500");
    await completedJob(QUEUES.slackAction, url);
    expect(accepted(url)).toHaveLength(1);
  });
});
