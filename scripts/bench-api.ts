// Part of `npm run bench`: the REST API's latency at 20 concurrent clients over 10,000 synthetic
// vanpools (`npx tsx scripts/bench-api.ts 100000` for another size), against a throwaway embedded
// PostgreSQL: GET /api/vanpools?status=flagged and GET /api/cases/{id}. A case is open on every tenth
// vanpool, opened directly (no audit ran, so a case has no stored checks: its evidence is read and
// found empty). The API runs on its own HTTP server in this process; the clients are in a child
// process, so the two do not share an event loop. Prints numbers; asserts nothing.
import { fork } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { buildAppDeps } from "../src/app/container.js";
import { parseSettings } from "../src/config/settings.js";
import { createApiToken } from "../src/data/api-token-repository.js";
import { createApi } from "../src/http/api/app.js";
import { outboxSender } from "../src/integrations/email/outbox.js";
import { machine, syntheticProgram, withBenchDatabase } from "./bench-database.js";

const CLIENTS = 20;
const REQUESTS = 4_000;

if (process.argv[2] === "--clients") {
  // The load generator (a child): REQUESTS requests over CLIENTS keep-alive connections, each timed to its last byte.
  const [, , , base, token, ...paths] = process.argv;
  const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
  const get = (url: string) =>
    new Promise<number>((resolve, reject) => {
      const started = performance.now();
      http
        .get(url, { agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
          res.resume();
          res.on("end", () =>
            res.statusCode === 200
              ? resolve(performance.now() - started)
              : reject(new Error(`${url}: ${res.statusCode}`)),
          );
        })
        .on("error", reject);
    });
  const times: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (next < REQUESTS) {
        const path = paths[next++ % paths.length]!;
        times.push(await get(`${base}${path}`));
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(1);
  process.send!({
    line: `p50 ${at(0.5)} ms  p95 ${at(0.95)} ms  p99 ${at(0.99)} ms  max ${at(1)} ms  ${(times.length / seconds).toFixed(0)} req/s`,
  });
  process.exit(0);
}

const size = Number(process.argv[2] ?? 10_000);
await withBenchDatabase("api", async ({ clients, outbox, serverCpu }) => {
  const { caseIds } = await syntheticProgram(clients.prisma, size);
  // The freshly written tables vacuumed and analysed now, not by autovacuum while a phase is measured.
  await clients.pool.query("VACUUM ANALYZE");
  const deps = await buildAppDeps(clients, parseSettings({}), { sender: outboxSender(outbox) });
  const api = createApi({
    agent: deps,
    workflow: { auditVanpool: () => Promise.reject(new Error("not in the benchmark")) },
    inbound: { handleWebhook: () => Promise.reject(new Error("not in the benchmark")) },
  });
  const { secret } = await createApiToken(clients.prisma, { name: "bench", scopes: ["read"], now: new Date() });
  const httpServer = http.createServer((req, res) => {
    if (!api.handle(req, res)) res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;

  console.log(
    `REST API: ${size} vanpools, ${caseIds.length} open cases, ${CLIENTS} concurrent clients, ${REQUESTS} requests each (${machine()})`,
  );
  // Besides the latencies (which on a busy machine are mostly waiting for a core), the CPU time a
  // request costs the API's process and the database server: what the code decides.
  const measure = (label: string, paths: string[]) =>
    new Promise<void>((resolve, reject) => {
      const cpu = process.cpuUsage();
      const dbCpu = serverCpu();
      const child = fork(import.meta.filename, ["--clients", base, secret, ...paths], {
        execArgv: ["--import", "tsx"],
      });
      child.on("message", (m: { line: string }) => {
        const used = process.cpuUsage(cpu);
        const perRequest = (seconds: number) => ((seconds * 1000) / REQUESTS).toFixed(2);
        console.log(
          `${label.padEnd(40)} ${m.line}  CPU a request: API ${perRequest((used.user + used.system) / 1e6)} ms, database ${perRequest(serverCpu() - dbCpu)} ms`,
        );
      });
      child.on("exit", (code) =>
        code === 0 ? resolve() : reject(new Error(`${label}: the clients exited with ${code}`)),
      );
    });
  // Warm up (Prisma's first queries compile their plans), then measure.
  await measure("(warm-up)", ["/api/vanpools?status=flagged", `/api/cases/${caseIds[0]}`]);
  await measure("GET /api/vanpools?status=flagged", ["/api/vanpools?status=flagged"]);
  await measure(
    "GET /api/cases/{id}",
    caseIds.map((id) => `/api/cases/${id}`),
  );
  httpServer.close();
});
