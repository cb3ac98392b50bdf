// Work a listener does after its ack (lookups, then an answer through the response URL or a modal
// update) waits for a turn: only a few run at once in the process. A burst of requests is then acked
// first and their lookups follow, instead of each ack waiting on one event loop behind the queries
// of every request that came before it (measured with scripts/bench-ack.ts: 50 concurrent status
// commands and evidence clicks).
const TURNS = 4;

let running = 0;
const waiting: (() => void)[] = [];

export async function afterAck<T>(work: () => Promise<T>): Promise<T> {
  if (running >= TURNS) await new Promise<void>((resolve) => waiting.push(resolve));
  else running++;
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}
