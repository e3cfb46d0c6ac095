// What a provider's server offers, found with as few and as small requests as possible: its model list
// (GET /models, with the context window where the server says it) and one tiny non-streamed call that
// checks the key and finds the API style: Chat Completions first (every compatible server speaks it),
// the Responses API where the server has no Chat Completions route (404/405). Pure: the caller gives the
// fetch (the Worker's goes through the outbound policy, outbound/policy.ts).
import { APICallError, TypeValidationError } from "@ai-sdk/provider";
import type { ApiStyle, DiscoveredModel } from "../../protocol";
import { explainModelError } from "./error-words";
import { ModelTimeout } from "./model-call-error";

export interface ProbeTarget {
  baseUrl: string;
  apiKey?: string;
  /** Fixed: only this style is called; absent: detected. */
  style?: ApiStyle;
  /** When detecting, the style tried first (the provider's saved one); Chat Completions by default. */
  prefer?: ApiStyle;
  /** The model to call (the provider's first configured one); absent: the first the server lists. */
  model?: string;
  /** The provider's name, for the error's words. */
  name?: string;
}

export interface ProbeResult {
  ok: boolean;
  style?: ApiStyle;
  models: DiscoveredModel[];
  error?: string;
}

/** Each request's limit: a tiny answer from a slow local server still comes well within it. */
export const PROBE_TIMEOUT_MS = 20_000;
const MAX_LISTED = 200;

