// SearXNG (docs.searxng.org/dev/search_api; searx/webapp.py, searx/webutils.py): `GET <instance>/search?q=…
// &format=json` → `{query, results: [{title, url, content, publishedDate, engine, …}], answers, …}`,
// `publishedDate` an ISO date-time or null. An instance whose settings.yml leaves `json` out of
// `search.formats` answers 403 (its default is html only); no key, and no way to ask for fewer results.
import { z } from "zod";
import { apiUrl, eachResult, optionalText, resultList, type SearchAdapter } from "./adapter";

const Answer = z.object({ results: resultList });
const Result = z.object({ url: z.string(), title: optionalText, content: optionalText, publishedDate: optionalText });

export const searxng: SearchAdapter = {
  request: (base, query) => ({
    url: apiUrl(base, "/search", { q: query, format: "json" }),
    init: { method: "GET", headers: { Accept: "application/json" } },
  }),
  results: (body) =>
    eachResult(Answer.parse(body).results, Result, (r) => ({
      title: r.title,
      url: r.url,
      snippet: r.content ?? undefined,
      date: r.publishedDate ?? undefined,
    })),
};
