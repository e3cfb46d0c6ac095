// Footnotes: a reference is a superscript number linking to its note; the notes are a numbered list at
// the end of the text, each with a link back to where it was first referenced. Ids are the Markdown
// component's own prefix and the note's number (never the label the model wrote), so two answers with a
// [^1] each do not collide. A click scrolls and moves focus without touching the URL's hash, which the
// router uses for its own links to messages.
import type { ComponentChildren } from "preact";
import style from "./style.module.css";

const noteId = (id: string, n: number) => `${id}-fn-${n}`;
const refId = (id: string, n: number, index = 0) => `${id}-fnref-${n}${index > 0 ? `-${index + 1}` : ""}`;

function jump(event: MouseEvent) {
  const href = (event.currentTarget as HTMLAnchorElement).getAttribute("href") ?? "";
  const target = document.getElementById(decodeURIComponent(href.slice(1)));
  if (!target) return;
  event.preventDefault();
  target.scrollIntoView({ block: "nearest" });
  target.focus({ preventScroll: true });
}

export function FootnoteRef({ id, n, index }: { id: string; n: number; index: number }) {
  return (
    <sup class={style.footnoteRef}>
      <a
        href={`#${noteId(id, n)}`}
        id={refId(id, n, index)}
        onClick={jump}
        data-testid="footnote-ref"
        aria-label={`Footnote ${n}`}
      >
        {n}
      </a>
    </sup>
  );
}

export function Footnotes({
  id,
  notes,
}: {
  id: string;
  notes: { n: number; refs: number; body: ComponentChildren }[];
}) {
  return (
    <section class={style.footnotes} data-testid="footnotes" aria-label="Footnotes">
      <ol class={style.notes}>
        {notes.map((note) => (
          <li key={note.n} id={noteId(id, note.n)} tabIndex={-1} data-testid="footnote">
            {note.body}
            {note.refs > 0 && (
              <a
                href={`#${refId(id, note.n)}`}
                onClick={jump}
                class={style.footnoteBack}
                aria-label={`Back to reference ${note.n}`}
                data-testid="footnote-back"
              >
                ↩
              </a>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
