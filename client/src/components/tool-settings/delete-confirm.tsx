// The confirm step before a server is deleted: the question, Cancel and Delete (focused first).
import { useEffect, useRef, useState } from "preact/hooks";
import style from "./style.module.css";

type Props = { name: string; onCancel: () => void; onDelete: () => Promise<boolean> };

export function DeleteConfirm({ name, onCancel, onDelete }: Props) {
  const [deleting, setDeleting] = useState(false);
  const confirm = useRef<HTMLButtonElement>(null);
  useEffect(() => confirm.current?.focus(), []);
  const questionId = `mcp-delete-question-${name}`;
  return (
    <div class={style.confirm} data-testid="mcp-delete-confirm">
      <p id={questionId} class={style.confirmText}>
        Delete {name}? The agent loses its tools, and its secret is erased.
      </p>
      <button type="button" onClick={onCancel} data-testid="mcp-delete-cancel">
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
        data-testid="mcp-delete-confirm-button"
      >
        {deleting ? "Deleting…" : `Delete ${name}`}
      </button>
    </div>
  );
}
