// The one error type user-facing code raises on purpose. Anything else is a bug
// or an outage and is reported as such.
export type AppErrorCode = "not_found" | "invalid_input" | "conflict";

export class AppError extends Error {
  constructor(
    readonly code: AppErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "AppError";
  }
}

export const notFound = (message: string) => new AppError("not_found", message);
export const invalidInput = (message: string) => new AppError("invalid_input", message);