export async function probeProvider(
  target: ProbeTarget,
  fetch: typeof globalThis.fetch,
  { signal, timeoutMs = PROBE_TIMEOUT_MS }: { signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<ProbeResult> {
  const base = target.baseUrl.replace(/\/+$/, "");
  const call = (path: string, body?: unknown) =>
    request(fetch, `${base}${path}`, target.apiKey, body, signal, timeoutMs);
  const words = (error: unknown, style?: ApiStyle) =>
    explainModelError(error, { providerName: target.name, style, url: base });

  let models: DiscoveredModel[] = [];
  try {
    models = await listModels(call);
  } catch (error) {
    // A server without a model list (or with an odd one) is fine; one that refuses the key or cannot be reached is not.
    if (refusedOrUnreachable(error)) return { ok: false, models, error: words(error) };
  }
  const model = target.model ?? models[0]?.id;
  if (!model) {
    const error = "The server lists no models: add a model by its name, then test again.";
    return { ok: false, models, ...(target.style ? { style: target.style } : {}), error };
  }
  const styles: ApiStyle[] = target.style
    ? [target.style]
    : target.prefer === "responses"
      ? ["responses", "chat"]
      : ["chat", "responses"];
  let first: { error: unknown; style: ApiStyle } | undefined;
  for (const style of styles) {
    try {
      if (style === "chat")
        checkShape(await call("/chat/completions", chatBody(model)), (b) => Array.isArray(b.choices));
      else checkShape(await call("/responses", responsesBody(model)), (b) => Array.isArray(b.output));
      return { ok: true, style, models };
    } catch (error) {
      first ??= { error, style };
      // Only a missing route says "try the other style"; any other failure is the answer.
      if (!(APICallError.isInstance(error) && (error.statusCode === 404 || error.statusCode === 405))) {
        return { ok: false, models, ...(target.style ? { style } : {}), error: words(error, style) };
      }
    }
  }
  return {
    ok: false,
    models,
    ...(target.style ? { style: target.style } : {}),
    error: words(first?.error, first?.style),
  };
}

function refusedOrUnreachable(error: unknown): boolean {
  if (TypeValidationError.isInstance(error)) return false;
  if (!APICallError.isInstance(error)) return true;
  return error.statusCode === undefined || error.statusCode === 401 || error.statusCode === 403;
}

const chatBody = (model: string) => ({ model, messages: [{ role: "user", content: "Say OK" }], max_tokens: 8 });
const responsesBody = (model: string) => ({ model, input: "Say OK", max_output_tokens: 16 });

type Call = (path: string, body?: unknown) => Promise<Record<string, unknown>>;

/** GET /models: OpenAI's `{data: [{id}]}`, each with the context window where the server says it. */
async function listModels(call: Call): Promise<DiscoveredModel[]> {
  const body = await call("/models");
  const data = Array.isArray(body.data) ? body.data : Array.isArray(body.models) ? body.models : [];
  const seen = new Set<string>();
  const models: DiscoveredModel[] = [];
  for (const entry of data.slice(0, MAX_LISTED)) {
    if (typeof entry !== "object" || entry === null) continue;
    const item = entry as Record<string, unknown>;
    const id = typeof item.id === "string" ? item.id : typeof item.model === "string" ? item.model : undefined;
    if (!id || seen.has(id)) continue;
    seen.add(id);
    const window = contextWindowOf(item);
    models.push({
      id,
      ...(window ? { context_window: window } : {}),
      ...(readsImages(item) ? { image_input: true } : {}),
    });
  }
  return models;
}

/**
 * Whether the server lists the model as reading images: OpenRouter's `architecture.input_modalities`,
 * others' `input_modalities` or `modalities`, Ollama's and LiteLLM's `capabilities: ["vision"]` or
 * `supports_vision`, LM Studio's `type: "vlm"`.
 */
function readsImages(item: Record<string, unknown>): boolean {
  const architecture = (item.architecture ?? {}) as Record<string, unknown>;
  const lists = [architecture.input_modalities, item.input_modalities, item.modalities, item.capabilities];
  const named = lists.some((list) => Array.isArray(list) && list.some((v) => v === "image" || v === "vision"));
  return named || item.supports_vision === true || item.type === "vlm";
}

/** llama.cpp's `meta.n_ctx`, vLLM's `max_model_len`, OpenRouter's and others' `context_length` / `context_window`. */
function contextWindowOf(item: Record<string, unknown>): number | undefined {
  const meta = (item.meta ?? {}) as Record<string, unknown>;
  const top = (item.top_provider ?? {}) as Record<string, unknown>;
  for (const value of [
    meta.n_ctx,
    item.max_model_len,
    item.context_length,
    item.context_window,
    top.context_length,
    meta.n_ctx_train,
  ]) {
    if (typeof value === "number" && Number.isInteger(value) && value > 0) return value;
  }
  return undefined;
}

/**
 * One request; a failure is an APICallError (as the AI SDK throws) whatever the server sent, or a
 * ModelTimeout when the server kept it waiting: no answer within the limit, or an answer begun and
 * not finished (a server that trickles its body).
 */
async function request(
  fetch: typeof globalThis.fetch,
  url: string,
  apiKey: string | undefined,
  body: unknown,
  signal: AbortSignal | undefined,
  timeoutMs: number,
): Promise<Record<string, unknown>> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const timedOut = () => timeout.aborted && !signal?.aborted;
  const headers: Record<string, string> = { Accept: "application/json" };
  if (apiKey) headers.Authorization = `Bearer ${apiKey}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response: Response;
  try {
    response = await fetch(url, {
      method: body === undefined ? "GET" : "POST",
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
  } catch (cause) {
    if (cause instanceof Error && cause.name === "OutboundRefused") throw cause;
    // It may have taken the connection: "could not reach" would send the user to the wrong fix.
    if (timedOut()) throw new ModelTimeout("answer", timeoutMs / 1000);
    throw new APICallError({
      message: "Cannot connect to API",
      url,
      requestBodyValues: body,
      cause,
      isRetryable: true,
    });
  }
  const text = await response.text().catch((cause: unknown) => {
    throw timedOut() ? new ModelTimeout("finish", timeoutMs / 1000) : cause;
  });
  if (!response.ok) {
    throw new APICallError({
      message: response.statusText || `HTTP ${response.status}`,
      url,
      requestBodyValues: body,
      statusCode: response.status,
      responseBody: text,
    });
  }
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === "object" && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
    throw new Error("not a JSON object");
  } catch (cause) {
    throw new TypeValidationError({ value: text.slice(0, 200), cause });
  }
}

function checkShape(body: Record<string, unknown>, ok: (body: Record<string, unknown>) => boolean): void {
  if (!ok(body)) throw new TypeValidationError({ value: body, cause: new Error("unexpected answer") });
}
