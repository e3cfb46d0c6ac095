// A web tool call (web_search, web_fetch; docs/protocol.md "The web") in the chat's words, for its card
// (components/web/): what it did, and what it found. Read loosely, as a call still running has no result
// and an old one may lack a field. Only the web chunk imports it, so it stays out of the first load.
import { siteOf } from "../../../protocol";
import { plural } from "./plural";

/** A web tool call as the chat's card and the transcript say it (protocol.md "The web"). */
export interface WebCallWords {
  /** "Searched the web for “rivers”", "Read River levels · example.com", "Could not read example.com: …". */
  title: string;
  /** What it found, after the title: "5 results", "lines 1-180 of 420", "3 lines match". */
  count?: string;
}

/** What a web tool call is given and gives, read loosely: a call still running has no result yet. */
export interface WebCall {
  tool: string;
  args: unknown;
  status: string;
  result?: unknown;
  error?: string;
}

type Loose = Record<string, unknown>;
const record = (value: unknown): Loose => (value && typeof value === "object" ? (value as Loose) : {});
const str = (value: unknown): string => (typeof value === "string" ? value.trim() : "");
const num = (value: unknown): number | undefined => (typeof value === "number" ? value : undefined);

/** A query in quotes, cut to a line: “rivers in spate”. */
function quote(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return `“${line.length > 80 ? `${line.slice(0, 79).trimEnd()}…` : line}”`;
}

/** "lines 1-180 of 420", "pages 3-5 of 12", "420 lines": how much of the page the call read. */
function readExtent(result: Loose): string | undefined {
  const range = record(result.range);
  const pages = num(result.total_pages);
  const lines = num(result.total_lines);
  if (typeof range.pages === "string") return `pages ${range.pages}${pages ? ` of ${pages}` : ""}`;
  if (typeof range.lines === "string") return `lines ${range.lines}${lines ? ` of ${lines}` : ""}`;
  if (pages) return plural(pages, "page");
  return lines === undefined ? undefined : plural(lines, "line");
}

/** A web_search or web_fetch call in words; null for any other tool. */
export function webCallWords(call: WebCall): WebCallWords | null {
  const args = record(call.args);
  const result = record(call.result);
  const done = call.status === "success";
  const failed = call.status === "error" || call.status === "timeout";
  const why = str(call.error) || (call.status === "timeout" ? "it took too long" : "it failed");
  if (call.tool === "web_search") {
    const query = quote(str(result.query) || str(args.query));
    if (failed) return { title: `Could not search the web for ${query}: ${why}` };
    if (!done) return { title: `Searching the web for ${query}` };
    const results = Array.isArray(result.results) ? result.results.length : 0;
    return { title: `Searched the web for ${query}`, count: results ? plural(results, "result") : "no results" };
  }
  if (call.tool !== "web_fetch") return null;
  const url = str(result.url) || str(args.url);
  const site = str(result.site) || siteOf(url);
  const find = str(result.query) || str(args.find);
  if (find) {
    if (failed) return { title: `Could not search ${site} for ${quote(find)}: ${why}` };
    if (!done) return { title: `Searching ${site} for ${quote(find)}` };
    const total = num(result.total) ?? (Array.isArray(result.hits) ? result.hits.length : 0);
    return {
      title: `Searched ${site} for ${quote(find)}`,
      count: total ? plural(total, "line matches", "lines match") : "no matches",
    };
  }
  if (failed) return { title: `Could not read ${site}: ${why}` };
  if (!done) return { title: `Reading ${site}` };
  const title = str(result.title);
  const extent = readExtent(result);
  return {
    title: title && title !== site ? `Read ${title} · ${site}` : `Read ${site}`,
    ...(extent ? { count: extent } : {}),
  };
}
