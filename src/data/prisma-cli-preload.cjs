// Preloaded into the Prisma CLI process by `poolpatrol db migrate`. The WASM schema
// engine leaves a 10 s timer pending after `migrate deploy`; unref'ing long timers
// lets the process exit as soon as its work is done.
const originalSetTimeout = globalThis.setTimeout;
globalThis.setTimeout = function setTimeoutUnrefLong(callback, delay, ...args) {
  const timer = originalSetTimeout(callback, delay, ...args);
  if (typeof delay === "number" && delay >= 5000) timer?.unref?.();
  return timer;
};
