// Child of scripts/bench-ack.ts: the load generator, alone in its process so that nothing else on its
// event loop (the fake Slack answering the bot) adds to the times it measures. For each round it is
// sent, it signs and POSTs every body at once and sends back the time to each HTTP answer.
import { postSigned } from "../src/sandbox/slack/payloads.js";

export interface LoadRound {
  url: string;
  signingSecret: string;
  bodies: string[];
}

export interface LoadAnswer {
  ms: number;
  ok: boolean;
}

process.on("message", async (round: LoadRound) => {
  const signed = round.bodies.map((body) => () => postSigned(round.url, round.signingSecret, body));
  const answers = await Promise.all(
    signed.map(async (post): Promise<LoadAnswer> => {
      const started = performance.now();
      try {
        const response = await post();
        await response.arrayBuffer();
        return { ms: performance.now() - started, ok: response.ok };
      } catch {
        return { ms: performance.now() - started, ok: false };
      }
    }),
  );
  process.send!(answers);
});
process.send!("ready");
