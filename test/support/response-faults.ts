// Stands between the bot and the fake Slack's response URLs: each POST is passed on to the fake
// Slack, which records and accepts it, unless a fault is queued. A fault fails the POST before Slack
// sees it (an HTTP 500), or after Slack accepted it: the bot's end is held open past its timeout, or
// the connection is cut, so the bot cannot tell whether its answer arrived.
import http from "node:http";
import type { AddressInfo } from "node:net";

export type ResponseFault = "refuse-500" | "hang-after-accept" | "cut-after-accept";

export interface ResponseFaults {
  /** The same response URL, reached through this proxy. */
  via(responseUrl: string): string;
  /** The next POST meets `fault`. */
  next(fault: ResponseFault): void;
  /** POSTs the proxy received, faulty or not. */
  readonly received: number;
  close(): Promise<void>;
}

export async function startResponseFaults(): Promise<ResponseFaults> {
  const faults: ResponseFault[] = [];
  const held = new Set<http.ServerResponse>();
  let received = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", async () => {
      received += 1;
      const fault = faults.shift();
      if (fault === "refuse-500") {
        res.writeHead(500, { "content-type": "application/json" });
        return res.end(JSON.stringify({ ok: false, error: "internal_error" }));
      }
      const target = new URL(req.url ?? "/", "http://x").searchParams.get("to")!;
      const accepted = await fetch(target, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: Buffer.concat(chunks),
      });
      const body = await accepted.text();
      if (fault === "hang-after-accept") return void held.add(res);
      if (fault === "cut-after-accept") return void res.socket?.destroy();
      res.writeHead(accepted.status, { "content-type": "application/json" });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    via: (responseUrl) => `${base}?to=${encodeURIComponent(responseUrl)}`,
    next: (fault) => void faults.push(fault),
    get received() {
      return received;
    },
    async close() {
      for (const res of held) res.socket?.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
