// outbound/web-search.ts: the four providers against their fakes (test/support/fake-search.ts) through
// the real guarded fetch: each API's request (path, method, the key in its header and never in the URL),
// the results cleaned up alike (plain text, capped, dates, http(s) only, each URL once, at most `count`),
// every failure in its reason and words, the deadline, and the operator's variables read.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { guardedFetch, outboundPolicy } from "../../outbound/policy";
import { type SearchConfig, searchConfigFromEnv, searchWeb, WebSearchError } from "../../outbound/web-search";
import { dayOf, plainText } from "../../outbound/web-search/text";
import { type FakeSearch, type FakeSearchProvider, startFakeSearch } from "../support/fake-search";

// Loopback is allowed under either name (ALLOW_LOOPBACK is MCP_ALLOW_LOOPBACK's newer, wider name).
const LOOPBACK = { ALLOW_LOOPBACK: "true", MCP_ALLOW_LOOPBACK: "true" };
const guarded = guardedFetch(outboundPolicy(LOOPBACK));

let fake: FakeSearch;
beforeAll(async () => {
  fake = await startFakeSearch();
});
afterAll(() => fake.close());
afterEach(() => {
  for (const p of ["searxng", "brave", "tavily", "exa"] as const) fake.setFailure(p, undefined);
  fake.requests.length = 0;
});

const KEYED = ["brave", "tavily", "exa"] as const;
const ALL = ["searxng", ...KEYED] as const;

function configOf(provider: FakeSearchProvider, key?: string): SearchConfig {
  if (provider === "searxng") return { provider, url: fake.base(provider) };
  return { provider, url: fake.base(provider), key: key ?? fake.keys[provider] };
}

const search = (config: SearchConfig, count = 5, extra: { timeoutMs?: number; signal?: AbortSignal } = {}) =>
  searchWeb(config, "vitest", { count, fetch: guarded, ...extra });

/** The WebSearchError a search fails with (and the test fails if it does not). */
async function failure(run: Promise<unknown>): Promise<WebSearchError> {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WebSearchError);
  return error as WebSearchError;
}

const ONE_OF_EACH = [
  "https://docs.example.org/guide",
  "https://blog.example.com/posts/getting-started",
  "https://en.wikipedia.org/wiki/Example",
  "https://forum.example.net/t/12345",
  "https://example.org/releases",
];

describe("searchConfigFromEnv", () => {
  it("is undefined without a provider", () => {
    expect(searchConfigFromEnv({})).toBeUndefined();
    expect(searchConfigFromEnv({ SEARCH_PROVIDER: "  ", SEARCH_API_KEY: "k" })).toBeUndefined();
  });

  it("reads each provider, its URL and key (trimmed, the name in any case)", () => {
    expect(searchConfigFromEnv({ SEARCH_PROVIDER: " SearXNG ", SEARCH_URL: "https://search.example.org/" })).toEqual({
      provider: "searxng",
      url: "https://search.example.org/",
    });
    expect(searchConfigFromEnv({ SEARCH_PROVIDER: "brave", SEARCH_API_KEY: " BSA-key " })).toEqual({
      provider: "brave",
      key: "BSA-key",
    });
    expect(
      searchConfigFromEnv({ SEARCH_PROVIDER: "tavily", SEARCH_API_KEY: "tvly-1", SEARCH_URL: "http://127.0.0.1:9/t" }),
    ).toEqual({ provider: "tavily", key: "tvly-1", url: "http://127.0.0.1:9/t" });
    expect(searchConfigFromEnv({ SEARCH_PROVIDER: "EXA", SEARCH_API_KEY: "e" })).toEqual({ provider: "exa", key: "e" });
  });

  it("says in words what is wrong", () => {
    expect(searchConfigFromEnv({ SEARCH_PROVIDER: "google", SEARCH_API_KEY: "k" })).toEqual({
      error: "SEARCH_PROVIDER=google is not one of searxng, brave, tavily, exa",
    });
    for (const provider of KEYED)
      expect(searchConfigFromEnv({ SEARCH_PROVIDER: provider, SEARCH_URL: "https://proxy.example.com" })).toEqual({
        error: `SEARCH_PROVIDER=${provider} needs SEARCH_API_KEY`,
      });
    expect(searchConfigFromEnv({ SEARCH_PROVIDER: "searxng", SEARCH_API_KEY: "k" })).toEqual({
      error: "SEARCH_PROVIDER=searxng needs SEARCH_URL (the instance's base URL, https://…)",
    });
    expect(searchConfigFromEnv({ SEARCH_PROVIDER: "searxng", SEARCH_URL: "search.example.org" })).toEqual({
      error: "SEARCH_URL=search.example.org is not an http(s) URL",
    });
    expect(searchConfigFromEnv({ SEARCH_PROVIDER: "brave", SEARCH_API_KEY: "k", SEARCH_URL: "ftp://x.org" })).toEqual({
      error: "SEARCH_URL=ftp://x.org is not an http(s) URL",
    });
  });
});

