// Preloaded into the bot by scripts/bench-ack.ts (`node --import`): what the ack latency is made of, seen
// from inside the bot. For each POST to /slack/events it keeps the time from Node's `request` event to the
// end of the answer (the bot's own work before its ack); the event-loop delay (perf_hooks) from the first
// such request on; every 250 ms, the CPU the process used. Written as JSON to BENCH_ACK_PROBE_OUT when the
// bot exits.
import fs from "node:fs";
import http from "node:http";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";

const out = process.env.BENCH_ACK_PROBE_OUT;
if (out) {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  const requests = [];
  const windows = [];
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function (event, ...args) {
    const [request, response] = args;
    if (event === "request" && request.url?.startsWith("/slack/")) {
      const started = performance.now();
      if (requests.length === 0) delay.enable();
      const end = response.end;
      response.end = function (...args) {
        requests.push({ at: started, ms: performance.now() - started });
        return end.apply(this, args);
      };
    }
    return emit.call(this, event, ...args);
  };
  setInterval(() => {
    const cpu = process.cpuUsage();
    windows.push({ at: performance.now(), cpuMs: (cpu.user + cpu.system) / 1000 });
  }, 250).unref();
  process.on("exit", () => {
    const loop = { p50Ms: delay.percentile(50) / 1e6, p99Ms: delay.percentile(99) / 1e6, maxMs: delay.max / 1e6 };
    fs.writeFileSync(out, JSON.stringify({ requests, windows, loop }));
  });
}
