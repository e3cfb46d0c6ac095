// Exa (exa.ai/docs/reference/search; the official exa-labs/exa-js client): `POST https://api.exa.ai/search`
// with `x-api-key: <key>` and JSON `{query, numResults, type: "auto", contents: {highlights: {maxCharacters}}}`
// → `{requestId, results: [{id, title (or null), url, publishedDate?, author?, highlights?: string[],
// text?, summary?}], …}`. Errors: `{requestId, error, tag?}` with 401 (key), 402 (no credits left), 429.
import { z } from "zod";
import { apiUrl, eachResult, JSON_HEADERS, optionalText, resultList, type SearchAdapter, SNIPPET_MAX } from "./adapter";

const Answer = z.object({ results: resultList });
const Result = z.object({
  url: z.string(),
  title: optionalText,
  publishedDate: optionalText,
  highlights: z.array(z.string()).nullish().catch(undefined),
  summary: optionalText,
  text: optionalText,
});

export const exa: SearchAdapter = {
  defaultBase: "https://api.exa.ai",
  request: (base, query, count, key) => ({
    url: apiUrl(base, "/search"),
    init: {
      method: "POST",
      headers: { ...JSON_HEADERS, "x-api-key": key ?? "" },
      body: JSON.stringify({
        query,
        numResults: count,
        type: "auto",
        contents: { highlights: { maxCharacters: SNIPPET_MAX } },
      }),
    },
  }),
  results: (body) =>
    eachResult(Answer.parse(body).results, Result, (r) => ({
      title: r.title,
      url: r.url,
      snippet: r.highlights?.filter((h) => h.trim()).join(" … ") || r.summary || r.text || undefined,
      date: r.publishedDate ?? undefined,
    })),
};
