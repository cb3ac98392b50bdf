// Waiting in tests for something another process or a job does, without a fixed sleep.

/**
 * Asks `probe` every `everyMs` until it answers something truthy, and returns that answer; fails naming
 * `what` once `timeoutMs` have passed.
 */
export async function waitFor<T>(
  what: string,
  probe: () => T | Promise<T>,
  { timeoutMs = 20_000, everyMs = 100 }: { timeoutMs?: number; everyMs?: number } = {},
): Promise<Exclude<T, false | undefined | null>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as Exclude<T, false | undefined | null>;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
