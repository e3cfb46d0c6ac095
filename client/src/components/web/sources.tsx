// An answer's Sources (its `sources`, protocol/web.ts), under its text: each page it cites by its number,
// its site's name and its title, the two a link to the page (a new tab, no referrer; an address that is
// not http(s) is text). No favicon: nothing is fetched from a third party. Past four, the first three
// show and a button shows the rest.
import { useState } from "preact/hooks";
import type { WebSource } from "../../../../protocol";
import { plural } from "../../lib/plural";
import { pageHref } from "./href";
import style from "./style.module.css";

/** How many show while the list is folded; a list of one more than this shows whole. */
const FOLDED = 3;

function SourceItem({ source }: { source: WebSource }) {
  const href = pageHref(source.url);
  const title = source.title.trim() || source.url;
  const words = (
    <>
      <span class={style.site} data-testid="source-site">
        {source.site}
      </span>
      <span class={style.sourceTitle} data-testid="source-title">
        {title}
      </span>
    </>
  );
  return (
    <li class={style.result} data-testid="source" data-n={source.n}>
      <span class={style.n}>{source.n}</span>
      {href ? (
        <a class={style.source} href={href} target="_blank" rel="noopener noreferrer" title={href}>
          {words}
        </a>
      ) : (
        <span class={style.source}>{words}</span>
      )}
    </li>
  );
}

export function Sources({ sources }: { sources: readonly WebSource[] }) {
  const [open, setOpen] = useState(false);
  const folds = sources.length > FOLDED + 1;
  const shown = folds && !open ? sources.slice(0, FOLDED) : sources;
  return (
    <section class={style.sources} aria-label="Sources" data-testid="sources">
      <div class={style.heading} aria-hidden="true">
        Sources
      </div>
      <ul class={style.list}>
        {shown.map((source) => (
          <SourceItem key={source.n} source={source} />
        ))}
      </ul>
      {folds && (
        <button
          type="button"
          class={style.more}
          aria-expanded={open}
          onClick={() => setOpen(!open)}
          data-testid="sources-toggle"
        >
          {open ? "Show fewer sources" : `Show all ${plural(sources.length, "source")}`}
        </button>
      )}
    </section>
  );
}
