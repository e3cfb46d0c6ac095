// The conversation as it reads (lib/transcript.ts): each question, its turn's steps folded into one
// line, warnings in their place, the answer (or an error bubble). Then what is live: streamed text,
// running tool cards, and a working indicator (the one place that says what the turn is doing) so the
// thread is never silent while a turn runs. Stays pinned to the bottom while the reader is there;
// sending (or a new question arriving) brings the reader back down, so the answer streams into view;
// when they scroll up during an answer and something new comes in, a "Jump to latest" button appears.
// The persisted part is a polite live region (role=log), so screen readers announce new answers; the
// live part is not, so they do not hear every streamed word.
import type { ComponentChildren } from "preact";
import { useLayoutEffect, useRef, useState } from "preact/hooks";
import { type ConversationState, historyLoaded, type LiveTool, orderedMessages } from "../../lib/conversation-state";
import { useTargetSeq } from "../../lib/router";
import { isFailure } from "../../lib/termination";
import { buildTranscript, lastExchange, type TranscriptItem } from "../../lib/transcript";
import type { Activity } from "../../lib/turn-state";
import { AgentMessage } from "../agent-message";
import { ErrorBubble } from "../error-bubble";
import { Message } from "../message";
import { StreamingBubble } from "../streaming-bubble";
import { ToolCard } from "../tool-card";
import { TurnGroup } from "../turn-group";
import { UserMessage } from "../user-message";
import { WorkingIndicator } from "../working-indicator";
import style from "./style.module.css";

const PINNED_SLACK_PX = 80;

function liveSteps(state: ConversationState): number[] {
  const steps = new Set<number>(state.liveText.keys());
  for (const tool of state.liveTools.values()) steps.add(tool.step);
  return [...steps].sort((a, b) => a - b);
}

/** "Step 2 of 15", for the working indicator's tooltip. */
function stepText({ step, maxSteps }: ConversationState["turn"]): string | undefined {
  return step === null ? undefined : `Step ${step}${maxSteps ? ` of ${maxSteps}` : ""}`;
}

type Props = {
  state: ConversationState;
  /** The socket is open: actions that send (Retry, Regenerate, Edit) are offered. */
  connected: boolean;
  activity: Activity | null;
  /** Starts a new turn with this text (Retry, Regenerate, Edit & send); true when sent. */
  onResend?: (content: string) => boolean;
  onEditingChange?: (editing: boolean) => void;
  /** Bumped by the chat when the user sends: the list scrolls to the bottom and follows the answer. */
  followKey?: number;
  footer?: ComponentChildren;
};

