// Errors as application/problem+json (RFC 9457): a title, the status, a sentence a person can act
// on and, for bad input, each field at fault. Nothing is changed when one is returned.
import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppErrorCode } from "../../errors.js";

export const PROBLEM_TYPE = "application/problem+json";

export const ProblemSchema = z
  .object({
    type: z.string().openapi({ example: "about:blank" }),
    title: z.string().openapi({ example: "Bad request" }),
    status: z.number().int().openapi({ example: 400 }),
    detail: z.string().openapi({ example: "status: expected one of active, inactive, flagged." }),
    /** Bad input: each field at fault, as `query.status`, `body.reason`, `path.id`. */
    errors: z
      .array(z.object({ field: z.string(), message: z.string() }))
      .optional()
      .openapi({ description: "Each field at fault (bad input only)" }),
  })
  .openapi("Problem");

export type Problem = z.infer<typeof ProblemSchema>;

const TITLES: Record<number, string> = {
  400: "Bad request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not found",
  409: "Conflict",
  413: "Request body too large",
  415: "Unsupported media type",
  422: "Unprocessable content",
  500: "Internal server error",
  503: "Service unavailable",
};

export function problem(status: number, detail: string, errors?: Problem["errors"]): Problem {
  return { type: "about:blank", title: TITLES[status] ?? "Error", status, detail, ...(errors ? { errors } : {}) };
}

export function problemResponse(
  c: Context,
  status: ContentfulStatusCode,
  detail: string,
  errors?: Problem["errors"],
): Response {
  return c.body(JSON.stringify(problem(status, detail, errors)), status, { "content-type": PROBLEM_TYPE });
}

export const STATUS_OF: Record<AppErrorCode, ContentfulStatusCode> = {
  not_found: 404,
  invalid_input: 422,
  conflict: 409,
};

/** A problem response in an OpenAPI route's `responses`. */
export function problemContent(description: string) {
  return { description, content: { [PROBLEM_TYPE]: { schema: ProblemSchema } } };
}

/** The field a zod issue names, prefixed with where it came from (`query.status`, `body.reason`). */
export function fieldErrors(
  target: string,
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): NonNullable<Problem["errors"]> {
  const where = target === "json" ? "body" : target === "param" ? "path" : target;
  return issues.map((issue) => ({
    field: [where, ...issue.path.map(String)].join("."),
    message: issue.message,
  }));
}

/** The problems every /api route may answer. */
export const AUTH_PROBLEMS = {
  401: problemContent("No token, or an unknown or revoked one"),
  403: problemContent("The token lacks the scope this request needs"),
};

export const READ_PROBLEMS = {
  400: problemContent("A query parameter is invalid (errors names it)"),
  ...AUTH_PROBLEMS,
};

export const ONE_PROBLEMS = { ...READ_PROBLEMS, 404: problemContent("No such resource") };

/** A single resource's ETag matched If-None-Match. */
export const NOT_MODIFIED = { 304: { description: "Not modified: the ETag in If-None-Match is current" } };
