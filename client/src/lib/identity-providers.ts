// Identity providers over docs/protocol.md "Identity providers" (protocol/oidc.ts): the ones this server
// offers (read once a page load), where a button sends the browser (a full navigation: the flow goes
// through the provider and back to the server's callback), a user's linked ones and unlinking, and the
// words for a callback's `?error=` code.
import { useEffect, useState } from "preact/hooks";
import {
  type AccountIdentities,
  AccountIdentitiesSchema,
  type OidcProvider,
  OidcProvidersSchema,
  oidcErrorWords,
} from "../../../protocol";
import { type ApiResult, requestEmpty, requestJson } from "./api";

export type { AccountIdentities, OidcProvider };

let known: Promise<OidcProvider[]> | undefined;

// Unreadable (an old server, a glitch): no buttons, as on a server that offers none.
async function readProviders(): Promise<OidcProvider[]> {
  const result = await requestJson("/api/auth/oidc/providers", OidcProvidersSchema);
  if (result.ok) return result.data;
  known = undefined;
  return [];
}

/** The providers this server offers, or undefined while they are being read. */
export function useOidcProviders(): OidcProvider[] | undefined {
  const [providers, setProviders] = useState<OidcProvider[]>();
  useEffect(() => {
    let live = true;
    known ??= readProviders();
    void known.then((read) => live && setProviders(read));
    return () => {
      live = false;
    };
  }, []);
  return providers;
}

/** Where a provider's button goes: the server's start, which redirects to the provider. */
export function oidcStartPath(id: string, { next, link }: { next?: string | null; link?: boolean } = {}): string {
  const query = new URLSearchParams();
  if (next) query.set("next", next);
  if (link) query.set("link", "1");
  const search = query.toString();
  return `/api/auth/oidc/${encodeURIComponent(id)}/start${search ? `?${search}` : ""}`;
}

/** The words for the current URL's `?error=` (a callback that failed), or null. */
export function oidcErrorFromLocation(): string | null {
  const code = new URLSearchParams(location.search).get("error");
  return code ? oidcErrorWords(code) : null;
}

export function loadIdentities(): Promise<ApiResult<AccountIdentities>> {
  return requestJson("/api/account/identities", AccountIdentitiesSchema);
}

export function unlinkIdentity(provider: string): Promise<ApiResult<null>> {
  return requestEmpty(`/api/account/identities/${encodeURIComponent(provider)}`, "DELETE");
}
