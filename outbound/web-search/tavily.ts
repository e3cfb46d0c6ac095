// Tavily (docs.tavily.com/api-reference/endpoint/search; the official tavily-ai/tavily-python client):
// `POST https://api.tavily.com/search` with `Authorization: Bearer <key>` and JSON `{query, max_results,
// search_depth, topic, include_answer, include_raw_content, include_images}` → `{query, results: [{title,
// url, content, score, raw_content?, published_date?}], response_time, …}`; `published_date` (news) as
// "Tue, 05 Mar 2024 14:00:00 GMT". Errors: `{detail: {error}}` with 401 (key), 429 (rate), 432 and 433
// (the plan's or pay-as-you-go limit).
import { z } from "zod";
import { apiUrl, eachResult, JSON_HEADERS, optionalText, resultList, type SearchAdapter } from "./adapter";

const Answer = z.object({ results: resultList });
const Result = z.object({ url: z.string(), title: optionalText, content: optionalText, published_date: optionalText });

export const tavily: SearchAdapter = {
  defaultBase: "https://api.tavily.com",
  request: (base, query, count, key) => ({
    url: apiUrl(base, "/search"),
    init: {
      method: "POST",
      headers: { ...JSON_HEADERS, Authorization: `Bearer ${key ?? ""}` },
      body: JSON.stringify({
        query,
        max_results: count,
        search_depth: "basic",
        topic: "general",
        include_answer: false,
        include_raw_content: false,
        include_images: false,
      }),
    },
  }),
  results: (body) =>
    eachResult(Answer.parse(body).results, Result, (r) => ({
      title: r.title,
      url: r.url,
      snippet: r.content ?? undefined,
      date: r.published_date ?? undefined,
    })),
};
