// The web pages a conversation's agent found and read, by number (docs/protocol.md "The web"). A page's
// number is given the first time the conversation meets its URL (a search result or a page read) and
// kept: the numbers live in the web tools' results in the log, so a restart, a replay and an export all
// read the same ones. An answer cites them as `[n]`; its `sources` are the pages it cites.
import {
  citedNumbers,
  MAX_ANSWER_SOURCES,
  type Message,
  siteOf,
  type ToolMessage,
  type WebSource,
} from "../../protocol";

export const WEB_SEARCH = "web_search";
export const WEB_FETCH = "web_fetch";

/** The sources a web tool's result names: a search's results, or the page a read was of. */
function sourcesIn(message: ToolMessage): WebSource[] {
  if (message.status !== "success" || !message.result || typeof message.result !== "object") return [];
  const result = message.result as { n?: unknown; url?: unknown; title?: unknown; results?: unknown };
  const candidates = message.tool === WEB_SEARCH && Array.isArray(result.results) ? result.results : [result];
  const found: WebSource[] = [];
  for (const item of candidates as { n?: unknown; url?: unknown; title?: unknown }[]) {
    if (typeof item?.n !== "number" || typeof item.url !== "string") continue;
    const title = typeof item.title === "string" && item.title ? item.title : siteOf(item.url);
    found.push({ n: item.n, url: item.url, title, site: siteOf(item.url) });
  }
  return found;
}

const isWebTool = (message: Message): message is ToolMessage =>
  message.role === "tool" && (message.tool === WEB_SEARCH || message.tool === WEB_FETCH);

/**
 * The numbers given so far, and the next: seeded from the log once, then kept as calls run (two calls
 * of one step number their pages apart before either result is saved). A page read after a search
 * keeps the search's number and takes the read's title.
 */
export class SourceNumbers {
  private readonly byUrl = new Map<string, WebSource>();
  private next = 1;

  constructor(log: readonly Message[]) {
    for (const message of log) if (isWebTool(message)) for (const source of sourcesIn(message)) this.note(source);
  }

  private note(source: WebSource): void {
    const known = this.byUrl.get(source.url);
    this.byUrl.set(source.url, known ? { ...known, title: source.title || known.title } : source);
    this.next = Math.max(this.next, source.n + 1);
  }

  /** The page's number, given now if the conversation has not met it. */
  numberFor(url: string, title: string): number {
    const known = this.byUrl.get(url);
    if (known) return known.n;
    const source = { n: this.next, url, title, site: siteOf(url) };
    this.note(source);
    return source.n;
  }
}

/**
 * What an answer lists under "Sources": the pages it cites as `[n]`, in the order first cited; where it
 * cites none, the pages its turn read (since the last user message). Numbers no web tool gave are not
 * sources (a `[2]` in an answer that is a list index, say).
 */
export function answerSources(path: readonly Message[], content: string): WebSource[] {
  const byNumber = new Map<number, WebSource>();
  let turnStart = 0;
  for (const [i, message] of path.entries()) {
    if (message.role === "user") turnStart = i;
    if (!isWebTool(message)) continue;
    for (const source of sourcesIn(message)) byNumber.set(source.n, { ...byNumber.get(source.n), ...source });
  }
  const cited = citedNumbers(content)
    .map((n) => byNumber.get(n))
    .filter((s): s is WebSource => s !== undefined);
  if (cited.length) return cited.slice(0, MAX_ANSWER_SOURCES);
  const read = new Map<number, WebSource>();
  for (const message of path.slice(turnStart))
    if (isWebTool(message) && message.tool === WEB_FETCH)
      for (const source of sourcesIn(message)) read.set(source.n, byNumber.get(source.n) ?? source);
  return [...read.values()].slice(0, MAX_ANSWER_SOURCES);
}
