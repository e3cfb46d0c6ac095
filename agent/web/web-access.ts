// How the web tools (agent/tools/web.ts) reach the web: the host (durable-objects/conversation/web/)
// supplies this for a turn where the operator and the user let the agent read pages or search. Failures
// the model should read come back as WebFailure: a sentence, never a crash.
import type { WebSearchResult } from "../../protocol";

/** A page as the agent reads it: Markdown (an HTML page's article), a PDF's pages, or plain text. */
export interface WebPageText {
  /** Where the page was, after redirects. */
  url: string;
  title: string;
  kind: "html" | "pdf" | "text";
  /** The whole text (a PDF's pages joined with "\n"). */
  text: string;
  pages?: string[];
}

export interface WebAccess {
  /** The agent may read pages (web_fetch is offered). */
  fetch: boolean;
  /** The agent may search (web_search is offered). */
  search: boolean;
  /** How many characters one read returns at most (what one message may take of the window). */
  readChars: number;
  /** The page at `url` (kept for a while, so reading it by parts fetches it once), or a WebFailure. */
  readPage(url: string, signal: AbortSignal): Promise<WebPageText>;
  /** A search's results, counted against the turn's limit and the user's quota, or a WebFailure. */
  searchWeb(query: string, count: number, signal: AbortSignal): Promise<WebSearchResult[]>;
  /** The page's number in this conversation (agent/web/sources.ts), given now if it is new. */
  numberFor(url: string, title: string): number;
}

/** A failure in words the model reads ("blocked address", "timeout", "too large", "not found", …). */
export class WebFailure extends Error {
  override name = "WebFailure";
}