describe("each provider's API", () => {
  it("SearXNG: GET /search?q=…&format=json, results cleaned, at most `count`", async () => {
    const results = await search(configOf("searxng"), 10);
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: "GET", path: "/search", query: { q: "vitest", format: "json" } });
    // Each page once (the #fragment copy dropped), the ftp: and javascript: results gone.
    expect(results.map((r) => r.url)).toEqual(ONE_OF_EACH);
    expect(results[0]).toEqual({
      title: "vitest — Official documentation",
      url: "https://docs.example.org/guide",
      snippet: "The vitest guide: install, configure & deploy. Covers every option.",
      date: "2024-03-05",
    });
    expect(results[2]?.date).toBeUndefined();
    // A long snippet is capped near 400 characters, at a word.
    const long = results[2]?.snippet ?? "";
    expect(long.length).toBeLessThanOrEqual(400);
    expect(long.length).toBeGreaterThan(350);
    expect(long).toMatch(/details\.…$|\w…$/);
    expect(await search(configOf("searxng"), 3)).toHaveLength(3);
  });

  it("Brave: GET /res/v1/web/search with X-Subscription-Token, <strong> and entities gone, its dates", async () => {
    const results = await search(configOf("brave"), 8);
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: "GET", path: "/res/v1/web/search", query: { q: "vitest", count: "8" } });
    expect(request?.headers["x-subscription-token"]).toBe(fake.keys.brave);
    expect(request?.headers.accept).toBe("application/json");
    expect(request?.rawUrl).not.toContain(fake.keys.brave);
    expect(results.map((r) => r.url)).toEqual(ONE_OF_EACH);
    expect(results[0]?.snippet).toBe("The vitest guide: install, configure & deploy. Covers every option.");
    expect(results[1]?.snippet).toBe("A walk through vitest for beginners — with examples “from scratch”.");
    expect(results[3]?.snippet).toBe("People ask about vitest <tips> here.");
    for (const r of results) expect(r.snippet).not.toMatch(/<(strong|b)>|&\w+;/);
    // page_age as a day; an age in words kept as words.
    expect(results[0]?.date).toBe("2024-03-05");
    expect(results[1]?.date).toBe("2 days ago");
    expect(results[3]?.date).toBe("2024-01-31");
  });

  it("Tavily: POST /search with Authorization: Bearer, {query, max_results}, published_date as a day", async () => {
    const results = await search(configOf("tavily"), 8);
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: "POST", path: "/search", body: { query: "vitest", max_results: 8 } });
    expect(request?.query).toBeUndefined();
    expect(request?.headers.authorization).toBe(`Bearer ${fake.keys.tavily}`);
    expect(request?.headers["content-type"]).toBe("application/json");
    expect(JSON.stringify(request?.body)).not.toContain(fake.keys.tavily);
    expect(results.map((r) => r.url)).toEqual(ONE_OF_EACH);
    expect(results[0]).toMatchObject({ title: "vitest — Official documentation", date: "2024-03-05" });
    expect(results[1]?.snippet).toBe("A walk through vitest for beginners — with examples “from scratch”.");
    expect(results[2]?.date).toBeUndefined();
  });

  it("Exa: POST /search with x-api-key, {query, numResults, contents.highlights}, a missing title named by its site", async () => {
    const results = await search(configOf("exa"), 8);
    const [request] = fake.requests;
    expect(request).toMatchObject({
      method: "POST",
      path: "/search",
      body: { query: "vitest", numResults: 8, contents: { highlights: {} } },
    });
    expect(request?.headers["x-api-key"]).toBe(fake.keys.exa);
    expect(request?.rawUrl).not.toContain(fake.keys.exa);
    expect(results.map((r) => r.url)).toEqual(ONE_OF_EACH);
    expect(results[0]).toEqual({
      title: "vitest — Official documentation",
      url: "https://docs.example.org/guide",
      snippet: "The vitest guide: install, configure & deploy. Covers every option. … A second highlight.",
      date: "2024-03-05",
    });
    expect(results[2]?.title).toBe("en.wikipedia.org");
  });

  it.each(KEYED)("%s: the API's own base unless a URL replaces it, through the fetch it is given", async (provider) => {
    const seen: Request[] = [];
    const recording: typeof fetch = async (input, init) => {
      seen.push(new Request(input, init));
      return Response.json({ type: "search", web: { results: [] }, results: [] });
    };
    const config = { provider, key: "k-123" } as SearchConfig;
    expect(await searchWeb(config, "q", { count: 3, fetch: recording })).toEqual([]);
    const official = {
      brave: "https://api.search.brave.com/res/v1/web/search?q=q&count=3",
      tavily: "https://api.tavily.com/search",
      exa: "https://api.exa.ai/search",
    };
    expect(seen.map((r) => r.url)).toEqual([official[provider]]);
  });

  it("sends every request through the fetch it is given, never another", async () => {
    let calls = 0;
    const counting: typeof fetch = (input, init) => {
      calls++;
      return guarded(input, init);
    };
    for (const provider of ALL) await searchWeb(configOf(provider), "vitest", { count: 2, fetch: counting });
    expect(calls).toBe(4);
    expect(fake.requests).toHaveLength(4);
  });
});

