// A fake of the four web search APIs outbound/web-search.ts speaks, on one loopback server, each under
// a prefix so `${url}/<provider>` is that provider's SEARCH_URL: SearXNG (`GET /searxng/search?format=json`),
// Brave (`GET /brave/res/v1/web/search`), Tavily (`POST /tavily/search`), Exa (`POST /exa/search`). Each
// checks its key where the real API reads it and refuses a wrong one as that API does (Brave: 422
// SUBSCRIPTION_TOKEN_INVALID; Tavily, Exa: 401), answers in its own shape (Brave's <strong> marks, each
// API's date format), and fails on demand: an HTTP status with the API's error body, "hang" (no answer),
// "stall" (headers and half a body), "garbage" (200 with HTML); SearXNG's 403 is its html-only instance.
// Every request is recorded. Results name the query, so a test sees it arrived.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import { listenOnLoopback } from "./loopback-server.ts";

declare module "vitest" {
  interface ProvidedContext {
    /** The fake's address (the workers global setup starts one): `${url}/<provider>` is a provider's SEARCH_URL. */
    fakeSearchUrl: string;
  }
}

export type FakeSearchProvider = "searxng" | "brave" | "tavily" | "exa";
export type FakeSearchFailure = number | "hang" | "stall" | "garbage" | undefined;

export interface FakeSearchRequest {
  provider: FakeSearchProvider;
  method: string;
  /** The path without the provider's prefix and without the query (`/search`, `/res/v1/web/search`). */
  path: string;
  /** The URL's parameters, the full URL in `rawUrl`. */
  query?: Record<string, string>;
  rawUrl: string;
  body?: unknown;
  headers: IncomingHttpHeaders;
}

export interface FakeSearch {
  url: string;
  /** The keys the fake takes (SearXNG needs none). */
  keys: { brave: string; tavily: string; exa: string };
  /** `${url}/<provider>`: the provider's base URL (SEARCH_URL). */
  base(provider: FakeSearchProvider): string;
  requests: FakeSearchRequest[];
  setFailure(provider: FakeSearchProvider, failure: FakeSearchFailure): void;
  close(): Promise<void>;
}

const KEYS = { brave: "fake-brave-key-0123", tavily: "tvly-fake-key-4567", exa: "fake-exa-key-89ab" };

/** The results every provider gives for `query`, in its own words below. */
function pages(query: string) {
  return [
    {
      title: `${query} — Official documentation`,
      url: "https://docs.example.org/guide",
      text: `The <strong>${query}</strong> guide: install, configure &amp; deploy. Covers every option.`,
      day: "2024-03-05",
    },
    {
      title: `Getting started with ${query}`,
      url: "https://blog.example.com/posts/getting-started",
      text: `A walk through <strong>${query}</strong> for beginners &mdash; with examples &#8220;from scratch&#8221;.`,
      day: "2023-11-28",
    },
    {
      title: `${query} on Wikipedia`,
      url: "https://en.wikipedia.org/wiki/Example",
      text: `${query} is an example topic. ${"It has a long history and many details. ".repeat(20)}`,
      day: undefined,
    },
    // The same page again (a fragment apart): shown once.
    {
      title: `${query} — Official documentation (again)`,
      url: "https://docs.example.org/guide#install",
      text: "Duplicate of the first result.",
      day: "2024-03-05",
    },
    // Not a web page: never shown.
    { title: "A file share", url: "ftp://files.example.net/pub/", text: "An FTP server.", day: undefined },
    { title: "A script", url: "javascript:alert(1)", text: "Not a page.", day: undefined },
    {
      title: `${query} questions and answers`,
      url: "https://forum.example.net/t/12345",
      text: `People ask about <b>${query}</b> &lt;tips&gt; here.`,
      day: "2024-01-31",
    },
    {
      title: `${query} release notes`,
      url: "https://example.org/releases",
      text: "What changed in each version.",
      day: "2022-07-14",
    },
  ];
}

type Page = ReturnType<typeof pages>[number];

const MONTHS = "January February March April May June July August September October November December".split(" ");

/** "Tue, 05 Mar 2024 14:00:00 GMT", as Tavily gives news dates. */
function httpDate(day: string): string {
  return new Date(`${day}T14:00:00Z`).toUTCString();
}

