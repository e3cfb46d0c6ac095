// One public web page read for the agent (web_fetch; docs/architecture.md "Reading the web"): every hop
// through the outbound policy (policy.ts), redirects followed here (at most 5, each Location checked
// again), one deadline over connecting, headers and body, the body counted as it is decoded (a gzip bomb
// fails at the cap without being held), and the content type deciding how it is read: HTML as Markdown
// (page-markdown.ts), a PDF by pages (core/pdf-text.ts), text as it is. A failure is a WebPageError whose
// message the model reads. The text is returned as the page has it: the agent layer neutralises it.
//
// No cookie or credential is ever sent: Workers' fetch keeps no cookie jar, and no Authorization or Cookie
// header is set here (`credentials: "omit"` is not given: workerd does not implement that field).
import { joinBytes } from "../core/bytes";
import { deadline } from "../core/deadline";
import { looksLikePdf, normalizedText, pdfText } from "../core/pdf-text";
import { siteOf } from "../protocol/web";
import { pageMarkdown } from "./page-markdown";
import { fetchCause, type OutboundPolicy, refusedUrl, secondsText } from "./policy";

export const WEB_PAGE_TIMEOUT_MS = 15_000;
export const WEB_PAGE_MAX_BYTES = 5 * 1024 * 1024;
export const MAX_REDIRECTS = 5;
/** Says what is asking, honestly; "Mozilla/5.0 (compatible; …)" so sites answer with their ordinary page. */
export const WEB_PAGE_USER_AGENT =
  "Mozilla/5.0 (compatible; OracleBot/1.0; an AI assistant reading a page its user asked about)";
const ACCEPT = "text/html,application/xhtml+xml,application/pdf,text/plain;q=0.9,*/*;q=0.5";

export interface WebPage {
  /** Where the page was read, after redirects. */
  url: string;
  title: string;
  /** The host it came from, without "www.". */
  site: string;
  kind: "html" | "pdf" | "text";
  /** Markdown (HTML), the text as it is (text), or a PDF's pages joined with "\n" (as core/file-text.ts reads it). */
  text: string;
  /** A PDF's pages, one string a page. */
  pages?: string[];
  /** The body's size as it arrived, decoded. */
  bytes: number;
  /** How many redirects led here. */
  redirects: number;
  byline?: string;
  published?: string;
  lang?: string;
}

export type WebPageFailure =
  | "blocked"
  | "timeout"
  | "too_large"
  | "not_found"
  | "http_error"
  | "unsupported"
  | "unreachable";

