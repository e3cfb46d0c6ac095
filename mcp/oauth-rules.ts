// The OAuth decisions that need no network: when an access token must be refreshed, how long a pending
// authorization lives, how its `state` names the server it belongs to, how large a value from an
// authorization server may be, and which scopes a step-up asks for. Kept apart from the SDK's
// client (mcp/oauth.ts) so the turn's hot path and the tests can use them without loading it.
import { toBase64Url } from "../core/base64";

/**
 * What an authorization server may send, at most: an answer (metadata, registration, tokens) larger than
 * this is refused before it is parsed. Real ones are a few kilobytes.
 */
export const MAX_OAUTH_RESPONSE_BYTES = 64 * 1024;
/** A token goes out in an Authorization header, which servers cap well below this. */
export const MAX_TOKEN_CHARS = 16 * 1024;
/** A URL, a client id or secret, a scope list, and any other one value kept from an OAuth answer. */
export const MAX_OAUTH_VALUE_CHARS = 2048;

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

/** Words from outside (a server's error description) kept for Settings: at most this long. */
export const MAX_ERROR_WORDS = 500;

/** `text` cut to MAX_ERROR_WORDS characters, saying it was cut. */
export const clipped = (text: string): string =>
  text.length <= MAX_ERROR_WORDS ? text : `${text.slice(0, MAX_ERROR_WORDS - 1)}…`;

/** An OAuth failure already in the user's words: Settings and a turn show its message as it is. */
export class OAuthWords extends Error {}

/** A value from an authorization server over its size limit: refused in words, never sealed or stored. */
export class OAuthTooLarge extends OAuthWords {
  override name = "OAuthTooLarge";
}

/** `value` when it is at most `max` characters; else an OAuthTooLarge that names it (`what`). */
export function bounded<T extends string | undefined>(what: string, value: T, max = MAX_OAUTH_VALUE_CHARS): T {
  if (value !== undefined && value.length > max)
    throw new OAuthTooLarge(
      `its authorization server sent ${what} of ${value.length.toLocaleString("en-US")} characters (at most ${max.toLocaleString("en-US")})`,
    );
  return value;
}

/**
 * What a token response becomes once stored: `expires_in` (seconds from now) as a time, and the scope
 * granted; a response without `scope` granted what was asked (`requested`, RFC 6749 §5.1). A token
 * or scope over its limit is refused.
 */
export function toStoredTokens(
  tokens: { access_token: string; refresh_token?: string; token_type: string; expires_in?: number; scope?: string },
  now: number,
  requested?: string,
): StoredTokens {
  const scope = bounded("a scope", tokens.scope) ?? requested;
  return {
    access_token: bounded("an access token", tokens.access_token, MAX_TOKEN_CHARS),
    ...(tokens.refresh_token
      ? { refresh_token: bounded("a refresh token", tokens.refresh_token, MAX_TOKEN_CHARS) }
      : {}),
    token_type: bounded("a token type", tokens.token_type, 64),
    expires_at: typeof tokens.expires_in === "number" ? new Date(now + tokens.expires_in * 1000).toISOString() : null,
    ...(scope ? { scope } : {}),
  };
}

/** The flow in progress, sealed on the row until the callback uses it once. */
export interface PendingAuthorization {
  state: string;
  verifier: string;
  redirect_uri: string;
  expires_at: string;
  /** The scopes asked for: what was granted when the token response does not say. */
  scope?: string;
}

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

/** Every scope of the lists, once each, in the order first seen, space-separated; undefined for none. */
export function scopeUnion(...scopes: (string | null | undefined)[]): string | undefined {
  const all = [...new Set(scopes.flatMap(scopeList))];
  return all.length ? all.join(" ") : undefined;
}

/**
 * The scopes a 403 `insufficient_scope` asks for that the grant lacks: what a new authorization must
 * add. Empty when it asks for nothing the grant does not hold, where authorizing again could only loop.
 */
export function missingScopes(challenged: string | undefined, granted: string | null | undefined): string[] {
  const held = new Set(scopeList(granted));
  return scopeList(challenged).filter((scope) => !held.has(scope));
}

/** An OAuth server that needs the user (never connected, or its grant expired or was revoked): its words say so. */
export class OAuthAuthorizationNeeded extends OAuthWords {
  override name = "OAuthAuthorizationNeeded";
}

/** A call answered 403 `insufficient_scope`: the user must reconnect to grant the scopes it names. */
export class OAuthScopeNeeded extends OAuthAuthorizationNeeded {
  override name = "OAuthScopeNeeded";
}

/** A 403 `insufficient_scope` naming only scopes already granted: asking again would not help. */
export class OAuthScopeRefused extends OAuthWords {
  override name = "OAuthScopeRefused";
}

/** A refresh that failed for a reason that may pass (the authorization server down): the grant is kept. */
export class OAuthRefreshFailed extends OAuthWords {
  override name = "OAuthRefreshFailed";
}