const stripTags = (s: string) => s.replace(/<[^>]+>/g, "");

function searxngAnswer(query: string) {
  return {
    query,
    number_of_results: 0,
    results: pages(query).map((p, i) => ({
      url: p.url,
      title: p.title,
      content: stripTags(p.text),
      engine: "duckduckgo",
      parsed_url: [],
      template: "default.html",
      engines: ["duckduckgo"],
      positions: [i + 1],
      publishedDate: p.day ? `${p.day}T00:00:00` : null,
      score: 1 / (i + 1),
      category: "general",
    })),
    answers: [],
    corrections: [],
    infoboxes: [],
    suggestions: [`${query} tutorial`],
    unresponsive_engines: [],
  };
}

/** Brave: `page_age` ISO, `age` a date or words; the first result has words only ("2 days ago"). */
function braveAnswer(query: string, count: number) {
  const ageOf = (p: Page, i: number) => {
    if (i === 1) return { age: "2 days ago" };
    if (!p.day) return {};
    const [y, m, d] = p.day.split("-").map(Number);
    return { page_age: `${p.day}T08:15:00`, age: `${MONTHS[(m ?? 1) - 1]} ${d}, ${y}` };
  };
  return {
    type: "search",
    query: { original: query, more_results_available: true },
    mixed: { type: "mixed", main: [] },
    web: {
      type: "search",
      family_friendly: true,
      results: pages(query)
        .slice(0, count)
        .map((p, i) => ({
          type: "search_result",
          subtype: "generic",
          title: p.title,
          url: p.url,
          description: p.text,
          is_source_local: false,
          is_source_both: false,
          language: "en",
          family_friendly: true,
          meta_url: { scheme: "https", netloc: "example.org", hostname: "example.org", path: "" },
          ...ageOf(p, i),
        })),
    },
  };
}

function tavilyAnswer(query: string, count: number) {
  return {
    query,
    answer: null,
    images: [],
    results: pages(query)
      .slice(0, count)
      .map((p, i) => ({
        title: p.title,
        url: p.url,
        content: stripTags(p.text),
        score: 0.9 - i / 20,
        raw_content: null,
        ...(p.day ? { published_date: httpDate(p.day) } : {}),
      })),
    response_time: 1.2,
    request_id: "fake-tavily-request",
  };
}

function exaAnswer(query: string, count: number) {
  return {
    requestId: "fake-exa-request",
    resolvedSearchType: "neural",
    results: pages(query)
      .slice(0, count)
      .map((p, i) => ({
        id: p.url,
        // Exa may not know a page's title.
        title: i === 2 ? null : p.title,
        url: p.url,
        ...(p.day ? { publishedDate: `${p.day}T00:00:00.000Z` } : {}),
        author: null,
        score: 0.5,
        highlights: [stripTags(p.text), "A second highlight."],
        highlightScores: [0.4, 0.2],
      })),
    costDollars: { total: 0.005 },
  };
}

/** What each API says for a status, in its own shape. */
function errorBody(provider: FakeSearchProvider, status: number): { type: string; body: string } {
  const json = (value: unknown) => ({ type: "application/json", body: JSON.stringify(value) });
  const words = status === 429 ? "Too Many Requests" : status >= 500 ? "Internal Server Error" : "Request failed";
  switch (provider) {
    case "searxng":
      return { type: "text/html", body: `<!doctype html><title>${status} ${words}</title><h1>${words}</h1>` };
    case "brave":
      return json({
        type: "ErrorResponse",
        error: { id: "fake", status, code: status === 429 ? "RATE_LIMITED" : "INTERNAL", detail: words, meta: {} },
        time: 1_700_000_000,
      });
    case "tavily":
      return json({ detail: { error: words } });
    case "exa":
      return json({ requestId: "fake", error: words });
  }
}

/** Flask's page for an aborted request: what SearXNG answers format=json when settings.yml leaves json out. */
const FLASK_403 =
  "<!doctype html>\n<html lang=en>\n<title>403 Forbidden</title>\n<h1>Forbidden</h1>\n<p>You don&#39;t have the permission to access the requested resource. It is either read-protected or not readable by the server.</p>\n";

