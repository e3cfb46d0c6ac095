// One HTTP error type and one handler that maps every failure to docs/protocol.md's error body.
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ErrorBody, ErrorCode } from "../protocol";

export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: ErrorCode,
    message: string,
    readonly fields?: Record<string, string>,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = "ApiError";
  }
}

export const notFound = (what = "Not found") => new ApiError(404, "not_found", what);
export const unauthorized = () => new ApiError(401, "unauthorized", "Sign in first");
/** Any way into an account an admin disabled (a password, a passkey, a reset link) is refused so. */
export const accountDisabled = () =>
  new ApiError(403, "account_disabled", "This account has been disabled by an administrator");
export const invalid = (message: string, fields?: Record<string, string>) =>
  new ApiError(400, "invalid_input", message, fields);

export function errorBody(code: string, message: string, fields?: Record<string, string>): ErrorBody {
  return { error: fields ? { code, message, fields } : { code, message } };
}

/** Hono's onError: known errors keep their status; anything else is a 500 without a stack trace. */
export function handleError(err: Error, c: Context): Response {
  if (err instanceof ApiError) return c.json(errorBody(err.code, err.message, err.fields), err.status);
  console.error("unhandled error", c.req.method, c.req.path, err);
  return c.json(errorBody("internal", "Something went wrong on our side"), 500);
}
