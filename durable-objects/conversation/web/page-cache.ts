// The pages a conversation's object read lately, so a long page read by parts is fetched once: at most
// 8 pages and 16 MB of text, each for 10 minutes. Only memory: after a restart a page is fetched again.
import type { WebPageText } from "../../../agent/web/web-access";

const MAX_PAGES = 8;
const MAX_CHARS = 8 * 1024 * 1024;
const KEEP_MS = 10 * 60_000;

export class PageCache {
  private readonly pages = new Map<string, { page: WebPageText; until: number }>();

  get(url: string): WebPageText | undefined {
    const kept = this.pages.get(url);
    if (!kept || kept.until < Date.now()) {
      this.pages.delete(url);
      return undefined;
    }
    // Most recently used last: the first is the one to drop.
    this.pages.delete(url);
    this.pages.set(url, kept);
    return kept.page;
  }

  /** Kept under the URL asked for and, after redirects, the page's own. */
  set(url: string, page: WebPageText): void {
    const entry = { page, until: Date.now() + KEEP_MS };
    for (const key of new Set([url, page.url])) {
      this.pages.delete(key);
      this.pages.set(key, entry);
    }
    let chars = 0;
    for (const { page: kept } of this.pages.values()) chars += kept.text.length;
    for (const [key, { page: kept }] of this.pages) {
      if (this.pages.size <= MAX_PAGES && chars <= MAX_CHARS) break;
      this.pages.delete(key);
      if (![...this.pages.values()].some((e) => e.page === kept)) chars -= kept.text.length;
    }
  }
}
