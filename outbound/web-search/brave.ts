// Brave Search's Web Search API (api-dashboard.search.brave.com documentation; the official
// brave/brave-search-mcp-server, src/BraveAPI): `GET https://api.search.brave.com/res/v1/web/search?q=…&count=…`
// (count 1–20) with `X-Subscription-Token: <key>` and `Accept: application/json` → `{type: "search",
// web: {results: [{title, url, description, page_age?, age?, …}]}, …}`; `web` is absent when nothing was
// found. `description` marks the query's words with <strong>; `page_age` is an ISO date-time, `age` either
// a date ("March 5, 2024") or words ("2 days ago"). A refused key is 422 with
// `{type: "ErrorResponse", error: {code: "SUBSCRIPTION_TOKEN_INVALID", detail, status}}`.
import { z } from "zod";
import { apiUrl, eachResult, optionalText, resultList, type SearchAdapter } from "./adapter";

const Answer = z
  .object({ type: z.string().optional(), web: z.object({ results: resultList.catch([]) }).optional() })
  .refine((a) => a.type === "search" || a.web !== undefined, "not a web search answer");
const Result = z.object({
  url: z.string(),
  title: optionalText,
  description: optionalText,
  page_age: optionalText,
  age: optionalText,
});
const ErrorAnswer = z.object({ error: z.object({ code: z.string() }) });

export const brave: SearchAdapter = {
  defaultBase: "https://api.search.brave.com",
  request: (base, query, count, key) => ({
    url: apiUrl(base, "/res/v1/web/search", { q: query, count: String(count) }),
    init: { method: "GET", headers: { Accept: "application/json", "X-Subscription-Token": key ?? "" } },
  }),
  results: (body) =>
    eachResult(Answer.parse(body).web?.results ?? [], Result, (r) => ({
      title: r.title,
      url: r.url,
      snippet: r.description ?? undefined,
      date: r.page_age || r.age || undefined,
    })),
  refusesKey: (_status, body) => ErrorAnswer.safeParse(body).data?.error.code === "SUBSCRIPTION_TOKEN_INVALID",
};
