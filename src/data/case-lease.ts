// One piece of work at a time per case: a lease renewed while the work runs. Waiting
// is polling with jitter, not a blocked connection; a crashed holder's lease expires.
import { randomUUID } from "node:crypto";
import type pg from "pg";
import type { Settings } from "../config/settings.js";
import { AppError } from "../errors.js";
import { releaseLease, renewLease, tryTakeLease } from "./lease-repository.js";

/** Where the lease rows are, and how long one lasts unrenewed (POOLPATROL_CLAIM_SECONDS). */
export interface LeaseDeps {
  pool: pg.Pool;
  settings: Pick<Settings, "claimMs">;
}

export class LeaseBusyError extends AppError {
  constructor(key: string, waitedMs: number) {
    super("conflict", `Someone else is still working on ${key} after ${Math.round(waitedMs / 1000)} s; try again.`);
    this.name = "LeaseBusyError";
  }
}

export async function withLease<T>(
  { pool, settings }: LeaseDeps,
  key: string,
  work: () => Promise<T>,
  options: { maxWaitMs?: number } = {},
): Promise<T> {
  const holder = randomUUID();
  const ttlMs = settings.claimMs;
  const started = Date.now();
  const maxWait = options.maxWaitMs ?? 10 * 60_000;
  let pause = 20;
  while (!(await tryTakeLease(pool, key, holder, ttlMs))) {
    if (Date.now() - started > maxWait) throw new LeaseBusyError(key, Date.now() - started);
    await new Promise((resolve) => setTimeout(resolve, pause + Math.random() * pause));
    pause = Math.min(pause * 2, 500);
  }
  // Renewed four times per TTL, so a live holder under load keeps it.
  const renew = setInterval(() => {
    renewLease(pool, key, holder, ttlMs).catch(() => {});
  }, ttlMs / 4);
  renew.unref();
  try {
    return await work();
  } finally {
    clearInterval(renew);
    await releaseLease(pool, key, holder);
  }
}
