// The web as a conversation's turns reach it (docs/protocol.md "The web"): pages read through the one
// outbound policy and kept a while (a long page is read by parts, fetched once), searches through the
// plan's provider, counted per turn and, for the operator's provider, in the quota; the pages' numbers
// from the conversation's log (agent/web/sources.ts).
import type { ContextBudget } from "../../../agent/context/window";
import { SourceNumbers } from "../../../agent/web/sources";
import { type WebAccess, WebFailure, type WebPageText } from "../../../agent/web/web-access";
import { FILE_READ_MAX_CHARS } from "../../../core/file-text";
import { ownerShard } from "../../../d1/shards";
import { guardedFetch, outboundPolicy } from "../../../outbound/policy";
import { readWebPage, WebPageError } from "../../../outbound/web-page";
import { searchWeb, WebSearchError } from "../../../outbound/web-search";
import type { Message, WebSearchResult } from "../../../protocol";
import type { SocketMeta } from "../sockets/socket-hub";
import { PageCache } from "./page-cache";
import { SearchMeter, searchPrice } from "./search-meter";
import type { WebPlan } from "./web-plan";

const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;
const DEFAULT_TIMEOUT_SECONDS = 15;

/** A positive number from an operator variable, else the default. */
const positive = (value: string | undefined, fallback: number) => {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : fallback;
};

export class ConversationWeb {
  private readonly pages = new PageCache();

  constructor(
    private readonly env: Env,
    private readonly meta: SocketMeta,
  ) {}

  /** What one turn's web tools reach, or nothing when the plan allows neither reading nor searching. */
  access(plan: WebPlan | undefined, log: () => readonly Message[], budget: ContextBudget): WebAccess | undefined {
    if (!plan || (!plan.fetch && !plan.search)) return undefined;
    let numbers: SourceNumbers | undefined;
    let searches = 0;
    return {
      fetch: plan.fetch,
      search: plan.search !== undefined,
      readChars: Math.min(FILE_READ_MAX_CHARS, Math.floor(budget.message * 2.5)),
      readPage: (url, signal) => this.readPage(url, signal),
      searchWeb: async (query, count, signal) => {
        if (searches >= plan.searchesPerTurn)
          throw new WebFailure(
            `This turn has made its ${plan.searchesPerTurn} web searches (the limit in Settings → Agent); answer with what was found.`,
          );
        searches++;
        return this.search(plan, query, count, signal);
      },
      numberFor: (url, title) => {
        numbers ??= new SourceNumbers(log());
        return numbers.numberFor(url, title);
      },
    };
  }

  private async readPage(url: string, signal: AbortSignal): Promise<WebPageText> {
    const kept = this.pages.get(url);
    if (kept) return kept;
    try {
      const page = await readWebPage(url, {
        policy: outboundPolicy(this.env),
        signal,
        timeoutMs: positive(this.env.WEB_FETCH_TIMEOUT_SECONDS, DEFAULT_TIMEOUT_SECONDS) * 1000,
        maxBytes: positive(this.env.WEB_FETCH_MAX_BYTES, DEFAULT_MAX_BYTES),
      });
      this.pages.set(url, page);
      return page;
    } catch (error) {
      if (error instanceof WebPageError) throw new WebFailure(`Could not read ${url}: ${error.message}`);
      throw error;
    }
  }

  private async search(plan: WebPlan, query: string, count: number, signal: AbortSignal): Promise<WebSearchResult[]> {
    const search = plan.search;
    if (!search) throw new WebFailure("Web search is switched off in this conversation");
    const meter =
      search.quota &&
      new SearchMeter(
        ownerShard(this.env, this.meta),
        this.meta.userId,
        search.quota,
        search.config.provider,
        searchPrice(this.env),
      );
    const reservation = await meter?.admit();
    try {
      return await searchWeb(search.config, query, { count, signal, fetch: guardedFetch(outboundPolicy(this.env)) });
    } catch (error) {
      if (error instanceof WebSearchError) throw new WebFailure(error.message);
      throw error;
    } finally {
      await meter?.record(reservation);
    }
  }
}
