// The conversation as it reads: persisted messages in seq order, then what is still live (streamed text
// and running tool cards, step by step). Stays pinned to the bottom while the reader is there, and
// leaves them alone when they have scrolled up to read.
import type { ComponentChildren } from "preact";
import { useLayoutEffect, useRef } from "preact/hooks";
import { type ConversationState, type LiveTool, orderedMessages } from "../../lib/conversation-state";
import { Message } from "../message";
import { StreamingBubble } from "../streaming-bubble";
import { ToolCard } from "../tool-card";
import style from "./style.module.css";

const PINNED_SLACK_PX = 80;

function liveSteps(state: ConversationState): number[] {
  const steps = new Set<number>(state.liveText.keys());
  for (const tool of state.liveTools.values()) steps.add(tool.step);
  return [...steps].sort((a, b) => a - b);
}

export function MessageList({ state, footer }: { state: ConversationState; footer?: ComponentChildren }) {
  const scroller = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  const messages = orderedMessages(state);
  const tools: LiveTool[] = [...state.liveTools.values()];

  useLayoutEffect(() => {
    const element = scroller.current;
    if (element && pinned.current) element.scrollTop = element.scrollHeight;
  });

  const onScroll = () => {
    const element = scroller.current;
    if (element) pinned.current = element.scrollHeight - element.scrollTop - element.clientHeight < PINNED_SLACK_PX;
  };

  return (
    <div class={style.scroller} ref={scroller} onScroll={onScroll} data-testid="message-list">
      <div class={style.list}>
        {messages.length === 0 && state.liveText.size === 0 && (
          <p class={style.empty}>No messages yet. Ask the Oracle something below.</p>
        )}
        {messages.map((message) => (
          <Message key={message.seq} message={message} subagents={state.subagents} prices={state.model?.prices} />
        ))}
        {liveSteps(state).map((step) => {
          const text = state.liveText.get(step);
          return (
            <div key={`live-${step}`} class={style.live}>
              {text !== undefined && <StreamingBubble step={step} text={text} />}
              {tools
                .filter((tool) => tool.step === step)
                .map((tool) => (
                  <ToolCard key={tool.call_id} call={tool} subagent={state.subagents.get(tool.call_id)} />
                ))}
            </div>
          );
        })}
        {footer}
      </div>
    </div>
  );
}
