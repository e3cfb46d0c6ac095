// What the chat shows when the connection drops (issue 41), loaded as the chat opens rather than before
// its first paint: a banner over the composer that says so plainly (why, which attempt, when the next
// one is), that messages sent meanwhile wait and go out by themselves when it is back, and offers
// "Retry now", then "Back online" for a moment; and, at the foot of the thread, each message the
// conversation has not confirmed yet (lib/outbox.ts) as the user's bubble marked "Not sent yet" (or
// "Sending…"), with Retry and Edit (which takes it back into the message box). A refusal that is about
// the account rather than the message (a quota used up, a disabled account) is said over the composer in
// the server's words until dismissed, beside the message it kept as "Not sent".
import { useEffect, useRef, useState } from "preact/hooks";
import type { Attachment } from "../../../../protocol";
import { type Outbox, storedFiles } from "../../lib/outbox";
import type { ConnectionProblem, ConnectionStatus as Status } from "../../lib/use-conversation-socket";
import { PlainText } from "../../ui/plain-text";
import { ActionButton } from "../message-actions";
import actions from "../message-actions/style.module.css";
import bubble from "../user-message/style.module.css";
import style from "./style.module.css";

/** The files a waiting message names, as far as this browser knows them (unknown ones by their id). */
function recallFiles(ids: readonly string[]): Attachment[] {
  const known = new Map(storedFiles().map((f) => [f.id, f]));
  return ids.map(
    (id) => known.get(id) ?? { id, name: "a file", content_type: "application/octet-stream", kind: "text", size: 0 },
  );
}

function closeReason({ code, reason, offline }: ConnectionProblem): string {
  if (offline) return "you are offline";
  if (reason) return `the server closed the connection (${reason})`;
  if (code === 1006) return "the connection dropped";
  return `the connection closed (code ${code})`;
}

function useSecondsUntil(epochMs: number | undefined): number | null {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (epochMs === undefined) return;
    const timer = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(timer);
  }, [epochMs]);
  return epochMs === undefined ? null : Math.max(0, Math.ceil((epochMs - now) / 1000));
}

type BannerProps = { status: Status; problem: ConnectionProblem | null; onRetry: () => void };

export function ConnectionBanner({ status, problem, onRetry }: BannerProps) {
  const [back, setBack] = useState(false);
  const wasDown = useRef(false);
  useEffect(() => {
    if (status === "reconnecting") wasDown.current = true;
    if (status !== "connected" || !wasDown.current) return;
    wasDown.current = false;
    setBack(true);
    const timer = setTimeout(() => setBack(false), 4000);
    return () => clearTimeout(timer);
  }, [status]);
  if (status === "reconnecting" && problem) return <ReconnectBanner problem={problem} onRetry={onRetry} />;
  return back && status === "connected" ? (
    <div class={`${style.banner} ${style.back}`} role="status" data-testid="back-online">
      <strong>Back online.</strong> The connection is back.
    </div>
  ) : null;
}

function ReconnectBanner({ problem, onRetry }: { problem: ConnectionProblem; onRetry: () => void }) {
  const seconds = useSecondsUntil(problem.retryAt);
  return (
    <div class={style.banner} role="status" data-testid="reconnect-banner">
      <div class={style.text}>
        <strong>Connection lost.</strong> Messages you send wait here and go out by themselves when it is back.
        <div class={style.detail} data-testid="reconnect-reason">
          Disconnected: {closeReason(problem)} · attempt {problem.attempt}
          {seconds ? ` · next try in ${seconds} s` : " · trying now"}
        </div>
      </div>
      <button type="button" class={style.retry} onClick={onRetry} data-testid="reconnect-now">
        Retry now
      </button>
    </div>
  );
}

type RefusalProps = { message: string; onDismiss: () => void };

export function RefusalAlert({ message, onDismiss }: RefusalProps) {
  return (
    <div class={`${style.banner} ${style.refused}`} role="alert" data-testid="refusal-alert">
      <div class={style.text}>{message}</div>
      <button type="button" class={style.retry} onClick={onDismiss} data-testid="refusal-dismiss">
        Dismiss
      </button>
    </div>
  );
}

type PendingProps = {
  outbox: Outbox;
  connected: boolean;
  /** The message box, where Edit puts the text back. */
  inputRef: { current: HTMLTextAreaElement | null };
  /** Reconnects now (the socket is down). */
  onRetry: () => void;
  /** Edit: the message's files go back to the composer. */
  onTakeBackFiles?: (files: Attachment[]) => void;
};

export function PendingMessages({ outbox, connected, inputRef, onRetry, onTakeBackFiles }: PendingProps) {
  // Retry: a refused message may go again; a socket that is down reconnects now.
  const retry = (clientId: string) => {
    outbox.refused.delete(clientId);
    outbox.flush();
    onRetry();
  };
  // Edit: out of the outbox, into the message box (after what is there), as if typed.
  const takeBack = (clientId: string, content: string, files: readonly string[] = []) => {
    outbox.remove(clientId);
    if (files.length) onTakeBackFiles?.(recallFiles(files));
    const input = inputRef.current;
    if (!input) return;
    input.value = input.value ? `${input.value}\n${content}` : content;
    input.dispatchEvent(new Event("input"));
    input.focus();
  };
  return (
    <>
      {outbox.pending.map(({ client_id, content, attachments }) => {
        const refused = outbox.refused.has(client_id);
        return (
          <div key={client_id} class={bubble.row} data-testid="pending-message">
            <article class={bubble.message}>
              <div class={`${bubble.bubble} ${bubble.pending}`}>
                {content && <PlainText text={content} />}
                {attachments?.length ? (
                  <p class={bubble.pendingFiles} data-testid="pending-files">
                    {recallFiles(attachments)
                      .map((f) => f.name)
                      .join(", ")}
                  </p>
                ) : null}
              </div>
            </article>
            <div class={`${actions.actions} ${actions.end}`}>
              <span class={bubble.note} role="status" data-testid="pending-note">
                {refused ? "Not sent" : connected ? "Sending…" : "Not sent yet"}
              </span>
              {(refused || !connected) && (
                <ActionButton onClick={() => retry(client_id)} testid="pending-retry">
                  Retry
                </ActionButton>
              )}
              <ActionButton
                onClick={() => takeBack(client_id, content, attachments)}
                testid="pending-edit"
                label="Edit: take it back into the message box"
              >
                Edit
              </ActionButton>
            </div>
          </div>
        );
      })}
    </>
  );
}
