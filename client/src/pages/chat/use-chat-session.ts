// The chat's behaviour around the socket (index.tsx): the sidebar refresh and the composer's focus at a
// turn's start and end, Esc to stop, and the version actions (edit, regenerate, retry with another
// model, switch) that follow their answer down the list.
import type { RefObject } from "preact";
import { useEffect, useMemo, useRef } from "preact/hooks";
import type { ModelRef } from "../../../../protocol";
import type { BranchActions } from "../../components/message-list";
import type { useConversationSocket } from "../../lib/use-conversation-socket";

type Send = ReturnType<typeof useConversationSocket>["send"];

/** A turn's start and end may rename or reorder conversations: let the sidebar refresh. When it ends,
 * the composer gets the focus back. */
export function useTurnEdges(
  running: boolean,
  onStarted: (() => void) | undefined,
  onEnded: () => void,
  focus: () => void,
) {
  const wasRunning = useRef(false);
  useEffect(() => {
    if (!wasRunning.current && running) onStarted?.();
    if (wasRunning.current && !running) {
      onEnded();
      focus();
    }
    wasRunning.current = running;
  }, [running, onEnded, onStarted, focus]);
}

/** Esc anywhere in the chat stops the running turn when `stops`, unless something closer used it (the
 * completion popup, an inline editor). */
export function useEscStops(section: RefObject<HTMLElement | null>, stops: boolean, stop: () => void) {
  const escStops = useRef(false);
  escStops.current = stops;
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
}

/** Versions (docs/protocol.md "Branches"): an edit or a regenerate is a send (`onSent`: the list follows
 * its answer, the composer gets the focus); a switch only changes which version shows. */
export function useBranching(send: Send, choose: (model: ModelRef) => Promise<boolean>, onSent: () => void) {
  return useMemo((): BranchActions => {
    const sendTurn = (frame: Parameters<Send>[0]) => {
      const sent = send(frame);
      if (sent) onSent();
      return sent;
    };
    return {
      // Without `attachments` the server carries the edited message's files; with them, those given.
      edit: (seq, content, attachments) =>
        sendTurn({ type: "chat", content, edit_seq: seq, ...(attachments ? { attachments } : {}) }),
      regenerate: (seq) => sendTurn({ type: "regenerate", seq }),
      retryWith: async (seq, model) => {
        if (await choose(model)) sendTurn({ type: "regenerate", seq });
      },
      switchTo: (seq) => send({ type: "switch_branch", seq }),
    };
  }, [send, choose]);
}
