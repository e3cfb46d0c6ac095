// A compaction (a system item of kind `compaction`): from here on, the model reads a summary in place
// of every message up to `through_seq`. Those messages stay in the transcript above, so this is a
// divider across the list, not a System card: what changed, by how many tokens, and the summary itself
// on request (plain text, line breaks kept).
import { useEffect, useRef, useState } from "preact/hooks";
import type { SystemItem, SystemMessage } from "../../../../protocol";
import { compactionTitle } from "../../lib/system-text";
import { formatTokens } from "../../lib/token-usage";
import style from "./style.module.css";

type Compaction = Extract<SystemItem, { kind: "compaction" }>;

export function CompactionDivider({ message, item }: { message: SystemMessage; item: Compaction }) {
  const [expanded, setExpanded] = useState(false);
  const body = useRef<HTMLDivElement>(null);
  // Opened at the foot of the list, the summary would unfold out of view below the composer.
  useEffect(() => {
    if (expanded) body.current?.scrollIntoView({ block: "nearest" });
  }, [expanded]);
  const bodyId = `compaction-${message.seq}`;
  const title = compactionTitle(item);
  return (
    <section
      class={style.divider}
      aria-label={title}
      data-role="system"
      data-seq={message.seq}
      data-kind="compaction"
      data-method={item.method}
      data-through-seq={item.through_seq}
    >
      <div class={style.rule}>
        <span class={style.title} data-testid="compaction-title">
          {title}
        </span>
      </div>
      <div class={style.meta}>
        <span
          class={style.tokens}
          data-testid="compaction-tokens"
          title="The model's context before and after, in tokens"
        >
          {formatTokens(item.tokens_before)} → {formatTokens(item.tokens_after)} tokens
        </span>
        <button
          type="button"
          class={style.toggle}
          aria-expanded={expanded}
          aria-controls={bodyId}
          onClick={() => setExpanded(!expanded)}
          data-testid="compaction-toggle"
        >
          {expanded ? "Hide" : "Show"} {item.method === "cut" ? "what the model reads instead" : "summary"}
        </button>
      </div>
      {/* A text node in a pre-wrap block: the body's line breaks show, and nothing in it becomes markup. */}
      <div id={bodyId} ref={body} class={style.body} hidden={!expanded} data-testid="compaction-body">
        {item.body}
      </div>
    </section>
  );
}
