// A dismissible error toast for socket `error` frames (e.g. `busy`) and local send failures. It hides
// itself after a while; a new notice (new id) restarts the timer.
import { useEffect } from "preact/hooks";
import type { Notice } from "../../lib/conversation-state";
import style from "./style.module.css";

const AUTO_HIDE_MS = 10_000;

export function Toast({ notice, onDismiss }: { notice: Notice | null; onDismiss: () => void }) {
  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(onDismiss, AUTO_HIDE_MS);
    return () => clearTimeout(timer);
  }, [notice, onDismiss]);

  if (!notice) return null;
  return (
    <div class={style.toast} role="alert" data-testid="toast" data-code={notice.code}>
      <span class={style.code}>{notice.code}</span>
      <span class={style.message}>{notice.message}</span>
      <button type="button" class={style.close} onClick={onDismiss} aria-label="Dismiss" data-testid="toast-dismiss">
        ×
      </button>
    </div>
  );
}
