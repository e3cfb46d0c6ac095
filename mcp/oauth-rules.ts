// The OAuth decisions that need no network: when an access token must be refreshed, how long a pending
// authorization lives, and how its `state` names the server it belongs to. Kept apart from the SDK's
// client (mcp/oauth.ts) so the turn's hot path and the tests can use them without loading it.

/** Refresh this long before the access token runs out: a turn's requests must not race its expiry. */
export const REFRESH_MARGIN_MS = 60_000;
/** The user has this long to approve in the popup; the state and PKCE verifier are forgotten after. */
export const PENDING_TTL_MS = 10 * 60_000;

/** The tokens as stored (sealed): the expiry is absolute, so a stored token's age needs no clock of issue. */
export interface StoredTokens {
  access_token: string;
  refresh_token?: string;
  token_type: string;
  /** ISO time the access token runs out, or null when the server did not say. */
  expires_at: string | null;
  scope?: string;
}

/** An access token within the margin of its expiry (or past it) is refreshed before use. */
export function needsRefresh(tokens: Pick<StoredTokens, "expires_at">, now: number): boolean {
  if (!tokens.expires_at) return false;
  const at = Date.parse(tokens.expires_at);
  return Number.isNaN(at) || at - now <= REFRESH_MARGIN_MS;
}

/** What a token response becomes once stored: `expires_in` (seconds from now) as a time. */
export function toStoredTokens(
  tokens: { access_token: string; refresh_token?: string; token_type: string; expires_in?: number; scope?: string },
  now: number,
): StoredTokens {
  return {
    access_token: tokens.access_token,
    ...(tokens.refresh_token ? { refresh_token: tokens.refresh_token } : {}),
    token_type: tokens.token_type,
    expires_at: typeof tokens.expires_in === "number" ? new Date(now + tokens.expires_in * 1000).toISOString() : null,
    ...(tokens.scope ? { scope: tokens.scope } : {}),
  };
}

/** The flow in progress, sealed on the row until the callback uses it once. */
export interface PendingAuthorization {
  state: string;
  verifier: string;
  redirect_uri: string;
  expires_at: string;
}

const toBase64Url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");

/** `<server id>.<256 random bits>`: the callback finds the row by the id, then compares the whole value. */
export function newState(serverId: string): string {
  return `${serverId}.${toBase64Url(crypto.getRandomValues(new Uint8Array(32)))}`;
}

/** The server id a state names, or undefined for a value this app never made. */
export function serverOfState(state: string): string | undefined {
  const match = /^([0-9a-f-]{36})\.[A-Za-z0-9_-]{43}$/.exec(state);
  return match?.[1];
}

/** Equal strings, compared without an early exit (the state is a bearer of the flow). */
export function sameSecret(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** Why a pending authorization cannot complete with this state, or undefined when it can. */
export function pendingRefusal(
  pending: PendingAuthorization | undefined,
  state: string,
  now: number,
): "no_pending" | "mismatch" | "expired" | undefined {
  if (!pending) return "no_pending";
  if (!sameSecret(pending.state, state)) return "mismatch";
  if (Date.parse(pending.expires_at) <= now) return "expired";
  return undefined;
}

/** Scopes as the API lists them. */
export const scopeList = (scope: string | null | undefined): string[] =>
  scope ? scope.split(/\s+/).filter(Boolean) : [];

/** An OAuth server that needs the user (never connected, or its grant expired or was revoked): its words say so. */
export class OAuthAuthorizationNeeded extends Error {
  override name = "OAuthAuthorizationNeeded";
}

/** A refresh that failed for a reason that may pass (the authorization server down): the grant is kept. */
export class OAuthRefreshFailed extends Error {
  override name = "OAuthRefreshFailed";
}
