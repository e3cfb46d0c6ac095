// The chat for /c/:id: one slim row on top (on a phone the page's only header: the Shell's menu button
// and demo badge join it; the title, a button that opens what the conversation's
// answers used so far, and the connection state only when it is not fine), the message list (which
// alone says what a running turn is doing), the request_input banner, the cards of calls waiting for
// approval, a reconnect banner while the
// socket is down, the composer, and a toast for socket errors. All live state comes from
// useConversationSocket. Esc stops a running turn; the composer has the focus when the chat opens,
// after a message is sent, after Stop and when an answer arrives.
import type { ComponentChild } from "preact";
import { useCallback, useEffect, useMemo, useRef, useState } from "preact/hooks";
import type { ModelRef } from "../../../../protocol";
import { conversationTotal } from "../../lib/token-usage";
import { turnActivity } from "../../lib/turn-state";
import { useConversationDetail } from "../../lib/use-conversation-detail";
import { useConversationModel } from "../../lib/use-conversation-model";
import { useConversationSocket } from "../../lib/use-conversation-socket";
import { ApprovalCards } from "../approval-cards";
import { Composer } from "../composer";
import { ConnectionStatus, ReconnectBanner } from "../connection-status";
import { ConversationMenu } from "../conversation-menu";
import { type BranchActions, MessageList } from "../message-list";
import { ModelPicker } from "../model-picker";
import { RequestInputBanner } from "../request-input-banner";
import { Toast } from "../toast";
import { UsageButton } from "../token-meter/usage-button";
import style from "./style.module.css";

type Props = {
  id: string;
  /** A turn ended (the sidebar refreshes: titles and order may have changed). */
  onTurnEnded: () => void;
  /** A turn started (the sidebar refreshes, so a new conversation's title shows at once). */
  onTurnStarted?: () => void;
  /** The Shell's menu button, first in the title row (shown on a phone only). */
  menu?: ComponentChild;
  /** Beside the title on a phone only (the app header says it on a wide screen): the demo badge. */
  badge?: ComponentChild;
};

/** Whether focus may be moved to the composer without taking it from something the user is using. */
function mayTakeFocus(section: HTMLElement | null): boolean {
  const active = document.activeElement;
  if (!active || active === document.body) return true;
  if (!section?.contains(active)) return false;
  return (
    !(active instanceof HTMLTextAreaElement || active instanceof HTMLInputElement) ||
    active.dataset.testid === "composer-input"
  );
}

type SessionProps = Props & { title: string; savedModel: ModelRef | null | undefined };

