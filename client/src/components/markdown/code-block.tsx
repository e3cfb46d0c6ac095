// A fenced code block: its language as a label and a Copy button (the code onto the clipboard, then
// "Copied" for a moment). Code in a language of lib/code-languages.ts is highlighted once the highlight
// chunk is there (./lazy.ts); until then, and for any other language, the text is shown as it is, in the
// same font and size, so the upgrade changes colours, not layout. A fence still streaming is highlighted
// once its text has stopped changing for a moment, not on every delta.
import { useEffect, useState } from "preact/hooks";
import { highlightLanguage } from "../../lib/code-languages";
import { COPY_LABELS, useCopy } from "../../lib/use-copy";
import { highlightedCode, highlighter, useLazy } from "./lazy";
import { renderMarkup } from "./markup";
import style from "./style.module.css";

const SETTLE_MS = 400;

/** Whether `text` is worth highlighting: at once when whole, after a pause in changes while it streams. */
function useSettled(text: string, open: boolean): boolean {
  const [settled, setSettled] = useState(open ? "" : text);
  useEffect(() => {
    if (!open) return;
    const timer = setTimeout(() => setSettled(text), SETTLE_MS);
    return () => clearTimeout(timer);
  }, [text, open]);
  return !open || settled === text;
}

export function CodeBlock({ text, lang, open = false }: { text: string; lang: string; open?: boolean }) {
  const { state: copy, copy: onCopy } = useCopy(text);
  const language = highlightLanguage(lang);
  const ready = useLazy(highlighter, language !== null);
  const settled = useSettled(text, open);
  const tree = ready && settled && language ? highlightedCode(text, language) : null;

  return (
    <div class={style.code} data-testid="code-block" data-lang={lang || undefined}>
      <div class={style.codeHead}>
        <span class={style.lang} data-testid="code-lang">
          {lang || "code"}
        </span>
        <button
          type="button"
          class={style.copy}
          onClick={onCopy}
          aria-label={copy === "copied" ? "Copied" : `Copy ${lang || "code"} to the clipboard`}
          data-testid="code-copy"
          data-state={copy}
        >
          {COPY_LABELS[copy]}
        </button>
      </div>
      <pre class={style.pre}>
        <code class={tree ? "hljs" : undefined} data-highlighted={tree ? "" : undefined}>
          {tree ? renderMarkup(tree) : text}
        </code>
      </pre>
    </div>
  );
}
