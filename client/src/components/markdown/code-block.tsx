// A fenced code block: its language as a label and a Copy button (the code onto the clipboard, then
// "Copied" for a moment). No highlighting: the text is shown as it is.
import { COPY_LABELS, useCopy } from "../../lib/use-copy";
import style from "./style.module.css";

export function CodeBlock({ text, lang }: { text: string; lang: string }) {
  const { state: copy, copy: onCopy } = useCopy(text);

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
        <code>{text}</code>
      </pre>
    </div>
  );
}
