// Settings → Account → Passkeys (docs/protocol.md "Passkeys"): the account's passkeys with when each was
// added and last used, Rename, Remove (after a confirm; the last way into the account is refused by the
// server, and its words are shown), and "Add a passkey", which asks this browser's authenticator for a
// new one. A cancelled prompt is said as a status: nothing went wrong, nothing changed.
import { useState } from "preact/hooks";
import { ListView, pageStyle } from "../../../components/page-frame";
import { addPasskey, listPasskeys, type Passkey, passkeysSupported } from "../../../lib/passkeys";
import { explainShareError } from "../../../lib/shares";
import { useList } from "../../../lib/use-list";
import { PasskeyRow } from "./passkey-row";
import style from "./style.module.css";

const explainLoad = (error: Parameters<typeof explainShareError>[0]) => explainShareError(error, "load your passkeys");

/** `onChanged`: a passkey was added or removed (the account's ways in changed). */
export function Passkeys({ onChanged }: { onChanged: () => void }) {
  const { list, update } = useList(listPasskeys, explainLoad);
  const [busy, setBusy] = useState(false);
  const [said, setSaid] = useState<{ text: string; problem: boolean } | null>(null);

  const add = async () => {
    setBusy(true);
    setSaid(null);
    const outcome = await addPasskey();
    setBusy(false);
    if (!outcome.ok) return setSaid({ text: outcome.message, problem: !outcome.cancelled });
    update((passkeys) => [outcome.data, ...passkeys]);
    onChanged();
    setSaid({ text: `Added “${outcome.data.name}”: you can sign in with it, no password needed.`, problem: false });
  };

  return (
    <section class={style.section} aria-labelledby="account-passkeys-title" data-testid="passkeys">
      <h2 id="account-passkeys-title" class={style.heading}>
        Passkeys
      </h2>
      <p class={pageStyle.muted}>
        A passkey signs you in with your device's screen lock or a security key instead of a password, and cannot be
        phished. Add one on each device you use.
      </p>
      <ListView list={list} empty="No passkeys yet." emptyTestId="passkeys-empty" listTestId="passkey-list">
        {(passkey) => (
          <PasskeyRow
            key={passkey.id}
            passkey={passkey}
            onRenamed={(renamed: Passkey) => {
              setSaid(null); // "Added …" may name it by its old name
              update((all) => all.map((p) => (p.id === renamed.id ? renamed : p)));
            }}
            onRemoved={() => {
              setSaid(null);
              update((all) => all.filter((p) => p.id !== passkey.id));
              onChanged();
            }}
          />
        )}
      </ListView>
      {passkeysSupported() ? (
        <div class={style.form}>
          <button
            type="button"
            class={pageStyle.primary}
            disabled={busy}
            onClick={() => void add()}
            data-testid="passkey-add"
          >
            {busy ? "Waiting for your passkey…" : "Add a passkey"}
          </button>
          {said && (
            <p
              class={said.problem ? style.problem : pageStyle.muted}
              role={said.problem ? "alert" : "status"}
              data-testid="passkey-add-said"
            >
              {said.text}
            </p>
          )}
        </div>
      ) : (
        <p class={pageStyle.muted} data-testid="passkeys-unsupported">
          This browser cannot make or use passkeys.
        </p>
      )}
    </section>
  );
}
