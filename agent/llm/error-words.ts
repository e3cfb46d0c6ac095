// A model provider's failure in plain words: what failed and what the user can do about it, in one or two
// short sentences. Never a raw dump: an AI SDK validation error carries the whole answer it could not read
// (17,000 characters is common), and a provider's error body can be an HTML page. Pure: the Worker's
// provider test, the probe and the turn's error message all read errors through it.
import type { ApiStyle } from "../../protocol";
import { ModelTimeout, TIMEOUT_WORDS } from "./model-call-error";

export interface ErrorContext {
  /** The provider's name as the user knows it ("OpenRouter", "my llama"). */
  providerName?: string;
  /** The API style the call used, to name the other one in the advice. */
  style?: ApiStyle;
  /** The operator's provider: the user cannot change its key or URL, only pick another model. */
  operator?: boolean;
  /** The URL called, to name the host an error without one could not reach. */
  url?: string;
}

/** The longest explanation: one or two sentences. */
export const MAX_ERROR_WORDS = 300;

const STYLE_NAMES: Record<ApiStyle, string> = { chat: "Chat Completions", responses: "Responses" };

/** What an error object may carry: @ai-sdk/provider's APICallError, RetryError, a wrapped cause, a Node network error. */
interface ErrorLike {
  name?: unknown;
  message?: unknown;
  statusCode?: unknown;
  url?: unknown;
  responseBody?: unknown;
  code?: unknown;
  address?: unknown;
  port?: unknown;
  cause?: unknown;
  lastError?: unknown;
}

export function explainModelError(error: unknown, ctx: ErrorContext = {}): string {
  const chain = errorChain(error);
  const who = ctx.providerName?.trim() || (ctx.operator ? "The app's model server" : "The model server");
  const status = chain.map(statusOf).find((s) => s !== undefined) ?? statusInText(chain);
  const host = [...chain, { url: ctx.url }].map(hostOf).find(Boolean);
  const where = ctx.operator ? "tell whoever runs this app, or pick another model" : "";
  if (status === 401 || status === 403)
    return cap(
      `${who} refused the API key (HTTP ${status}). ${ctx.operator ? `The key is the app's own: ${where}.` : "Check the key in Settings → Models."}`,
    );
  if (status === 404)
    return cap(
      `${who} has no such model or URL (HTTP 404). ${ctx.operator ? `${capital(where)}.` : "Check the base URL (it usually ends in /v1) and the model name in Settings → Models."}`,
    );
  if (status === 405) return cap(`${who} does not take this request at its URL (HTTP 405). ${otherStyle(ctx.style)}`);
  if (status === 429)
    return cap(
      `${who} is rate limiting requests, or the account is out of credit (HTTP 429). Wait a moment, check the account's credit, or pick another model.`,
    );
  if (status !== undefined && status >= 500)
    return cap(`${who} failed (HTTP ${status}). Try again in a moment, or pick another model.`);
  const redirect = chain.map((e) => e.statusCode).find((s) => typeof s === "number" && s >= 300 && s <= 399);
  if (status === undefined && redirect !== undefined)
    return cap(
      `${who} answered with a redirect (HTTP ${redirect}), which the app does not follow. Use the address it redirects to as the base URL (often https://…).`,
    );
  const timeout = chain.find((e): e is ModelTimeout => e instanceof ModelTimeout);
  if (timeout) {
    const advice =
      timeout.waited === "answer" && !ctx.operator
        ? "Check that the server is running and not overloaded, or pick another model."
        : "Try again in a moment, or pick another model.";
    return cap(`${who} ${TIMEOUT_WORDS[timeout.waited](timeout.seconds)}. ${advice}`);
  }
  if (chain.some(isRefusedAddress)) {
    const why = firstLine(refusedText(chain));
    return cap(
      /larger than|too large/.test(why)
        ? `${who} sent a larger answer than the app accepts (${why}).`
        : `The app may not call this address: ${why}.`,
    );
  }
  if (status === undefined && chain.some(isNetworkError))
    return cap(
      `Could not reach ${host ?? who.replace(/^The /, "the ")}${networkCode(chain)}. Check the base URL and that the server is running.`,
    );
  if (chain.some(isFormatError)) return cap(`${who}'s answer is not in the expected format. ${otherStyle(ctx.style)}`);
  if (status !== undefined) {
    const detail = providerDetail(chain);
    return cap(`${who} refused the request (HTTP ${status})${detail ? `: ${detail}` : "."}`);
  }
  return cap(firstLine(messageOf(chain[0])) || "The model call failed.");
}

