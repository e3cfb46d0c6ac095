// The chat for /c/:id: one slim row on top (on a phone the page's only header: the Shell's menu button
// and demo badge join it; the title, a button that opens what the conversation's
// answers used so far, and the connection state only when it is not fine), the message list (which
// alone says what a running turn is doing), the request_input banner, the cards of calls waiting for
// approval, a banner while the socket is down (and "Back online" when it is back), the composer, and a
// toast for socket errors. What the user sent and the conversation has not confirmed yet shows at the
// foot of the thread as their bubble marked "Not sent yet" (lib/outbox.ts) until it comes back. All
// live state comes from useConversationSocket. Esc stops a running turn; the composer has the focus
// when the chat opens, after a message is sent, after Stop and when an answer arrives.
import type { ComponentChild } from "preact";
import { useCallback, useEffect, useMemo, useRef, useState } from "preact/hooks";
import type { Attachment, ChatFrame, ModelRef } from "../../../../protocol";
import { Composer } from "../../components/composer";
import { DropOverlay, useFileDrop } from "../../components/composer/drop-overlay";
import { ConnectionStatus } from "../../components/connection-status";
import { ConversationMenu } from "../../components/conversation-menu";
import { MessageList } from "../../components/message-list";
import { ModelPicker } from "../../components/model-picker";
import { RequestInputBanner } from "../../components/request-input-banner";
import { lazyPart } from "../../components/shell/lazy";
import { UsageButton } from "../../components/token-meter/usage-button";
import { rememberFiles } from "../../lib/outbox";
import { conversationTotal } from "../../lib/token-usage";
import { turnActivity } from "../../lib/turn-state";
import { useAttachments } from "../../lib/use-attachments";
import { useConversationDetail } from "../../lib/use-conversation-detail";
import { useConversationModel } from "../../lib/use-conversation-model";
import { useConversationSocket } from "../../lib/use-conversation-socket";
import { useShowModel } from "../../lib/use-models";
import { Toast } from "../../ui/toast";
import style from "./style.module.css";
import { useBranching, useEscStops, useTurnEdges } from "./use-chat-session";

// The banner for a dropped connection and the messages waiting for it: loaded as the chat opens (the
// banner is always rendered), so they are there when the network goes, not before the first paint.
const offline = () => import("../../components/connection-status/offline");
const ConnectionBanner = lazyPart(() => offline().then((m) => m.ConnectionBanner));
const PendingMessages = lazyPart(() => offline().then((m) => m.PendingMessages));
const RefusalAlert = lazyPart(() => offline().then((m) => m.RefusalAlert));
// Refused for the account, not the message: said by the composer until dismissed, not in a passing toast.
const ACCOUNT_REFUSALS = new Set(["quota_exceeded", "account_disabled"]);
// A call waiting for approval and an MCP server's question are rare: their cards load when one first comes.
const ApprovalCards = lazyPart(() => import("../../components/approval-cards").then((m) => m.ApprovalCards));
const ElicitationCards = lazyPart(() => import("../../components/elicitation-cards").then((m) => m.ElicitationCards));

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

/** What the running turn is doing, for the working indicator: writing, or the tools it runs. */
function activityOf(state: ReturnType<typeof useConversationSocket>["state"]) {
  const runningTools: string[] = [];
  for (const tool of state.liveTools.values())
    if (tool.status === "running" && !tool.awaitingApproval) runningTools.push(tool.tool);
  return turnActivity(state.turn, { writing: state.liveText.size > 0, runningTools });
}

type SessionProps = Props & { title: string; savedModel: ModelRef | null | undefined };