export function MessageList({ state, connected, activity, onResend, onEditingChange, followKey, footer }: Props) {
  const scroller = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  const [behind, setBehind] = useState(false);
  const messages = orderedMessages(state);
  const tools: LiveTool[] = [...state.liveTools.values()];
  const running = state.turn.running;
  const items = buildTranscript(messages, { running });
  const { user: lastUser, answer: lastAnswer } = lastExchange(messages);
  const canResend = !running && connected && onResend !== undefined;
  const resendLast = lastUser && canResend ? () => void onResend(lastUser.content) : undefined;

  // What changes when something new arrives: a persisted message, streamed text, a tool card.
  let liveChars = 0;
  for (const text of state.liveText.values()) liveChars += text.length;
  const content = `${messages.length}:${liveChars}:${tools.length}:${activity?.kind ?? ""}`;
  const lastContent = useRef(content);

  // A link to one message (a search hit): once it is on screen, scroll it into view and mark it. Runs
  // before the pinning below, which then leaves the reader there.
  const target = useTargetSeq();
  const reached = useRef<number | null>(null);
  useLayoutEffect(() => {
    if (target === null || reached.current === target) return;
    const found = scroller.current?.querySelector<HTMLElement>(`[data-seq="${target}"]`);
    if (!found) return; // not loaded yet: the next render tries again
    reached.current = target;
    pinned.current = false;
    for (const old of scroller.current?.querySelectorAll("[data-target]") ?? []) old.removeAttribute("data-target");
    found.setAttribute("data-target", "true");
    found.scrollIntoView({ block: "center" });
  });

  // Sending, or a new question in the log (sent from here or another tab), puts the reader back at the
  // bottom: the question and then its answer are in view, as in any chat.
  // The history arriving is not a send: a link to one message (a search hit) keeps its place.
  const follow = `${followKey ?? 0}:${lastUser?.seq ?? ""}`;
  const lastFollow = useRef(follow);
  const loaded = historyLoaded(state);
  const wasLoaded = useRef(loaded);
  useLayoutEffect(() => {
    const changed = follow !== lastFollow.current;
    const afterLoad = wasLoaded.current;
    lastFollow.current = follow;
    wasLoaded.current = loaded;
    if (!changed || !afterLoad) return;
    pinned.current = true;
    setBehind(false);
  });

  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    if (pinned.current) element.scrollTop = element.scrollHeight;
    else if (content !== lastContent.current) setBehind(true);
    lastContent.current = content;
  });

  const onScroll = () => {
    const element = scroller.current;
    if (!element) return;
    pinned.current = element.scrollHeight - element.scrollTop - element.clientHeight < PINNED_SLACK_PX;
    if (pinned.current) setBehind(false);
  };

  const jump = () => {
    const element = scroller.current;
    if (!element) return;
    pinned.current = true;
    element.scrollTop = element.scrollHeight;
    setBehind(false);
  };

  const renderItem = (item: TranscriptItem) => {
    switch (item.kind) {
      case "user":
        return (
          <UserMessage
            key={item.message.seq}
            message={item.message}
            onResend={item.message === lastUser && canResend ? onResend : undefined}
            onEditingChange={onEditingChange}
          />
        );
      case "system":
        return <Message key={item.message.seq} message={item.message} fold={item.fold} prices={state.model?.prices} />;
      case "group":
        return <TurnGroup key={item.key} group={item} subagents={state.subagents} prices={state.model?.prices} />;
      case "answer": {
        const isLast = item.message === lastAnswer;
        return isFailure(item.message.termination_reason) ? (
          <ErrorBubble
            key={item.message.seq}
            message={item.message}
            prices={state.model?.prices}
            onRetry={isLast ? resendLast : undefined}
          />
        ) : (
          <AgentMessage
            key={item.message.seq}
            message={item.message}
            prices={state.model?.prices}
            onRegenerate={isLast ? resendLast : undefined}
          />
        );
      }
    }
  };

  const live = liveSteps(state);
  const empty = messages.length === 0 && live.length === 0 && !running;

  return (
    <div class={style.scroller} ref={scroller} onScroll={onScroll} data-testid="message-list">
      <div class={style.column}>
        {empty &&
          (historyLoaded(state) ? (
            <p class={style.empty} data-testid="empty-conversation">
              No messages yet. Ask the Oracle something below.
            </p>
          ) : (
            <p class={style.empty} data-testid="history-loading" aria-busy="true">
              {connected ? "Loading the conversation…" : "Waiting for the connection to load the conversation…"}
            </p>
          ))}
        <div class={style.list} role="log" aria-live="polite" aria-relevant="additions" aria-label="Conversation">
          {items.map(renderItem)}
        </div>
        <div class={style.live} aria-live="off">
          {live.map((step) => {
            const text = state.liveText.get(step);
            return (
              <div key={`live-${step}`} class={style.live}>
                {text !== undefined && <StreamingBubble step={step} text={text} />}
                {tools
                  .filter((tool) => tool.step === step)
                  .map((tool) => (
                    <ToolCard key={tool.call_id} call={tool} subagent={state.subagents.get(tool.call_id)} compact />
                  ))}
              </div>
            );
          })}
          {activity && <WorkingIndicator activity={activity} step={stepText(state.turn)} />}
        </div>
        {footer}
      </div>
      {behind && (
        <button type="button" class={style.jump} onClick={jump} data-testid="jump-to-latest">
          Jump to latest ↓
        </button>
      )}
    </div>
  );
}
