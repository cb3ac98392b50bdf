// A local server speaking the Distance Matrix API closely enough for the official
// client: records requests and answers with scripted distances or failures.
import http from "node:http";
import type { AddressInfo } from "node:net";

export type StubBehaviour =
  | { kind: "miles"; miles: (origin: string) => number | "ZERO_RESULTS" }
  | { kind: "http_error"; status: number }
  | { kind: "api_error"; status: string; message: string };

export interface GoogleMapsStub {
  baseUrl: string;
  requests: URL[];
  behave(behaviour: StubBehaviour): void;
  close(): Promise<void>;
}

export async function startGoogleMapsStub(): Promise<GoogleMapsStub> {
  const requests: URL[] = [];
  let behaviour: StubBehaviour = { kind: "miles", miles: () => 10 };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://stub");
    requests.push(url);
    if (url.pathname !== "/maps/api/distancematrix/json") return send(res, 404, { error: "not found" });
    if (behaviour.kind === "http_error") return send(res, behaviour.status, { error: "boom" });
    if (behaviour.kind === "api_error")
      return send(res, 200, { status: behaviour.status, error_message: behaviour.message, rows: [] });
    const origins = (url.searchParams.get("origins") ?? "").split("|");
    const miles = behaviour.miles;
    send(res, 200, {
      status: "OK",
      origin_addresses: origins,
      destination_addresses: [url.searchParams.get("destinations")],
      rows: origins.map((origin) => {
        const value = miles(origin);
        return {
          elements: [
            value === "ZERO_RESULTS"
              ? { status: "ZERO_RESULTS" }
              : {
                  status: "OK",
                  distance: { value: Math.round(value * 1609.344), text: `${value} mi` },
                  duration: { value: 60, text: "1 min" },
                },
          ],
        };
      }),
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    behave(next) {
      behaviour = next;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}