/** The error, then what it wraps (a RetryError's last error, a cause), a few levels deep. */
function errorChain(error: unknown): ErrorLike[] {
  const chain: ErrorLike[] = [];
  let next: unknown = error;
  while (chain.length < 6 && next !== undefined && next !== null) {
    if (typeof next === "string") {
      chain.push({ message: next });
      break;
    }
    if (typeof next !== "object") break;
    const e = next as ErrorLike;
    chain.push(e);
    next = e.lastError ?? e.cause;
  }
  return chain;
}

function statusOf(e: ErrorLike): number | undefined {
  const status = e.statusCode;
  return typeof status === "number" && status >= 400 && status <= 599 ? status : undefined;
}

/** "HTTP 401: …" (model-call-error.ts's messageWithStatus): the status of an error known only by its words. */
function statusInText(chain: ErrorLike[]): number | undefined {
  for (const e of chain) {
    const match = /\bHTTP (\d{3})\b/.exec(messageOf(e));
    const status = Number(match?.[1]);
    if (status >= 400 && status <= 599) return status;
  }
  return undefined;
}

function hostOf(e: ErrorLike): string | undefined {
  // Node's network errors name the address they tried.
  if (typeof e.address === "string") return typeof e.port === "number" ? `${e.address}:${e.port}` : e.address;
  if (typeof e.url !== "string") return undefined;
  try {
    return new URL(e.url).host;
  } catch {
    return undefined;
  }
}

const NETWORK_CODES = ["ECONNREFUSED", "ENOTFOUND", "ETIMEDOUT", "ECONNRESET", "EAI_AGAIN", "EHOSTUNREACH"];
const NETWORK_WORDS =
  /fetch failed|ECONNREFUSED|ENOTFOUND|ETIMEDOUT|ECONNRESET|EAI_AGAIN|EHOSTUNREACH|Cannot connect to API|network connection lost|socket hang up|getaddrinfo/i;

function isNetworkError(e: ErrorLike): boolean {
  return (typeof e.code === "string" && NETWORK_CODES.includes(e.code)) || NETWORK_WORDS.test(messageOf(e));
}

/** " (connection refused)" and the like, where the error says which. */
function networkCode(chain: ErrorLike[]): string {
  const text = chain.map((e) => `${typeof e.code === "string" ? e.code : ""} ${messageOf(e)}`).join(" ");
  if (/ECONNREFUSED/.test(text)) return " (connection refused)";
  if (/ENOTFOUND|EAI_AGAIN|getaddrinfo/.test(text)) return " (no such host)";
  if (/ETIMEDOUT/.test(text)) return " (timed out)";
  return "";
}

/** outbound/policy.ts's OutboundRefused: a private address, or a response over the size cap. */
const isRefusedAddress = (e: ErrorLike) => e.name === "OutboundRefused";
const refusedText = (chain: ErrorLike[]) =>
  messageOf(chain.find(isRefusedAddress) ?? {}).replace(/^refused: /, "") || "refused";

const FORMAT_NAMES = ["AI_TypeValidationError", "AI_JSONParseError", "TypeValidationError", "JSONParseError"];
const FORMAT_WORDS = /invalid_union|Type validation failed|JSON parsing failed|Unexpected token|is not valid JSON/i;

const isFormatError = (e: ErrorLike) =>
  (typeof e.name === "string" && FORMAT_NAMES.includes(e.name)) || FORMAT_WORDS.test(messageOf(e));

function otherStyle(style: ApiStyle | undefined): string {
  if (!style) return "Try the other API style (Chat Completions or Responses) in Settings → Models.";
  const other: ApiStyle = style === "chat" ? "responses" : "chat";
  return `It was called with ${STYLE_NAMES[style]}: try ${STYLE_NAMES[other]} in Settings → Models.`;
}

/** The provider's own short reason (OpenAI's `{error: {message}}`), never an HTML page. */
function providerDetail(chain: ErrorLike[]): string {
  for (const e of chain) {
    if (typeof e.responseBody !== "string") continue;
    try {
      const body = JSON.parse(e.responseBody) as { error?: { message?: unknown } | string; message?: unknown };
      const text = typeof body.error === "string" ? body.error : (body.error?.message ?? body.message);
      if (typeof text === "string" && text.trim()) return clip(firstLine(text), 160);
    } catch {
      // Not JSON (an HTML error page): the status says enough.
    }
  }
  const message = firstLine(messageOf(chain[0]));
  return message && !/^HTTP \d{3}$/.test(message) ? clip(message, 160) : "";
}

function messageOf(e: ErrorLike | undefined): string {
  return typeof e?.message === "string" ? e.message : "";
}

const firstLine = (text: string) =>
  (
    text
      .split("\n")
      .map((l) => l.trim())
      .find(Boolean) ?? ""
  ).replace(/\s+/g, " ");

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}

const cap = (text: string) => clip(text, MAX_ERROR_WORDS);
