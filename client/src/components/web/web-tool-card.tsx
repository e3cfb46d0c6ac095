// The card of a web tool call (docs/protocol.md "The web"), in place of the generic tool card: one line
// saying what it did ("Searched the web for “rivers” · 5 results", "Read River levels · example.com",
// "Could not read example.com: …", protocol/tool-words.ts webCallWords), status and step as every card.
// Opened: a search's results (number, title linking to the page, site, date, snippet), a page's link or
// the lines a `find` matched, and the call as the model made it (its name, arguments, result) folded
// under "Call details". Starts folded: its line says enough. Links are http(s) only, new tab, no referrer.
import type { ComponentChildren } from "preact";
import { siteOf } from "../../../../protocol";
import { webCallWords } from "../../lib/web-words";
import { Icon } from "../../ui/icon";
import { GLOBE, SEARCH } from "../../ui/icon/paths";
import { CallDetails, CallMeta, callCardData, cardClass, lineClass, ToolStatus } from "../call-card";
import type { ToolCardProps } from "../tool-card";
import tool from "../tool-card/style.module.css";
import { pageHref } from "./href";
import style from "./style.module.css";

type Loose = Record<string, unknown>;
const record = (value: unknown): Loose => (value && typeof value === "object" ? (value as Loose) : {});
const str = (value: unknown): string => (typeof value === "string" ? value.trim() : "");

/** A page's title as a link to it when its address is http(s), else as text. */
function PageLink({ url, children }: { url: string; children: ComponentChildren }) {
  const href = pageHref(url);
  return href ? (
    <a class={style.link} href={href} target="_blank" rel="noopener noreferrer" title={href}>
      {children}
    </a>
  ) : (
    <span class={style.link}>{children}</span>
  );
}

/** A search's results as the model got them, each with its source number. */
function SearchResults({ result }: { result: unknown }) {
  const { results } = record(result);
  if (!Array.isArray(results) || results.length === 0) return null;
  return (
    <ol class={style.results} data-testid="web-results">
      {results.map((raw, i) => {
        const r = record(raw);
        const url = str(r.url);
        const site = str(r.site) || siteOf(url);
        const date = str(r.date);
        return (
          <li key={i} class={style.result} data-testid="web-result">
            <span class={style.n}>{typeof r.n === "number" ? r.n : i + 1}</span>
            <div class={style.what}>
              <PageLink url={url}>{str(r.title) || url}</PageLink>
              <span class={style.site}>
                {site}
                {date && ` · ${date}`}
              </span>
              {str(r.snippet) && <p class={style.snippet}>{str(r.snippet)}</p>}
            </div>
          </li>
        );
      })}
    </ol>
  );
}

/** The page a web_fetch read (or is reading), and the lines its `find` matched. */
function PageRead({ args, result }: { args: unknown; result: unknown }) {
  const page = record(result);
  const url = str(page.url) || str(record(args).url);
  if (!url) return null;
  const hits = Array.isArray(page.hits) ? page.hits.map(record) : [];
  return (
    <div class={style.page} data-testid="web-page">
      <div class={style.what}>
        <PageLink url={url}>{str(page.title) || url}</PageLink>
        <span class={style.site}>
          {typeof page.n === "number" && `Source ${page.n} · `}
          {str(page.site) || siteOf(url)}
        </span>
      </div>
      {hits.length > 0 && (
        <ul class={style.hits} data-testid="web-hits">
          {hits.map((hit, i) => (
            <li key={i}>
              <span class={style.site}>
                {typeof hit.page === "number" && `page ${hit.page}, `}line {String(hit.line)}
              </span>{" "}
              {str(hit.text)}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function WebToolCard({ call, seq }: ToolCardProps) {
  const words = webCallWords(call);
  const search = call.tool === "web_search";
  return (
    <details class={cardClass(call.status, style.card)} {...callCardData(call, seq)}>
      <summary class={lineClass(tool.summary)}>
        <span class={tool.icon}>
          <Icon path={search ? SEARCH : GLOBE} />
        </span>
        <span class={style.title} data-testid="web-call-title">
          {words?.title ?? call.tool}
        </span>
        {words?.count && (
          <span class={style.count} data-testid="web-call-count">
            {words.count}
          </span>
        )}
        <ToolStatus call={call} />
        <CallMeta call={call} />
      </summary>
      <div class={tool.body}>
        {search ? <SearchResults result={call.result} /> : <PageRead args={call.args} result={call.result} />}
        <CallDetails call={call} />
      </div>
    </details>
  );
}
