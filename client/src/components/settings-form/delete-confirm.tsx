// The confirm step before a server (or, in Settings → Models, a provider) is deleted: the question,
// Cancel and Delete (focused first).
import { useEffect, useId, useRef, useState } from "preact/hooks";
import style from "./style.module.css";

type Props = {
  name: string;
  onCancel: () => void;
  onDelete: () => Promise<boolean>;
  /** What deleting it costs, after "Delete <name>?"; the Tools tab's words unless said otherwise. */
  consequence?: string;
  /** data-testid prefix: `<prefix>-delete-confirm`, `<prefix>-delete-cancel`, … */
  testid?: string;
};

export function DeleteConfirm({
  name,
  onCancel,
  onDelete,
  consequence = "The agent loses its tools, and its secret is erased.",
  testid = "mcp",
}: Props) {
  const [deleting, setDeleting] = useState(false);
  const confirm = useRef<HTMLButtonElement>(null);
  useEffect(() => confirm.current?.focus(), []);
  // Not made of the name: a provider's may have spaces, and aria-describedby splits on them.
  const questionId = useId();
  return (
    <div class={style.confirm} data-testid={`${testid}-delete-confirm`}>
      <p id={questionId} class={style.confirmText}>
        Delete {name}? {consequence}
      </p>
      <button type="button" onClick={onCancel} data-testid={`${testid}-delete-cancel`}>
        Cancel
      </button>
      <button
        type="button"
        ref={confirm}
        class={style.dangerSolid}
        aria-describedby={questionId}
        disabled={deleting}
        onClick={async () => {
          setDeleting(true);
          if (!(await onDelete())) setDeleting(false);
        }}
        data-testid={`${testid}-delete-confirm-button`}
      >
        {deleting ? "Deleting…" : `Delete ${name}`}
      </button>
    </div>
  );
}
