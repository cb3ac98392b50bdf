// A TCP proxy in front of the test PostgreSQL: the process under test connects through it, and the
// test freezes the database (nothing answers, as a stopped or overloaded server) or kills it
// (every connection dropped, new ones refused) without touching the server other test files share.
import net from "node:net";

export interface DatabaseProxy {
  /** `url` with the proxy's host and port. */
  url: string;
  /** Nothing passes either way until thaw(); connections stay open. */
  freeze(): void;
  thaw(): void;
  /** Drops every connection and refuses new ones until revive(). */
  kill(): Promise<void>;
  revive(): Promise<void>;
  close(): Promise<void>;
}

export async function startDatabaseProxy(databaseUrl: string): Promise<DatabaseProxy> {
  const target = new URL(databaseUrl);
  const pairs = new Set<[net.Socket, net.Socket]>();
  let frozen = false;
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    const pair: [net.Socket, net.Socket] = [client, upstream];
    pairs.add(pair);
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      from.on("data", (chunk) => to.write(chunk));
      from.on("error", () => to.destroy());
      from.on("close", () => {
        to.destroy();
        pairs.delete(pair);
      });
    }
    if (frozen) for (const socket of pair) socket.pause();
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => resolve());
    });
  await listen(0);
  const port = (server.address() as net.AddressInfo).port;
  const url = new URL(databaseUrl);
  url.hostname = "127.0.0.1";
  url.port = String(port);
  const stopListening = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return {
    url: url.toString(),
    freeze() {
      frozen = true;
      for (const pair of pairs) for (const socket of pair) socket.pause();
    },
    thaw() {
      frozen = false;
      for (const pair of pairs) for (const socket of pair) socket.resume();
    },
    async kill() {
      const closed = stopListening();
      for (const pair of pairs) for (const socket of pair) socket.destroy();
      await closed;
    },
    revive: () => listen(port),
    async close() {
      for (const pair of pairs) for (const socket of pair) socket.destroy();
      if (server.listening) await stopListening();
    },
  };
}
