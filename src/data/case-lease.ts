// One piece of work at a time per case: a lease renewed while the work runs. Waiting
// is polling with jitter, not a blocked connection; a crashed holder's lease expires.
import { randomUUID } from "node:crypto";
import type pg from "pg";
import { AppError } from "../errors.js";
import { releaseLease, renewLease, tryTakeLease } from "./lease-repository.js";

// Short enough that a process killed holding a lease holds up a restart by seconds, not a minute;
// renewed four times per TTL, so a live holder under load keeps it.
const TTL_MS = 20_000;
const RENEW_MS = 5_000;

export class LeaseBusyError extends AppError {
  constructor(key: string, waitedMs: number) {
    super("conflict", `Someone else is still working on ${key} after ${Math.round(waitedMs / 1000)} s; try again.`);
    this.name = "LeaseBusyError";
  }
}

export async function withLease<T>(
  pool: pg.Pool,
  key: string,
  work: () => Promise<T>,
  options: { maxWaitMs?: number } = {},
): Promise<T> {
  const holder = randomUUID();
  const started = Date.now();
  const maxWait = options.maxWaitMs ?? 10 * 60_000;
  let pause = 20;
  while (!(await tryTakeLease(pool, key, holder, TTL_MS))) {
    if (Date.now() - started > maxWait) throw new LeaseBusyError(key, Date.now() - started);
    await new Promise((resolve) => setTimeout(resolve, pause + Math.random() * pause));
    pause = Math.min(pause * 2, 500);
  }
  const renew = setInterval(() => {
    renewLease(pool, key, holder, TTL_MS).catch(() => {});
  }, RENEW_MS);
  renew.unref();
  try {
    return await work();
  } finally {
    clearInterval(renew);
    await releaseLease(pool, key, holder);
  }
}