describe("failures, in the model's words", () => {
  it.each(KEYED)("%s: a wrong key is unauthorized, the key never in the words", async (provider) => {
    const error = await failure(search(configOf(provider, "wrong-key-42")));
    expect(error.reason).toBe("unauthorized");
    expect(error.message).toMatch(/ at http:\/\/127\.0\.0\.1:\d+\/\w+ refused the API key \(HTTP 4(01|22)/);
    expect(error.message).not.toContain("wrong-key-42");
    expect(fake.requests[0]?.rawUrl).not.toContain("wrong-key-42");
  });

  it("Brave's 422 SUBSCRIPTION_TOKEN_INVALID is a refused key, with its words", async () => {
    const error = await failure(search(configOf("brave", "nope")));
    expect(error.message).toMatch(
      /^Brave Search at .* refused the API key \(HTTP 422: The provided subscription token is invalid\.\)$/,
    );
  });

  it.each(ALL)("%s: 429 is rate_limited, with when to try again", async (provider) => {
    fake.setFailure(provider, 429);
    const error = await failure(search(configOf(provider)));
    expect(error.reason).toBe("rate_limited");
    expect(error.message).toMatch(/ is rate limiting searches \(HTTP 429\); try again in 30 s$/);
  });

  it.each(ALL)("%s: 500 is unavailable", async (provider) => {
    fake.setFailure(provider, 500);
    const error = await failure(search(configOf(provider)));
    expect(error.reason).toBe("unavailable");
    expect(error.message).toMatch(/ is not working right now \(HTTP 500.*\); try again later$/);
  });

  it("used-up credits (Tavily 432, Exa 402) are rate_limited, said as such", async () => {
    fake.setFailure("tavily", 432);
    fake.setFailure("exa", 402);
    for (const provider of ["tavily", "exa"] as const) {
      const error = await failure(search(configOf(provider)));
      expect(error.reason).toBe("rate_limited");
      expect(error.message).toMatch(/refused the search: the account's credits or usage limit are used up \(HTTP 4/);
    }
  });

  it.each(ALL)("%s: an answer that is not JSON is bad_response", async (provider) => {
    fake.setFailure(provider, "garbage");
    const error = await failure(search(configOf(provider)));
    expect(error.reason).toBe("bad_response");
    expect(error.message).toMatch(/ answered something that is not search results: Search Hello/);
    expect(error.message.includes("settings.yml")).toBe(provider === "searxng");
  });

  it("JSON that is not the API's answer is bad_response", async () => {
    const odd: typeof fetch = async () => Response.json({ hello: "world" });
    for (const provider of ALL) {
      const error = await failure(searchWeb(configOf(provider), "q", { count: 3, fetch: odd }));
      expect(error.reason).toBe("bad_response");
      expect(error.message).toContain('not search results: {"hello":"world"}');
    }
  });

  it("SearXNG without its JSON format (403) says how to turn it on", async () => {
    fake.setFailure("searxng", 403);
    const error = await failure(search(configOf("searxng")));
    expect(error.reason).toBe("bad_response");
    expect(error.message).toBe(
      `SearXNG at ${fake.base("searxng")} refused to answer in JSON (HTTP 403): is its JSON format enabled? \`search.formats: [html, json]\` in settings.yml`,
    );
  });

  it("a redirect is not followed", async () => {
    fake.setFailure("searxng", 301);
    const error = await failure(search(configOf("searxng")));
    expect(error.reason).toBe("bad_response");
    expect(error.message).toContain(`answered with a redirect (HTTP 301 to ${fake.url}/elsewhere)`);
    expect(fake.requests).toHaveLength(1);
  });

  it.each(["hang", "stall"] as const)("a provider that does not finish (%s) times out at timeoutMs", async (how) => {
    for (const provider of ALL) {
      fake.setFailure(provider, how);
      const started = Date.now();
      const error = await failure(search(configOf(provider), 5, { timeoutMs: 300 }));
      expect(Date.now() - started).toBeLessThan(3000);
      expect(error.reason).toBe("timeout");
      expect(error.message).toMatch(/^[\w ]+ at http:\/\/127\.0\.0\.1:\d+\/\w+ did not answer within 0\.3 s$/);
      expect(error.message).toContain(fake.base(provider));
    }
  });

  it("the caller's abort rejects with the caller's reason, not a WebSearchError", async () => {
    fake.setFailure("brave", "hang");
    const stop = new AbortController();
    setTimeout(() => stop.abort(new Error("stopped by the user")), 100);
    const error = await search(configOf("brave"), 5, { signal: stop.signal, timeoutMs: 5000 }).catch((e) => e);
    expect(error).not.toBeInstanceOf(WebSearchError);
    expect((error as Error).message).toBe("stopped by the user");
  });

  it("a server that is not there, or a URL the policy refuses, is unavailable", async () => {
    const gone = await startFakeSearch();
    const url = gone.base("searxng");
    await gone.close();
    const down = await failure(search({ provider: "searxng", url }));
    expect(down.reason).toBe("unavailable");
    expect(down.message).toMatch(/^SearXNG at http:\/\/127\.0\.0\.1:\d+\/searxng could not be reached \(\w+/);

    const inside = await failure(search({ provider: "searxng", url: "http://10.1.2.3/searx" }));
    expect(inside.reason).toBe("unavailable");
    expect(inside.message).toBe(
      "SearXNG at http://10.1.2.3/searx cannot be reached: refused: 10.1.2.3 is a private, link-local or reserved address",
    );
    const strict = guardedFetch(outboundPolicy({}));
    const loopback = await failure(searchWeb(configOf("tavily"), "q", { count: 3, fetch: strict }));
    expect(loopback.message).toMatch(/cannot be reached: refused: 127\.0\.0\.1 is a loopback address/);
    expect(fake.requests).toHaveLength(0);
  });

  it("a provider missing its key or URL fails before any request", async () => {
    const noKey = await failure(search({ provider: "exa", url: fake.base("exa") }));
    expect(noKey).toMatchObject({ reason: "unauthorized", message: "Exa needs an API key" });
    const noUrl = await failure(search({ provider: "searxng" }));
    expect(noUrl).toMatchObject({ reason: "unavailable", message: "SearXNG needs its instance's URL" });
    expect(fake.requests).toHaveLength(0);
  });
});

describe("the clean-up's parts", () => {
  it("plainText: tags out (inline ones without a space), entities decoded, spaces collapsed, capped", () => {
    expect(plainText("<p>One</p><p>two</p>", 100)).toBe("One two");
    expect(plainText("Vi<strong>test</strong> &amp; co &#x1F600; &#39;x&#39; &bogus;", 100)).toBe(
      "Vitest & co 😀 'x' &bogus;",
    );
    expect(plainText("a\u0000b \n\t c", 100)).toBe("ab c");
    expect(plainText("word ".repeat(50), 40)).toMatch(/^(word ){6}word…$/);
  });

  it("dayOf: a day where the text is a date, the text as given otherwise", () => {
    expect(dayOf("2024-03-05T10:00:00")).toBe("2024-03-05");
    expect(dayOf("2024-01-31T23:30:00.000Z")).toBe("2024-01-31");
    expect(dayOf("Tue, 05 Mar 2024 14:00:00 GMT")).toBe("2024-03-05");
    expect(dayOf("March 5, 2024")).toBe("2024-03-05");
    expect(dayOf("2 days ago")).toBe("2 days ago");
    expect(dayOf("5")).toBe("5");
    expect(dayOf("2024")).toBe("2024");
    expect(dayOf("")).toBeUndefined();
    expect(dayOf(null)).toBeUndefined();
  });
});
