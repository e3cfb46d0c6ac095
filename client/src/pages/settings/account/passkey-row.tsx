// One passkey in Settings → Account: its name, when it was added and last used, Rename (in place) and
// Remove (after a confirm). Removing the account's last way in is refused by the server in words, shown
// here as they are.
import { useState } from "preact/hooks";
import { type Passkey, removePasskey, renamePasskey } from "../../../lib/passkeys";
import { explainShareError, shareDate } from "../../../lib/shares";
import { ConfirmRemove } from "./confirm-remove";
import style from "./style.module.css";

type Props = { passkey: Passkey; onRenamed: (passkey: Passkey) => void; onRemoved: () => void };

export function PasskeyRow({ passkey, onRenamed, onRemoved }: Props) {
  const [mode, setMode] = useState<"view" | "rename" | "remove">("view");
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const remove = async () => {
    setBusy(true);
    const result = await removePasskey(passkey.id);
    setBusy(false);
    if (result.ok || result.error.status === 404) return onRemoved();
    setMode("view");
    setProblem(
      result.error.code === "last_sign_in_method" ? result.error.message : explainShareError(result.error, "remove it"),
    );
  };

  return (
    <li class={style.row} data-testid="passkey" data-name={passkey.name}>
      {mode === "rename" ? (
        <RenameForm
          passkey={passkey}
          onDone={(renamed) => {
            if (renamed) onRenamed(renamed);
            setMode("view");
          }}
        />
      ) : (
        <div class={style.about}>
          <span class={style.name} data-testid="passkey-name">
            {passkey.name}
          </span>
          <span class={style.meta}>
            Added {shareDate(passkey.created_at)} ·{" "}
            {passkey.last_used_at ? `last used ${shareDate(passkey.last_used_at)}` : "never used"}
            {passkey.backed_up ? " · synced to your other devices" : ""}
          </span>
        </div>
      )}
      {mode === "view" && (
        <div class={style.actions}>
          <button type="button" onClick={() => setMode("rename")} data-testid="passkey-rename">
            Rename
          </button>
          <button
            type="button"
            onClick={() => {
              setProblem(null);
              setMode("remove");
            }}
            data-testid="passkey-remove"
          >
            Remove
          </button>
        </div>
      )}
      {mode === "remove" && (
        <ConfirmRemove
          question="Remove it? You can no longer sign in with it."
          action="Remove"
          busy={busy}
          onCancel={() => setMode("view")}
          onConfirm={() => void remove()}
          testid="passkey-remove-confirm"
        />
      )}
      {problem && (
        <p class={style.problem} role="alert" data-testid="passkey-problem">
          {problem}
        </p>
      )}
    </li>
  );
}

function RenameForm({ passkey, onDone }: { passkey: Passkey; onDone: (renamed?: Passkey) => void }) {
  const [name, setName] = useState(passkey.name);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const save = async (event: Event) => {
    event.preventDefault();
    if (!name.trim()) return setProblem("Give the passkey a name, such as the device it is on.");
    setBusy(true);
    const result = await renamePasskey(passkey.id, name.trim());
    setBusy(false);
    if (result.ok) return onDone(result.data);
    setProblem(explainShareError(result.error, "rename it"));
  };
  const problemId = `passkey-rename-problem-${passkey.id}`;
  return (
    <form class={style.form} onSubmit={(event) => void save(event)} data-testid="passkey-rename-form">
      <label class={style.field}>
        <span>Name</span>
        <input
          value={name}
          maxLength={64}
          onInput={(event) => setName(event.currentTarget.value)}
          aria-invalid={problem ? "true" : undefined}
          aria-describedby={problem ? problemId : undefined}
          data-testid="passkey-rename-input"
          // biome-ignore lint/a11y/noAutofocus: the field the person just asked to edit
          autoFocus
        />
      </label>
      <button type="submit" disabled={busy} data-testid="passkey-rename-save">
        {busy ? "Saving…" : "Save"}
      </button>
      <button type="button" onClick={() => onDone()} disabled={busy}>
        Cancel
      </button>
      {problem && (
        <p id={problemId} class={style.problem} role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}
