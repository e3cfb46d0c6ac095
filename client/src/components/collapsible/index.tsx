// Clamps long content to about six lines with a "Show more / Show less" toggle. It measures the rendered
// height instead of counting characters, so tables and wrapped text are judged alike.
import type { ComponentChildren } from "preact";
import { useLayoutEffect, useRef, useState } from "preact/hooks";
import style from "./style.module.css";

export function Collapsible({ children }: { children: ComponentChildren }) {
  const content = useRef<HTMLDivElement>(null);
  const [overflows, setOverflows] = useState(false);
  const [expanded, setExpanded] = useState(false);

  useLayoutEffect(() => {
    const element = content.current;
    if (element && !expanded) setOverflows(element.scrollHeight > element.clientHeight + 2);
  });

  return (
    <div>
      <div ref={content} class={expanded ? undefined : `${style.clamped} ${overflows ? style.faded : ""}`}>
        {children}
      </div>
      {overflows && (
        <button type="button" class={style.toggle} onClick={() => setExpanded(!expanded)} data-testid="show-more">
          {expanded ? "Show less" : "Show more"}
        </button>
      )}
    </div>
  );
}