async function readBody(req: IncomingMessage): Promise<unknown> {
  let raw = "";
  for await (const chunk of req) raw += chunk;
  if (!raw) return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

function send(res: ServerResponse, status: number, type: string, body: string, headers: Record<string, string> = {}) {
  res.writeHead(status, { "Content-Type": type, ...headers });
  res.end(body);
}

export async function startFakeSearch(): Promise<FakeSearch> {
  const requests: FakeSearchRequest[] = [];
  const failures = new Map<FakeSearchProvider, FakeSearchFailure>();
  let origin = "";

  function fail(provider: FakeSearchProvider, failure: FakeSearchFailure, res: ServerResponse): boolean {
    if (failure === undefined) return false;
    if (failure === "hang") return true;
    if (failure === "stall") {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.write('{"results": [');
      return true;
    }
    if (failure === "garbage")
      send(res, 200, "text/html", "<!DOCTYPE html><html><head><title>Search</title></head><body>Hello</body></html>");
    else if (provider === "searxng" && failure === 403) send(res, 403, "text/html; charset=utf-8", FLASK_403);
    else if (failure >= 300 && failure < 400) send(res, failure, "text/plain", "", { Location: `${origin}/elsewhere` });
    else {
      const { type, body } = errorBody(provider, failure);
      send(res, failure, type, body, failure === 429 ? { "Retry-After": "30" } : {});
    }
    return true;
  }

  function answer(provider: FakeSearchProvider, seen: FakeSearchRequest, res: ServerResponse) {
    const { method, path, query = {}, headers } = seen;
    const body = (seen.body ?? {}) as Record<string, unknown>;
    const json = (value: unknown) => send(res, 200, "application/json", JSON.stringify(value));
    const refused = (status: number, value: unknown) => send(res, status, "application/json", JSON.stringify(value));
    if (provider === "searxng" && method === "GET" && path === "/search") {
      if (query.format !== "json") return send(res, 200, "text/html", "<!DOCTYPE html><html>results page</html>");
      return json(searxngAnswer(query.q ?? ""));
    }
    if (provider === "brave" && method === "GET" && path === "/res/v1/web/search") {
      if (headers["x-subscription-token"] !== KEYS.brave)
        return refused(422, {
          type: "ErrorResponse",
          error: {
            id: "fake",
            status: 422,
            code: "SUBSCRIPTION_TOKEN_INVALID",
            detail: "The provided subscription token is invalid.",
            meta: { component: "authentication" },
          },
          time: 1_700_000_000,
        });
      return json(braveAnswer(query.q ?? "", Math.min(20, Number(query.count ?? 20))));
    }
    if (provider === "tavily" && method === "POST" && path === "/search") {
      if (headers.authorization !== `Bearer ${KEYS.tavily}`)
        return refused(401, { detail: { error: "Unauthorized: missing or invalid API key." } });
      return json(tavilyAnswer(String(body.query ?? ""), Number(body.max_results ?? 5)));
    }
    if (provider === "exa" && method === "POST" && path === "/search") {
      if (headers["x-api-key"] !== KEYS.exa)
        return refused(401, { requestId: "fake", error: "Invalid API key", tag: "INVALID_API_KEY" });
      return json(exaAnswer(String(body.query ?? ""), Number(body.numResults ?? 10)));
    }
    send(res, 404, "text/plain", `no route ${method} ${path}`);
  }

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const [, prefix = "", ...rest] = url.pathname.split("/");
    const body = await readBody(req);
    if (!["searxng", "brave", "tavily", "exa"].includes(prefix)) return send(res, 404, "text/plain", "no provider");
    const provider = prefix as FakeSearchProvider;
    const seen: FakeSearchRequest = {
      provider,
      method: req.method ?? "",
      path: `/${rest.join("/")}`,
      rawUrl: req.url ?? "",
      headers: req.headers,
      ...(url.search ? { query: Object.fromEntries(url.searchParams) } : {}),
      ...(body !== undefined ? { body } : {}),
    };
    requests.push(seen);
    if (fail(provider, failures.get(provider), res)) return;
    answer(provider, seen, res);
  });
  const listening = await listenOnLoopback(server);
  origin = listening.origin;
  return {
    url: origin,
    keys: KEYS,
    base: (provider) => `${origin}/${provider}`,
    requests,
    setFailure: (provider, failure) => {
      failures.set(provider, failure);
    },
    close: listening.close,
  };
}