export class WebPageError extends Error {
  override name = "WebPageError";
  constructor(
    readonly reason: WebPageFailure,
    message: string,
    /** The HTTP status, for not_found and http_error. */
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface ReadWebPageOptions {
  policy: OutboundPolicy;
  /** The caller's (the tool call's): aborting it rejects with its reason, not a WebPageError. */
  signal?: AbortSignal;
  /** The whole read, every hop and the body included (default 15 s). */
  timeoutMs?: number;
  /** The body's largest size, decoded (default 5 MiB). */
  maxBytes?: number;
  /** Tests only: a fetch to use instead of the global one. */
  fetch?: typeof fetch;
}

/** "5 MB", "512 KB", "300 bytes". */
export function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Number((bytes / (1024 * 1024)).toFixed(1))} MB`;
  if (bytes >= 1024) return `${Number((bytes / 1024).toFixed(1))} KB`;
  return `${bytes} bytes`;
}

/** What the body is, by the media type the server gave (lower case, parameters off). */
function kindOf(type: string): WebPage["kind"] | "sniff" | "unsupported" {
  if (type === "text/html" || type === "application/xhtml+xml") return "html";
  if (type === "application/pdf" || type === "application/x-pdf") return "pdf";
  if (!type || type === "application/octet-stream" || type === "binary/octet-stream") return "sniff";
  if (/^(image|audio|video|font|model)\//.test(type)) return "unsupported";
  if (type.startsWith("text/")) return "text";
  if (
    /^application\/(?:json|jsonl?|x-ndjson|xml|javascript|x-javascript|ecmascript|yaml|x-yaml|toml|sql|x-tex|x-sh)$/.test(
      type,
    )
  )
    return "text";
  if (/^application\/[\w.-]+\+(?:json|xml|yaml)$/.test(type)) return "text";
  return "unsupported";
}

/**
 * Reads `url` for the agent: a WebPage, or a WebPageError in words ("refused: 10.0.0.5 is a private,
 * link-local or reserved address", "HTTP 404: the page was not found", "the page is larger than 5 MB"…).
 */
export async function readWebPage(url: string, options: ReadWebPageOptions): Promise<WebPage> {
  const timeoutMs = options.timeoutMs ?? WEB_PAGE_TIMEOUT_MS;
  let current: URL;
  try {
    current = new URL(url.trim());
  } catch {
    throw new WebPageError("blocked", `${url} is not a valid URL`);
  }
  const limit = deadline(timeoutMs, "the page took too long", options.signal);
  try {
    const { response, redirects } = await follow(current, options, limit.signal, (next) => {
      current = next;
    });
    return await pageOf(response, current, redirects, options);
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason ?? error;
    if (error instanceof WebPageError) throw error;
    if (limit.expired)
      throw new WebPageError("timeout", `${current.host} took longer than ${secondsText(timeoutMs)} to answer`);
    throw new WebPageError("unreachable", `${current.host} could not be reached (${fetchCause(error)})`);
  } finally {
    limit.clear();
  }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** The first answer that is not a redirect, each hop checked by the policy before it is asked. */
async function follow(
  start: URL,
  options: ReadWebPageOptions,
  signal: AbortSignal,
  moved: (url: URL) => void,
): Promise<{ response: Response; redirects: number }> {
  const fetcher = options.fetch ?? fetch;
  let url = start;
  for (let redirects = 0; ; redirects++) {
    const refused = refusedUrl(url, options.policy);
    if (refused) throw new WebPageError("blocked", redirects ? `${refused} (a redirect led there)` : refused);
    const response = await fetcher(url.href, {
      method: "GET",
      redirect: "manual",
      signal,
      headers: { "User-Agent": WEB_PAGE_USER_AGENT, Accept: ACCEPT },
    });
    if (!REDIRECTS.has(response.status)) return { response, redirects };
    await response.body?.cancel();
    const location = response.headers.get("location");
    if (!location) throw new WebPageError("http_error", `HTTP ${response.status}: a redirect that says not where to`);
    if (redirects >= MAX_REDIRECTS)
      throw new WebPageError("http_error", `the page redirected more than ${MAX_REDIRECTS} times`, response.status);
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      throw new WebPageError("http_error", `HTTP ${response.status}: a redirect to an invalid URL`, response.status);
    }
    url = next;
    moved(url);
  }
}

/** A non-2xx answer in words. */
function statusError(response: Response): WebPageError {
  const { status } = response;
  if (status === 404) return new WebPageError("not_found", "HTTP 404: the page was not found", status);
  if (status === 410) return new WebPageError("not_found", "HTTP 410: the page is gone", status);
  const why =
    status === 401 || status === 403
      ? "the site refused to show the page (it may need a sign-in)"
      : status === 429
        ? "the site is limiting requests; try again later"
        : status >= 500
          ? "the site failed to answer"
          : "the site refused the request";
  return new WebPageError("http_error", `HTTP ${status}: ${why}`, status);
}

async function pageOf(response: Response, url: URL, redirects: number, options: ReadWebPageOptions): Promise<WebPage> {
  const maxBytes = options.maxBytes ?? WEB_PAGE_MAX_BYTES;
  if (!response.ok) {
    await response.body?.cancel();
    throw statusError(response);
  }
  const contentType = response.headers.get("content-type") ?? "";
  const type = contentType.split(";")[0]?.trim().toLowerCase() ?? "";
  let kind = kindOf(type);
  if (kind === "unsupported") {
    await response.body?.cancel();
    throw new WebPageError("unsupported", `${type} is not a page the agent can read`);
  }
  const declared = Number(response.headers.get("content-length") ?? 0);
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw new WebPageError("too_large", `the page is larger than ${sizeText(maxBytes)} (${sizeText(declared)})`);
  }
  const bytes = await bodyOf(response, maxBytes);
  // A PDF mislabelled as HTML or text starts with its mark; one without a type may have bytes before it.
  if (looksLikePdf(bytes, kind === "sniff" ? undefined : 0)) kind = "pdf";
  else if (kind === "sniff") kind = sniffed(bytes, type);
  const head = { url: url.href, site: siteOf(url.href), bytes: bytes.byteLength, redirects };
  if (kind === "pdf") return pdfPage(bytes, url, head);
  const text = decoded(bytes, charsetOf(contentType) ?? (kind === "html" ? metaCharset(bytes) : undefined));
  if (kind === "html") {
    const page = pageMarkdown(text, url.href);
    if (!page.markdown)
      throw new WebPageError(
        "unsupported",
        `the page at ${url.host} has no text to read (it may build itself with JavaScript, which is not run)`,
      );
    const { byline, published, lang } = page;
    return {
      ...head,
      kind,
      title: page.title || fileName(url),
      text: page.markdown,
      ...(byline ? { byline } : {}),
      ...(published ? { published } : {}),
      ...(lang ? { lang } : {}),
    };
  }
  return { ...head, kind, title: fileName(url), text: normalizedText(text) };
}

async function pdfPage(bytes: Uint8Array, url: URL, head: Omit<WebPage, "kind" | "title" | "text">): Promise<WebPage> {
  const pdf = await pdfText(bytes);
  if (pdf === "unreadable")
    throw new WebPageError("unsupported", "the PDF could not be read (it may be damaged or password-protected)");
  if (pdf === "no_text") throw new WebPageError("unsupported", "the PDF has no text to read (a scanned document?)");
  return { ...head, kind: "pdf", title: fileName(url), text: pdf.text, pages: pdf.pages };
}

/** The body, decoded as it streams (fetch undoes gzip, br, deflate), failing once it passes `max` bytes. */
async function bodyOf(response: Response, max: number): Promise<Uint8Array> {
  if (!response.body) return new Uint8Array();
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      throw new WebPageError("too_large", `the page is larger than ${sizeText(max)}`);
    }
    chunks.push(value);
  }
  return joinBytes(chunks);
}

/** A body served without a type: HTML or text when it reads as UTF-8 text, otherwise unsupported. */
function sniffed(bytes: Uint8Array, type: string): WebPage["kind"] {
  const what = type || "a file without a content type";
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes.subarray(0, 64 * 1024));
  } catch (error) {
    // A multi-byte character cut at 64 KB is still text.
    if (bytes.byteLength <= 64 * 1024 || !(error instanceof TypeError))
      throw new WebPageError("unsupported", `${what} is not a page the agent can read`);
    text = new TextDecoder().decode(bytes.subarray(0, 64 * 1024 - 4));
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what marks a binary file
  if (/[\u0000-\u0008\u000e-\u001a]/.test(text))
    throw new WebPageError("unsupported", `${what} is not a page the agent can read`);
  return /^\s*<(?:!doctype\s+html|html[\s>]|head[\s>]|body[\s>])/i.test(text) ? "html" : "text";
}

function charsetOf(contentType: string): string | undefined {
  return /;\s*charset\s*=\s*"?([\w.:-]+)"?/i.exec(contentType)?.[1]?.toLowerCase();
}

/** An HTML page's <meta charset> or http-equiv Content-Type, in its first 1024 bytes. */
function metaCharset(bytes: Uint8Array): string | undefined {
  const head = new TextDecoder().decode(bytes.subarray(0, 1024));
  return /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1]?.toLowerCase();
}

/** Text in its charset (UTF-8 when none is given or the runtime does not know it); a BOM wins. */
function decoded(bytes: Uint8Array, charset: string | undefined): string {
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset ?? "utf-8");
  } catch {
    decoder = new TextDecoder();
  }
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) decoder = new TextDecoder();
  return decoder.decode(bytes);
}

/** A title for what has none of its own: the file's name in the URL, else the host. */
function fileName(url: URL): string {
  const last = url.pathname.split("/").filter(Boolean).pop();
  if (!last) return url.host;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}
