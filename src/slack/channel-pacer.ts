// Slack allows about one message a second per channel: calls to one channel run one
// after another, spaced by `intervalMs`, and a 429 pauses that channel for the
// Retry-After Slack asked for before the call is tried again.
const MAX_RATE_LIMITED_TRIES = 3;

interface RateLimited {
  code?: string;
  retryAfter?: number;
}

export function createChannelPacer(options: { intervalMs?: number } = {}) {
  const interval = options.intervalMs ?? 1000;
  const queues = new Map<string, Promise<unknown>>();
  const nextFree = new Map<string, number>();

  async function attempt<T>(channel: string, call: () => Promise<T>): Promise<T> {
    for (let tries = 1; ; tries++) {
      const wait = (nextFree.get(channel) ?? 0) - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      try {
        return await call();
      } catch (error) {
        const limited = error as RateLimited;
        if (limited.code !== "slack_webapi_rate_limited_error" || tries >= MAX_RATE_LIMITED_TRIES) throw error;
        nextFree.set(channel, Date.now() + (limited.retryAfter ?? 1) * 1000);
      } finally {
        nextFree.set(channel, Math.max(nextFree.get(channel) ?? 0, Date.now() + interval));
      }
    }
  }

  return {
    run<T>(channel: string, call: () => Promise<T>): Promise<T> {
      const previous = queues.get(channel) ?? Promise.resolve();
      const result = previous.catch(() => {}).then(() => attempt(channel, call));
      const tail = result.catch(() => {});
      queues.set(channel, tail);
      void tail.then(() => {
        if (queues.get(channel) === tail) queues.delete(channel);
      });
      return result;
    },
  };
}
