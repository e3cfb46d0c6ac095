// The one way the client talks HTTP to the Worker: same-origin cookies, JSON bodies, every response
// validated with a zod schema and every failure reduced to docs/protocol.md's error body, so callers switch
// on `ok` instead of catching.
import type { z } from "zod";
import { ErrorBodySchema } from "../../../protocol";

export type ApiError = {
  status: number;
  code: string;
  message: string;
  fields: Record<string, string>;
  /** A 429's `Retry-After`, in seconds, when the server sent one. */
  retryAfterSeconds?: number;
};

/** `Retry-After` as seconds (the delta form; a date is not sent by this server). */
function retryAfter(response: Response): { retryAfterSeconds?: number } {
  const seconds = Number(response.headers.get("retry-after"));
  return response.headers.has("retry-after") && Number.isFinite(seconds) && seconds >= 0
    ? { retryAfterSeconds: seconds }
    : {};
}
export type ApiResult<T> = { ok: true; data: T } | { ok: false; error: ApiError };

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

const unauthorizedListeners = new Set<() => void>();

/** Lets the session hook hear that a session expired while the app was open. */
export function onUnauthorized(listener: () => void): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

/** The session is gone (a 401, or a socket closed as revoked): every listener shows the sign-in page. */
export function signalUnauthorized(): void {
  for (const listener of unauthorizedListeners) listener();
}

async function send(
  path: string,
  method: Method,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Response | ApiError> {
  try {
    return await fetch(path, {
      method,
      credentials: "same-origin",
      headers: body === undefined ? headers : { ...headers, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    return { status: 0, code: "network", message: "Network error: check your connection.", fields: {} };
  }
}

/** A failed response as docs/protocol.md's error (a 401 signs the app out); also for bodies api.ts does not read. */
export async function readError(response: Response): Promise<ApiError> {
  const body: unknown = await response.json().catch(() => null);
  const parsed = ErrorBodySchema.safeParse(body);
  if (response.status === 401 && !response.url.includes("/api/auth/")) signalUnauthorized();
  if (parsed.success) return { status: response.status, fields: {}, ...parsed.data.error, ...retryAfter(response) };
  return {
    ...retryAfter(response),
    status: response.status,
    code: `http_${response.status}`,
    message: response.statusText || "Request failed",
    fields: {},
  };
}

/** A request whose success body is JSON of the given schema. */
export async function requestJson<T>(
  path: string,
  schema: z.ZodType<T>,
  method: Method = "GET",
  body?: unknown,
  headers?: Record<string, string>,
): Promise<ApiResult<T>> {
  const response = await send(path, method, body, headers);
  if (!(response instanceof Response)) return { ok: false, error: response };
  if (!response.ok) return { ok: false, error: await readError(response) };
  const parsed = schema.safeParse(await response.json().catch(() => undefined));
  if (parsed.success) return { ok: true, data: parsed.data };
  console.warn("Unexpected response from", path, parsed.error.issues);
  return {
    ok: false,
    error: {
      status: response.status,
      code: "bad_response",
      message: "Unexpected server response",
      fields: {},
    },
  };
}

/** A request whose success carries no body worth reading (204 and the like). */
export async function requestEmpty(path: string, method: Method, body?: unknown): Promise<ApiResult<null>> {
  const response = await send(path, method, body);
  if (!(response instanceof Response)) return { ok: false, error: response };
  if (!response.ok) return { ok: false, error: await readError(response) };
  return { ok: true, data: null };
}