function ChatSession({ id, title, savedModel, onTurnEnded, onTurnStarted, menu, badge }: SessionProps) {
  const { state, status, problem, send, answerInput, dismissNotice, retryNow } = useConversationSocket(id);
  const conversationModel = useConversationModel(id, savedModel);
  const { turn } = state;
  const prices = state.model?.prices;
  const total = useMemo(() => conversationTotal(state.messages.values(), prices), [state.messages, prices]);
  const section = useRef<HTMLElement>(null);
  const composerInput = useRef<HTMLTextAreaElement>(null);
  const [editing, setEditing] = useState(false);
  // Counts the user's sends: the message list follows each one down to its answer.
  const [followKey, setFollowKey] = useState(0);
  const connected = status === "connected";
  const { choose } = conversationModel;

  const runningTools: string[] = [];
  for (const tool of state.liveTools.values())
    if (tool.status === "running" && !tool.awaitingApproval) runningTools.push(tool.tool);
  const activity = turnActivity(turn, { writing: state.liveText.size > 0, runningTools });

  const focusComposer = useCallback(() => {
    if (mayTakeFocus(section.current)) composerInput.current?.focus();
  }, []);

  // The composer is ready as soon as the chat opens.
  useEffect(() => {
    composerInput.current?.focus();
  }, []);

  // A turn's start and end may rename or reorder conversations: let the sidebar refresh. When it ends,
  // the composer gets the focus back.
  const wasRunning = useRef(false);
  useEffect(() => {
    if (!wasRunning.current && turn.running) onTurnStarted?.();
    if (wasRunning.current && !turn.running) {
      onTurnEnded();
      focusComposer();
    }
    wasRunning.current = turn.running;
  }, [turn.running, onTurnEnded, onTurnStarted, focusComposer]);

  const stop = useCallback(() => {
    send({ type: "agent_control", action: "stop" });
    composerInput.current?.focus();
  }, [send]);

  // Versions (docs/protocol.md "Branches"): an edit or a regenerate is a send (the list follows its
  // answer, the composer gets the focus); a switch only changes which version shows.
  const branching = useMemo((): BranchActions => {
    const sendTurn = (frame: Parameters<typeof send>[0]) => {
      const sent = send(frame);
      if (sent) {
        setFollowKey((n) => n + 1);
        composerInput.current?.focus();
      }
      return sent;
    };
    return {
      edit: (seq, content) => sendTurn({ type: "chat", content, edit_seq: seq }),
      regenerate: (seq) => sendTurn({ type: "regenerate", seq }),
      retryWith: async (seq, model) => {
        if (await choose(model)) sendTurn({ type: "regenerate", seq });
      },
      switchTo: (seq) => send({ type: "switch_branch", seq }),
    };
  }, [send, choose]);

  const sendFromComposer = useCallback(
    (frame: Parameters<typeof send>[0]) => {
      const sent = send(frame);
      if (sent) setFollowKey((n) => n + 1);
      return sent;
    },
    [send],
  );

  // Esc anywhere in the chat stops the running turn, unless something closer used it (the completion
  // popup, an inline editor).
  const escStops = useRef(false);
  escStops.current = turn.running && !turn.stopping && !editing;
  useEffect(() => {
    const element = section.current;
    if (!element) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || event.defaultPrevented || !escStops.current) return;
      event.preventDefault();
      stop();
    };
    element.addEventListener("keydown", onKeyDown);
    return () => element.removeEventListener("keydown", onKeyDown);
  }, [stop]);

  return (
    <section class={style.chat} data-testid="chat" data-conversation-id={id} ref={section}>
      <header class={style.bar} data-testid="chat-bar">
        {menu}
        <h1 class={style.title} title={title || undefined} data-testid="chat-title">
          {title || "Untitled conversation"}
        </h1>
        {badge && <span class={style.phoneOnly}>{badge}</span>}
        <ConnectionStatus status={status} />
        {total && <UsageButton metered={total} model={state.model} />}
        <ConversationMenu conversationId={id} />
      </header>
      <MessageList
        state={state}
        connected={connected}
        activity={activity}
        branching={branching}
        onEditingChange={setEditing}
        followKey={followKey}
      />
      {turn.pendingInput && <RequestInputBanner pending={turn.pendingInput} onAnswer={answerInput} />}
      <ApprovalCards
        pending={turn.pendingApprovals}
        onDecide={(choice) => send({ type: "tool_approval", ...choice })}
      />
      {status === "reconnecting" && problem && <ReconnectBanner problem={problem} onRetry={retryNow} />}
      <Composer
        running={turn.running}
        connected={connected}
        onSend={sendFromComposer}
        onStop={stop}
        inputRef={composerInput}
        modelPicker={
          <ModelPicker
            value={conversationModel.model}
            onChoose={(model) => void choose(model)}
            error={conversationModel.error}
          />
        }
      />
      <Toast notice={state.notice} onDismiss={dismissNotice} />
    </section>
  );
}

/** `title` comes from the sidebar's list when it has the conversation, so a rename shows at once. */
export function Chat({ title, ...props }: Props & { title?: string }) {
  const detail = useConversationDetail(props.id);
  if (detail.status === "not_found") {
    // On a phone the menu button must stay reachable: the app header is not shown in a conversation.
    return (
      <section class={style.chat} data-testid="conversation-not-found">
        {props.menu && <header class={`${style.bar} ${style.phoneOnly}`}>{props.menu}</header>}
        <p class={style.placeholder}>This conversation does not exist or is not yours.</p>
      </section>
    );
  }
  const shown = title ?? (detail.status === "found" ? detail.title : "");
  const savedModel = detail.status === "found" ? detail.model : undefined;
  return <ChatSession key={props.id} {...props} title={shown} savedModel={savedModel} />;
}
