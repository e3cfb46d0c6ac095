// The sign-in page's ways in besides a password: a passkey (docs/protocol.md "Passkeys"), and the
// identity providers' buttons (provider-buttons.tsx). Logging in with a passkey needs no username; signing
// up with one uses the username typed in the form above and no password. A cancelled passkey prompt is
// said quietly, as a status, not as an error.
import { useState } from "preact/hooks";
import { type User, UsernameSchema } from "../../../../protocol";
import { passkeysSupported, signInWithPasskey, signUpWithPasskey } from "../../lib/passkeys";
import style from "./other-ways.module.css";
import { ProviderButtons } from "./provider-buttons";

type Mode = "login" | "signup";

type Props = {
  mode: Mode;
  /** What is typed in the form's username field (a passkey's sign-up makes that account). */
  username?: string;
  /** The invite link's token, on a sign-up that needs one. */
  invite?: string;
  onSignedIn?: (user: User) => void;
};

export function OtherWays({ mode, username = "", invite, onSignedIn }: Props) {
  return (
    <div class={style.ways} data-testid="other-ways">
      {onSignedIn && passkeysSupported() && (
        <PasskeyWay mode={mode} username={username} invite={invite} onSignedIn={onSignedIn} />
      )}
      <ProviderButtons mode={mode} />
    </div>
  );
}

const NEED_USERNAME =
  "Type the username you want above first (3–32 characters of a–z, 0–9, _ and -). No password is needed with a passkey.";

function PasskeyWay({ mode, username, invite, onSignedIn }: Required<Omit<Props, "invite">> & { invite?: string }) {
  const [busy, setBusy] = useState(false);
  const [said, setSaid] = useState<{ text: string; problem: boolean } | null>(null);
  const signup = mode === "signup";

  const start = async () => {
    if (signup && !UsernameSchema.safeParse(username).success) return setSaid({ text: NEED_USERNAME, problem: true });
    setBusy(true);
    setSaid(null);
    const outcome = signup ? await signUpWithPasskey(username, invite) : await signInWithPasskey();
    setBusy(false);
    if (outcome.ok) return onSignedIn(outcome.data);
    setSaid({ text: outcome.message, problem: !outcome.cancelled });
  };

  return (
    <>
      <button
        type="button"
        class={style.way}
        disabled={busy}
        aria-describedby={said ? "passkey-said" : undefined}
        onClick={() => void start()}
        data-testid={signup ? "passkey-signup" : "passkey-signin"}
      >
        {busy ? "Waiting for your passkey…" : signup ? "Sign up with a passkey" : "Sign in with a passkey"}
      </button>
      {said && (
        <p
          id="passkey-said"
          class={said.problem ? style.problem : style.said}
          role={said.problem ? "alert" : "status"}
          data-testid="passkey-said"
          data-cancelled={said.problem ? undefined : "true"}
        >
          {said.text}
        </p>
      )}
    </>
  );
}
