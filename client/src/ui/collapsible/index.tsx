// Clamps long content to about eight lines with a "Show more / Show less" toggle. Content the caller
// knows is long (`long`: a table over ~5 rows, many lines) starts collapsed whatever its size; other
// content is measured, so tables and wrapped text are judged by their rendered height alike.
import type { ComponentChildren } from "preact";
import { useLayoutEffect, useRef, useState } from "preact/hooks";
import style from "./style.module.css";

type Props = { children: ComponentChildren; long?: boolean };

export function Collapsible({ children, long = false }: Props) {
  const content = useRef<HTMLDivElement>(null);
  const [overflows, setOverflows] = useState(false);
  const [expanded, setExpanded] = useState(false);

  useLayoutEffect(() => {
    const element = content.current;
    if (element && !expanded) setOverflows(element.scrollHeight > element.clientHeight + 2);
  });

  const collapsible = long || overflows;
  const collapsed = collapsible && !expanded;
  return (
    <div data-collapsed={collapsed ? "true" : "false"}>
      <div ref={content} class={expanded ? undefined : `${style.clamped} ${collapsed ? style.faded : ""}`}>
        {children}
      </div>
      {collapsible && (
        <button
          type="button"
          class={style.toggle}
          onClick={() => setExpanded(!expanded)}
          aria-expanded={expanded}
          data-testid="show-more"
        >
          {expanded ? "Show less" : "Show more"}
        </button>
      )}
    </div>
  );
}
