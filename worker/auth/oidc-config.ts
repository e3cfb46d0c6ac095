// The identity providers the operator configured, read from variables (README "Sign in with an identity
// provider"): OIDC_PROVIDERS lists ids (`google,keycloak`), and each id has its own variables,
// OIDC_<ID>_ISSUER, _CLIENT_ID, _CLIENT_SECRET (a Worker secret; absent for a public client), _NAME (the
// button's label), _SCOPES and _TYPE (`oidc`, or `github` for GitHub's OAuth flow, which is not OpenID
// Connect). A provider missing what it needs is left out, with a warning, rather than offered broken.

export type ProviderType = "oidc" | "github";

/** The Worker's env as this module reads it: OIDC_PROVIDERS, and each provider's variables by name. */
export type ProviderVars = { OIDC_PROVIDERS?: string };

export interface ProviderConfig {
  id: string;
  name: string;
  type: ProviderType;
  /** The issuer (OpenID Connect discovery); GitHub's is fixed. */
  issuer: string;
  clientId: string;
  clientSecret?: string;
  scopes: string;
}

/** An id is also part of variable names and of the callback's path. */
const PROVIDER_ID = /^[a-z0-9_]{1,32}$/;

const DEFAULT_SCOPES: Record<ProviderType, string> = { oidc: "openid email profile", github: "read:user" };

export const GITHUB_ISSUER = "https://github.com";

const warned = new Set<string>();
function warnOnce(message: string): void {
  if (warned.has(message)) return;
  warned.add(message);
  console.warn(message);
}

/** The variable OIDC_<ID>_<name>, trimmed; undefined when unset or empty. */
function variable(env: ProviderVars, id: string, name: string): string | undefined {
  const value = (env as Record<string, unknown>)[`OIDC_${id.toUpperCase()}_${name}`];
  return typeof value === "string" && value.trim() ? value.trim() : undefined;
}

/** A readable name from an id when OIDC_<ID>_NAME is not set: `google` → "Google", `my_idp` → "My idp". */
const nameFromId = (id: string) => {
  const words = id.replaceAll("_", " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
};

function providerFrom(env: ProviderVars, id: string): ProviderConfig | undefined {
  const typeName = (variable(env, id, "TYPE") ?? "oidc").toLowerCase();
  if (typeName !== "oidc" && typeName !== "github") {
    warnOnce(`identity provider ${id}: OIDC_${id.toUpperCase()}_TYPE must be oidc or github; left out`);
    return undefined;
  }
  const type: ProviderType = typeName;
  const issuer = type === "github" ? GITHUB_ISSUER : variable(env, id, "ISSUER");
  const clientId = variable(env, id, "CLIENT_ID");
  if (!issuer || !clientId) {
    warnOnce(`identity provider ${id}: OIDC_${id.toUpperCase()}_ISSUER and _CLIENT_ID are needed; left out`);
    return undefined;
  }
  if (!issuerAllowed(issuer)) {
    warnOnce(`identity provider ${id}: the issuer must be an https URL (http only on loopback); left out`);
    return undefined;
  }
  return {
    id,
    type,
    issuer,
    clientId,
    clientSecret: variable(env, id, "CLIENT_SECRET"),
    name: variable(env, id, "NAME") ?? (type === "github" ? "GitHub" : nameFromId(id)),
    scopes: variable(env, id, "SCOPES") ?? DEFAULT_SCOPES[type],
  };
}

/** Every configured provider, in OIDC_PROVIDERS' order (an id listed twice counts once). */
export function configuredProviders(env: ProviderVars): ProviderConfig[] {
  const ids = [
    ...new Set(
      (env.OIDC_PROVIDERS ?? "")
        .split(",")
        .map((id) => id.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
  const providers: ProviderConfig[] = [];
  for (const id of ids) {
    if (!PROVIDER_ID.test(id)) {
      warnOnce(`identity provider "${id}": an id is 1–32 of a–z, 0–9 and _; left out`);
      continue;
    }
    const provider = providerFrom(env, id);
    if (provider) providers.push(provider);
  }
  return providers;
}

export const findProvider = (env: ProviderVars, id: string): ProviderConfig | undefined =>
  configuredProviders(env).find((p) => p.id === id);

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** A loopback issuer (tests, local development) may be plain http; every other one must be https. */
export function isLoopbackIssuer(issuer: string): boolean {
  try {
    return LOOPBACK_HOSTS.has(new URL(issuer).hostname);
  } catch {
    return false;
  }
}

function issuerAllowed(issuer: string): boolean {
  try {
    const url = new URL(issuer);
    return url.protocol === "https:" || (url.protocol === "http:" && isLoopbackIssuer(issuer));
  } catch {
    return false;
  }
}
