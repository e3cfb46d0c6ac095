// The step before a note is deleted: it says which, and "Keep it" has the focus.
import { useEffect, useRef, useState } from "preact/hooks";
import { pageStyle as page } from "../../components/page-frame";
import { explain } from "../../lib/use-notes";
import style from "./style.module.css";
import type { Notes } from "./types";

type Props = { path: string; remove: Notes["remove"]; onKeep: () => void; onDeleted: () => void };

export function DeleteConfirm({ path, remove, onKeep, onDeleted }: Props) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const keepButton = useRef<HTMLButtonElement>(null);
  useEffect(() => keepButton.current?.focus(), []);

  const confirm = async () => {
    if (busy) return;
    setBusy(true);
    const result = await remove(path);
    setBusy(false);
    // Already gone is as good as deleted.
    if (!result.ok && result.error.status !== 404) return setError(explain(result.error, "delete the note"));
    onDeleted();
  };

  return (
    <section class={style.confirm} aria-labelledby="note-confirm-text" data-testid="note-confirm">
      <p id="note-confirm-text" class={style.confirmText}>
        Delete <strong>{path}</strong>? This cannot be undone.
      </p>
      {error && (
        <p class={page.statusError} role="alert" data-testid="note-error">
          {error}
        </p>
      )}
      <div class={style.actions}>
        <button type="button" ref={keepButton} onClick={onKeep} data-testid="note-keep">
          Keep it
        </button>
        <button
          type="button"
          class={style.dangerStrong}
          disabled={busy}
          onClick={() => void confirm()}
          data-testid="note-confirm-delete"
        >
          {busy ? "Deleting…" : "Delete note"}
        </button>
      </div>
    </section>
  );
}
