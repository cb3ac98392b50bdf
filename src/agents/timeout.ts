/**
 * Rejects after `ms`. With an AbortController, the work behind the promise is
 * cancelled too, so an abandoned model run can never act after its fallback has.
 */
export function withTimeout<T>(
  promise: Promise<T>,
  ms: number,
  what: string,
  controller?: AbortController,
): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new Error(`${what} timed out after ${ms / 1000} s`);
        controller?.abort(error);
        reject(error);
      }, ms);
    }),
  ]);
}