function ChatSession({ id, title, savedModel, onTurnEnded, onTurnStarted, menu, badge }: SessionProps) {
  const { state, status, problem, send, answerInput, dismissNotice, retryNow, outbox } = useConversationSocket(id);
  const conversationModel = useConversationModel(id, savedModel);
  // The header names the model this conversation answers with, once it is known.
  useShowModel(savedModel === undefined ? undefined : conversationModel.model);
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

  const activity = activityOf(state);
  const refusal = state.notice && ACCOUNT_REFUSALS.has(state.notice.code) ? state.notice : null;

  const focusComposer = useCallback(() => {
    if (mayTakeFocus(section.current)) composerInput.current?.focus();
  }, []);

  // The composer is ready as soon as the chat opens.
  useEffect(() => {
    composerInput.current?.focus();
  }, []);

  useTurnEdges(turn.running, onTurnStarted, onTurnEnded, focusComposer);

  const stop = useCallback(() => {
    send({ type: "agent_control", action: "stop" });
    composerInput.current?.focus();
  }, [send]);

  const branching = useBranching(send, choose, () => {
    setFollowKey((n) => n + 1);
    composerInput.current?.focus();
  });

  // Files for the next message: picked, pasted, or dropped anywhere on the conversation.
  const attachments = useAttachments();
  const drop = useFileDrop((files) => void attachments.add(files));

  // Taken at once, connected or not: the outbox shows it and sends it when it can.
  const sendFromComposer = (frame: ChatFrame, files: Attachment[]) => {
    rememberFiles(files);
    outbox.add(frame);
    outbox.flush();
    setFollowKey((n) => n + 1);
    return true;
  };

  useEscStops(section, turn.running && !turn.stopping && !editing, stop);

  return (
    <section class={style.chat} data-testid="chat" data-conversation-id={id} ref={section} {...drop.handlers}>
      <DropOverlay shown={drop.dragging} />
      <ChatBar id={id} title={title} menu={menu} badge={badge} status={status} total={total} model={state.model} />
      <MessageList
        state={state}
        connected={connected}
        activity={activity}
        branching={branching}
        onEditingChange={setEditing}
        followKey={followKey}
        footer={
          outbox.pending.length > 0 && (
            <PendingMessages
              outbox={outbox}
              connected={connected}
              inputRef={composerInput}
              onRetry={retryNow}
              onTakeBackFiles={attachments.restore}
            />
          )
        }
      />
      {turn.pendingInput && <RequestInputBanner pending={turn.pendingInput} onAnswer={answerInput} />}
      {turn.pendingApprovals.length > 0 && (
        <ApprovalCards
          pending={turn.pendingApprovals}
          onDecide={(choice) => send({ type: "tool_approval", ...choice })}
        />
      )}
      {turn.pendingElicitations.length > 0 && (
        <ElicitationCards
          pending={turn.pendingElicitations}
          onAnswer={(answer) => send({ type: "elicitation_response", ...answer })}
        />
      )}
      <ConnectionBanner status={status} problem={problem} onRetry={retryNow} />
      {refusal && <RefusalAlert message={refusal.message} onDismiss={dismissNotice} />}
      <Composer
        running={turn.running}
        onSend={sendFromComposer}
        onStop={stop}
        holding={conversationModel.saving}
        inputRef={composerInput}
        attachments={attachments}
        modelPicker={
          <ModelPicker
            value={conversationModel.model}
            onChoose={(model) => void choose(model)}
            error={conversationModel.error}
          />
        }
      />
      <Toast notice={refusal ? null : state.notice} onDismiss={dismissNotice} />
    </section>
  );
}

type BarProps = Pick<Props, "id" | "menu" | "badge"> & {
  title: string;
  status: ReturnType<typeof useConversationSocket>["status"];
  total: ReturnType<typeof conversationTotal>;
  model: ReturnType<typeof useConversationSocket>["state"]["model"];
};

/** The one slim row on top: the menu button (a phone), the title, the badge, the connection state, what
 * the answers used so far, and the conversation's menu. */
function ChatBar({ id, title, menu, badge, status, total, model }: BarProps) {
  return (
    <header class={style.bar} data-testid="chat-bar">
      {menu}
      <h1 class={style.title} title={title || undefined} data-testid="chat-title">
        {title || "Untitled conversation"}
      </h1>
      {badge && <span class={style.phoneOnly}>{badge}</span>}
      <ConnectionStatus status={status} />
      {total && <UsageButton metered={total} model={model} />}
      <ConversationMenu conversationId={id} />
    </header>
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
