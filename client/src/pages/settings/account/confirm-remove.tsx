// The confirm step before something of the account is removed (a passkey, an API token): what it costs,
// Cancel, and the danger button that does it.
import { useId } from "preact/hooks";
import style from "./style.module.css";

type Props = {
  /** What removing it costs, as a question ("Remove it? You can no longer sign in with it."). */
  question: string;
  /** The button's word ("Remove", "Delete"); while busy, "Removing…" / "Deleting…". */
  action: "Remove" | "Delete";
  busy: boolean;
  onCancel: () => void;
  onConfirm: () => void;
  testid: string;
};

export function ConfirmRemove({ question, action, busy, onCancel, onConfirm, testid }: Props) {
  const questionId = useId();
  return (
    <div class={style.actions}>
      <span id={questionId} class={style.meta}>
        {question}
      </span>
      <button type="button" onClick={onCancel} disabled={busy}>
        Cancel
      </button>
      <button
        type="button"
        class={style.danger}
        aria-describedby={questionId}
        disabled={busy}
        onClick={onConfirm}
        data-testid={testid}
      >
        {busy ? `${action === "Remove" ? "Removing" : "Deleting"}…` : action}
      </button>
    </div>
  );
}
