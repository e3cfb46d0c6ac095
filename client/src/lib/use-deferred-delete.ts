// Delete with Undo, without server support: the item leaves the list at once, but `send` (the DELETE) is
// called only when the Undo window closes, another delete comes, or the page is left (pagehide: then a
// keepalive DELETE to `pathOf(id)`, since an async call may not finish). Used by the sidebar's
// conversations (use-conversations.ts).
import { useCallback, useEffect, useRef, useState } from "preact/hooks";

export type PendingDelete = { id: string; title: string };

export function useDeferredDelete(send: (id: string) => Promise<void>, pathOf: (id: string) => string, undoMs: number) {
  const [pending, setPending] = useState<PendingDelete | null>(null);
  const pendingRef = useRef<PendingDelete | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  /** Sends the DELETE that was waiting for the Undo window to close (now, whatever is left of it). */
  const commitDelete = useCallback(() => {
    clearTimeout(timer.current);
    const current = pendingRef.current;
    pendingRef.current = null;
    setPending(null);
    if (current) void send(current.id);
  }, [send]);

  /** Hides the item now; it is deleted when the Undo window closes. */
  const scheduleDelete = useCallback(
    (item: PendingDelete) => {
      if (pendingRef.current) commitDelete(); // one Undo at a time: the previous one is final now
      const next = { id: item.id, title: item.title };
      pendingRef.current = next;
      setPending(next);
      timer.current = setTimeout(commitDelete, undoMs);
    },
    [commitDelete, undoMs],
  );

  const undoDelete = useCallback(() => {
    clearTimeout(timer.current);
    pendingRef.current = null;
    setPending(null);
  }, []);

  // Leaving the page (or the app unmounting on log out) must not lose the delete the user asked for.
  useEffect(() => {
    const onPageHide = () => {
      const current = pendingRef.current;
      if (!current) return;
      pendingRef.current = null;
      clearTimeout(timer.current);
      void fetch(pathOf(current.id), { method: "DELETE", credentials: "same-origin", keepalive: true });
    };
    window.addEventListener("pagehide", onPageHide);
    return () => {
      window.removeEventListener("pagehide", onPageHide);
      onPageHide();
    };
  }, []);

  return { pending, pendingRef, commitDelete, scheduleDelete, undoDelete };
}
