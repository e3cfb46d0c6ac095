// Under the log-in form: what to do about a forgotten password on this server. A passkey (where the
// browser has them) or a linked identity provider (those the operator configured) signs the account in
// without one; otherwise an administrator can send a single-use reset link.
import { useOidcProviders } from "../../lib/identity-providers";
import { passkeysSupported } from "../../lib/passkeys";
import style from "./style.module.css";

export function ForgotPassword() {
  // The buttons' list, read once for the page (lib/identity-providers.ts).
  const providers = (useOidcProviders() ?? []).map((p) => p.name);
  const passkeys = passkeysSupported();
  const ways = [
    ...(passkeys ? ["sign in with a passkey, if you added one"] : []),
    ...(providers.length ? [`continue with ${providers.join(" or ")}, if you linked it`] : []),
  ];
  return (
    <details class={style.forgot} data-testid="forgot-password">
      <summary>Forgot your password?</summary>
      <p>
        {ways.length ? `You can ${ways.join("; or ")}. ` : ""}
        {ways.length ? "Otherwise, ask" : "Ask"} an administrator of this server for a password reset link: it lets you
        choose a new password once.
      </p>
    </details>
  );
}
