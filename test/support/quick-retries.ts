// Job queues that retry a failed or orphaned job one second later instead of after two seconds or more,
// doubling: the crash tests take back the work of a killed bot as the product does (same queues,
// same retry limits), without waiting out the product's pause after each kill.
import type { QueueDefaults } from "../../src/queue/engine.js";

export function quickRetries<Name extends string>(queues: Record<Name, QueueDefaults>): Record<Name, QueueDefaults> {
  const quick = { ...queues };
  for (const name of Object.keys(quick) as Name[]) quick[name] = { ...quick[name], retryDelay: 1, retryBackoff: false };
  return quick;
}
