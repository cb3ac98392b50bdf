// The answer to a slash command goes to its response_url, once per job. Slack cannot be asked
// afterwards whether an answer arrived (it is ephemeral, with no ts and no metadata), so the
// answer is claimed in the database before the POST (slack_post_intents, as post-once.ts claims
// channel posts) and kept as answered after Slack's 200. A refusal Slack gave (an HTTP error) or
// a request that never left (connection refused) drops the claim: the job's retry answers.
// When the outcome is unknown (the timeout fired after the request was sent, the connection broke,
// the process died between the POST and the record), the answer is taken as given and never sent
// again: such an answer almost always arrived, a second copy of it reads as the work having run
// twice, and what the work did stays visible elsewhere (the case thread, App Home, the digest).
// The rare lost answer is logged for an admin; the person can run the command again.

import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { PrismaClient } from "../data/prisma.js";
import { dropPost, holdPost, keepPost, keptPost } from "../data/slack-post-repository.js";

/** Answers share the claims table with channel posts under this pseudo-channel (Slack ids never look like it). */
const RESPONSE_URL = "response_url";
/** What the claim keeps in place of a message ts. */
const ANSWERED = "answered";
const MAYBE_ANSWERED = "maybe-answered";
/** Errors that mean the request never reached Slack. */
const NEVER_SENT = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN"]);
const DEFAULT_TIMEOUT_MS = 15_000;

export interface AnswerOnceDeps {
  prisma: PrismaClient;
  log(line: string): void;
  /** Every POST gives up after this long; the claim outlasts it. */
  timeoutMs?: number;
}

/**
 * Posts `text` as an ephemeral answer to `url`, at most once for `key` (one per job: "audit:<job id>").
 * Throws when Slack refused it or it never left, so the job's retry answers.
 */
export async function answerOnce(deps: AnswerOnceDeps, key: string, url: string, text: string): Promise<void> {
  const { prisma } = deps;
  const claimKey = `answer:${key}`;
  const holder = randomUUID();
  const timeoutMs = deps.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const holdMs = timeoutMs + 5_000;
  const given = Date.now();
  for (;;) {
    if (await keptPost(prisma, claimKey)) return;
    const claim = await holdPost(prisma, { key: claimKey, channel: RESPONSE_URL, holder, holdMs });
    if (!claim) {
      // Another attempt of this job (its lease lapsed) is answering now: its outcome decides.
      if (Date.now() - given > 2 * holdMs) throw new Error(`Another attempt is still answering ${key}.`);
      await sleep(100 + Math.random() * 200);
      continue;
    }
    if (claim.earlier) return maybeAnswered(deps, claimKey, holder, "an earlier attempt stopped while answering");
    let response: Response;
    try {
      response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ response_type: "ephemeral", text }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      if (!neverSent(error)) return maybeAnswered(deps, claimKey, holder, (error as Error).message);
      await dropPost(prisma, claimKey, holder);
      throw error;
    }
    if (!response.ok) {
      await dropPost(prisma, claimKey, holder);
      throw new Error(`Slack refused the answer to the response URL (HTTP ${response.status}).`);
    }
    await keepPost(prisma, claimKey, holder, ANSWERED);
    return;
  }
}

async function maybeAnswered(deps: AnswerOnceDeps, claimKey: string, holder: string, why: string): Promise<void> {
  await keepPost(deps.prisma, claimKey, holder, MAYBE_ANSWERED);
  deps.log(`${claimKey}: not sent again, it may have reached Slack already (${why}).`);
}

function neverSent(error: unknown): boolean {
  const code = (error as { cause?: { code?: unknown } }).cause?.code;
  return typeof code === "string" && NEVER_SENT.has(code);
}
