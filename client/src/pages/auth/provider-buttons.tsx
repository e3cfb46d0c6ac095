// The sign-in page's identity-provider buttons (docs/protocol.md "Identity providers"): "Continue with
// <Name>" for each provider the operator configured, nothing when there is none. Each is a link, not a
// fetch: the server's start redirects the browser to the provider, whose answer comes back to the
// server's callback, which signs in (or makes the account, as the sign-up policy allows) and lands on
// `next`. What went wrong comes back as `?error=` on this page (index.tsx shows it).
import { oidcStartPath, useOidcProviders } from "../../lib/identity-providers";
import { nextFromLocation } from "../../lib/router";
import style from "./provider-buttons.module.css";

export function ProviderButtons(_props: { mode: "login" | "signup" }) {
  const providers = useOidcProviders();
  if (!providers?.length) return null;
  const next = nextFromLocation();
  return (
    <div class={style.providers} data-testid="provider-buttons">
      {providers.map((provider) => (
        <a
          key={provider.id}
          class={style.provider}
          href={oidcStartPath(provider.id, { next })}
          data-testid="provider-button"
          data-provider={provider.id}
        >
          Continue with {provider.name}
        </a>
      ))}
    </div>
  );
}
