// A fenced code block: its language as a label and a Copy button (the code onto the clipboard, then
// "Copied" for a moment). No highlighting: the text is shown as it is.
import { useEffect, useRef, useState } from "preact/hooks";
import style from "./style.module.css";

const COPIED_MS = 1500;

export function CodeBlock({ text, lang }: { text: string; lang: string }) {
  const [copy, setCopy] = useState<"idle" | "copied" | "failed">("idle");
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const onCopy = async () => {
    clearTimeout(timer.current);
    try {
      await navigator.clipboard.writeText(text);
      setCopy("copied");
    } catch {
      setCopy("failed");
    }
    timer.current = setTimeout(() => setCopy("idle"), COPIED_MS);
  };

  return (
    <div class={style.code} data-testid="code-block" data-lang={lang || undefined}>
      <div class={style.codeHead}>
        <span class={style.lang} data-testid="code-lang">
          {lang || "code"}
        </span>
        <button
          type="button"
          class={style.copy}
          onClick={() => void onCopy()}
          aria-label={copy === "copied" ? "Copied" : `Copy ${lang || "code"} to the clipboard`}
          data-testid="code-copy"
          data-state={copy}
        >
          {copy === "copied" ? "Copied" : copy === "failed" ? "Copy failed" : "Copy"}
        </button>
      </div>
      <pre class={style.pre}>
        <code>{text}</code>
      </pre>
    </div>
  );
}
