// The chat for /c/:id: title (and what the conversation's answers used so far) and connection state on
// top, the message list, the request_input banner, the composer, and a toast for socket errors. All
// live state comes from useConversationSocket.
import { useEffect, useRef } from "preact/hooks";
import { conversationTotal } from "../../lib/token-usage";
import { useConversationDetail } from "../../lib/use-conversation-detail";
import { useConversationSocket } from "../../lib/use-conversation-socket";
import { Composer } from "../composer";
import { ConnectionStatus } from "../connection-status";
import { MessageList } from "../message-list";
import { RequestInputBanner } from "../request-input-banner";
import { Toast } from "../toast";
import { TokenMeter } from "../token-meter";
import { TurnStatus } from "../turn-status";
import style from "./style.module.css";

type Props = { id: string; onTurnEnded: () => void };

function ChatSession({ id, title, onTurnEnded }: Props & { title: string }) {
  const { state, status, send, answerInput, dismissNotice } = useConversationSocket(id);
  const { turn } = state;
  const total = conversationTotal(state.messages.values(), state.model?.prices);

  // A finished turn may have renamed or reordered conversations; let the sidebar refresh.
  const wasRunning = useRef(false);
  useEffect(() => {
    if (wasRunning.current && !turn.running) onTurnEnded();
    wasRunning.current = turn.running;
  }, [turn.running, onTurnEnded]);

  return (
    <section class={style.chat} data-testid="chat" data-conversation-id={id}>
      <header class={style.bar}>
        <div class={style.heading}>
          <h1 class={style.title}>{title || "Untitled conversation"}</h1>
          {total && <TokenMeter metered={total} scope="conversation" />}
        </div>
        <TurnStatus turn={turn} />
        <ConnectionStatus status={status} />
      </header>
      <MessageList state={state} />
      {turn.pendingInput && <RequestInputBanner pending={turn.pendingInput} onAnswer={answerInput} />}
      <Composer
        running={turn.running}
        connected={status === "connected"}
        onSend={send}
        onStop={() => send({ type: "agent_control", action: "stop" })}
      />
      <Toast notice={state.notice} onDismiss={dismissNotice} />
    </section>
  );
}

/** `title` comes from the sidebar's list when it has the conversation, so a rename shows at once. */
export function Chat({ id, title, onTurnEnded }: Props & { title?: string }) {
  const detail = useConversationDetail(id);
  if (detail.status === "not_found") {
    return (
      <section class={style.placeholder} data-testid="conversation-not-found">
        <p>This conversation does not exist or is not yours.</p>
      </section>
    );
  }
  const shown = title ?? (detail.status === "found" ? detail.title : "");
  return <ChatSession key={id} id={id} title={shown} onTurnEnded={onTurnEnded} />;
}
