// Child of scripts/bench-ack.ts: the load generator, alone in its process so that nothing else on its
// event loop (the fake Slack answering the bot) adds to the times it measures. It plays Slack's side of
// the wire and as little else as it can: every request of a round is signed before the clock starts,
// each goes over a kept-alive connection of its own (as Slack's senders keep theirs), and all are
// written in one go; a request's time runs from the write of its bytes to the first byte of its answer.
// (A `fetch` per request spent up to 360 ms of this process's CPU before the last of 50 left, on a
// loaded machine, and that time was counted as the bot's.)
import net from "node:net";
import { signRequest } from "../src/sandbox/slack/payloads.js";

export interface LoadRound {
  url: string;
  signingSecret: string;
  bodies: string[];
}

export interface LoadAnswer {
  ms: number;
  ok: boolean;
}

/** One kept-alive connection to the bot: one request at a time on it, as HTTP/1.1 does. */
class Connection {
  private socket: net.Socket | undefined;
  private received = "";
  private answered: ((status: number) => void) | undefined;

  constructor(private readonly url: URL) {}

  /** Connected and idle; reconnects when the bot closed the connection. */
  async ready(): Promise<void> {
    if (this.socket && !this.socket.destroyed) return;
    const socket = net.connect(Number(this.url.port), this.url.hostname);
    socket.setNoDelay(true);
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => this.read(chunk));
    socket.on("error", () => this.finish(0));
    socket.on("close", () => this.finish(0));
    await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
    this.socket = socket;
  }

  /** Writes the request now; resolves with the answer's HTTP status once its first bytes arrive. */
  send(request: string): Promise<number> {
    this.received = "";
    const answer = new Promise<number>((resolve) => {
      this.answered = resolve;
    });
    this.socket!.write(request, "latin1");
    return answer;
  }

  private read(chunk: string): void {
    this.received += chunk;
    const status = /^HTTP\/1\.1 (\d{3})/.exec(this.received);
    // The status line is enough to time it; the rest of the answer is read so the connection can be reused.
    if (status && this.answered) this.finish(Number(status[1]));
    const headEnd = this.received.indexOf("\r\n\r\n");
    if (headEnd === -1) return;
    const head = this.received.slice(0, headEnd).toLowerCase();
    const length = Number(/content-length: *(\d+)/.exec(head)?.[1] ?? Number.NaN);
    const complete = Number.isNaN(length)
      ? this.received.endsWith("0\r\n\r\n")
      : this.received.length >= headEnd + 4 + length;
    if (complete) this.received = "";
    if (/connection: *close/.test(head) && complete) this.socket?.destroy();
  }

  private finish(status: number): void {
    const answered = this.answered;
    this.answered = undefined;
    answered?.(status);
  }

  close(): void {
    this.socket?.destroy();
  }
}

const connections: Connection[] = [];

function rawRequest(url: URL, signingSecret: string, body: string): string {
  const type = body.startsWith("{") ? "application/json" : "application/x-www-form-urlencoded";
  const signed = signRequest(signingSecret, body);
  return [
    `POST ${url.pathname} HTTP/1.1`,
    `Host: ${url.host}`,
    `Content-Type: ${type}`,
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Slack-Signature: ${signed["x-slack-signature"]}`,
    `X-Slack-Request-Timestamp: ${signed["x-slack-request-timestamp"]}`,
    "Connection: keep-alive",
    "",
    body,
  ].join("\r\n");
}

process.on("message", async (round: LoadRound) => {
  const url = new URL(round.url);
  const requests = round.bodies.map((body) => rawRequest(url, round.signingSecret, body));
  while (connections.length < requests.length) connections.push(new Connection(url));
  await Promise.all(connections.slice(0, requests.length).map((c) => c.ready()));
  const answers = requests.map((request, i) => {
    const started = performance.now();
    return connections[i]!.send(request).then(
      (status): LoadAnswer => ({ ms: performance.now() - started, ok: status === 200 }),
    );
  });
  process.send!(await Promise.all(answers));
});
process.on("disconnect", () => {
  for (const connection of connections) connection.close();
});
process.send!("ready");
