// Signing in with an identity provider (docs/protocol.md "Identity providers"): `/api/auth/oidc/*`, and a
// signed-in user's linked providers (`/api/account/identities`).
//
// `start` and `callback` are top-level navigations (no fetch, no Origin to check), so each flow is bound
// to the browser that started it: a short-lived cookie holds its state, and the callback must bring the
// same one back (else someone could hand a victim the callback of their own sign-in). A link is bound to
// the session that asked for it as well: the callback must come with the same session cookie. The
// callback answers every failure with a redirect to the page the flow came from and a code in `?error=`,
// never with the provider's text.
import { type Context, Hono } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { database } from "../../d1/client";
import { releaseIdentity } from "../../d1/directory";
import { identitiesOf, unlinkIdentity } from "../../d1/linked-identities";
import { type OidcState, saveOidcState, takeOidcState } from "../../d1/oidc-states";
import { hit } from "../../d1/rate-limits";
import { tokenShard } from "../../d1/shards";
import type { AccountIdentities, OidcErrorCode } from "../../protocol";
import { OidcStartQuerySchema, samePath } from "../../protocol";
import { clientAddress } from "../auth/client-address";
import { sha256Hex } from "../auth/crypto";
import { DEVICE_COOKIE, trustedDevice } from "../auth/devices";
import { linkEverywhere, linkedAccount, SignInRefused, signUpWithIdentity } from "../auth/oidc-account";
import {
  authorizationServer,
  authorizationUrl,
  finishAuthorization,
  newFlowSecrets,
  OidcFlowError,
  type ProviderIdentity,
} from "../auth/oidc-client";
import { configuredProviders, findProvider } from "../auth/oidc-config";
import { credentialFor, SESSION_COOKIE, userForCredential } from "../auth/sessions";
import { cookieOptions, startSession } from "../auth/sign-in";
import { ApiError, notFound } from "../errors";
import { type AppEnv, currentUser, directory, enterShard } from "../middleware/identity";
import { readQuery } from "../validate";

export const oidcAuthRoutes = new Hono<AppEnv>();
export const identityAccountRoutes = new Hono<AppEnv>();

/** The browser's half of a flow in progress: its state, sent back only to the callbacks. */
const FLOW_COOKIE = "oracle_oidc";
const FLOW_COOKIE_PATH = "/api/auth/oidc";
const FLOW_SECONDS = 600;
const SETTINGS = "/settings/account";
/** Flows started per client address in ten minutes: each one stores a row until it is used or expires. */
const STARTS_PER_WINDOW = 60;

oidcAuthRoutes.get("/providers", (c) => c.json(configuredProviders(c.env).map(({ id, name }) => ({ id, name }))));

oidcAuthRoutes.get("/:id/start", async (c) => {
  const id = c.req.param("id");
  const provider = findProvider(c.env, id);
  const { next, link } = readQuery(c, OidcStartQuerySchema);
  if (!provider) return failed(c, link ? SETTINGS : "/login", "oidc_unknown_provider");
  let linking: { userId: string; session: string } | undefined;
  if (link) {
    linking = await signedInSession(c);
    if (!linking) return failed(c, "/login", "oidc_link_session");
  }
  const address = clientAddress(c.req.header("CF-Connecting-IP") ?? "local");
  // In the directory, with the flow's state: a start names no account yet, and starts are few.
  const allowed = await hit(database(directory(c)), `oidc-start:${address}`, {
    max: STARTS_PER_WINDOW,
    windowSeconds: 600,
  });
  if (!allowed.allowed) return failed(c, link ? SETTINGS : "/login", "oidc_busy");
  try {
    const server = await authorizationServer(provider);
    const flow = newFlowSecrets();
    const state: OidcState = {
      provider: id,
      verifier: flow.verifier,
      nonce: flow.nonce,
      next: samePath(next) ?? (linking ? SETTINGS : "/"),
      ...(linking ? { session: linking.session } : {}),
    };
    await saveOidcState(database(directory(c)), await sha256Hex(flow.state), state, linking?.userId);
    setCookie(c, FLOW_COOKIE, flow.state, cookieOptions(c, FLOW_SECONDS, FLOW_COOKIE_PATH));
    c.header("Cache-Control", "no-store");
    return c.redirect((await authorizationUrl(provider, server, redirectUri(c, id), flow)).toString(), 302);
  } catch (error) {
    if (error instanceof OidcFlowError) return failed(c, link ? SETTINGS : "/login", error.code);
    throw error;
  }
});

oidcAuthRoutes.get("/:id/callback", async (c) => {
  const id = c.req.param("id");
  const state = c.req.query("state");
  const bound = getCookie(c, FLOW_COOKIE);
  deleteCookie(c, FLOW_COOKIE, { path: FLOW_COOKIE_PATH });
  // Taken (deleted) first, whatever follows: a callback is good once.
  const taken = state ? await takeOidcState(database(directory(c)), await sha256Hex(state)) : undefined;
  const from = taken?.userId ? SETTINGS : "/login";
  if (!state || !taken || taken.data.provider !== id || bound !== state) return failed(c, from, "oidc_state");
  const provider = findProvider(c.env, id);
  if (!provider) return failed(c, from, "oidc_unknown_provider");
  let identity: ProviderIdentity;
  try {
    const flow = { state, nonce: taken.data.nonce, verifier: taken.data.verifier };
    identity = await finishAuthorization(provider, new URL(c.req.url), redirectUri(c, id), flow);
  } catch (error) {
    if (error instanceof OidcFlowError) return failed(c, from, error.code);
    throw error;
  }
  if (taken.userId) return finishLink(c, id, identity, taken.userId, taken.data.session);
  try {
    const user = (await linkedAccount(c, id, identity)) ?? (await signUpWithIdentity(c, id, identity));
    const knownDevice = (await trustedDevice(c.var.db, getCookie(c, DEVICE_COOKIE), user.id)) !== undefined;
    await startSession(c, user, { method: `oidc:${id}`, knownDevice });
    return c.redirect(taken.data.next, 302);
  } catch (error) {
    if (error instanceof SignInRefused) return failed(c, "/login", error.code);
    throw error;
  }
});

/** A link's callback: only in the session that started it, and never taking another user's identity. */
async function finishLink(
  c: Context<AppEnv>,
  provider: string,
  identity: ProviderIdentity,
  userId: string,
  session: string | undefined,
) {
  const current = await signedInSession(c);
  if (!current || current.userId !== userId || current.session !== session)
    return failed(c, SETTINGS, "oidc_link_session");
  const ref = { provider, subject: identity.subject, userId, label: identity.label };
  const outcome = await linkEverywhere(c, ref);
  if (outcome === "linked_elsewhere") return failed(c, SETTINGS, "oidc_linked_elsewhere");
  if (outcome === "provider_taken") return failed(c, SETTINGS, "oidc_already_linked");
  return c.redirect(`${SETTINGS}?linked=${encodeURIComponent(provider)}`, 302);
}

/** The session cookie's user and the session's hash, when it is a live session. */
async function signedInSession(c: Context<AppEnv>): Promise<{ userId: string; session: string } | undefined> {
  const token = getCookie(c, SESSION_COOKIE);
  const shard = tokenShard(c.env, token);
  if (!token || shard === undefined) return undefined;
  enterShard(c, shard);
  const credential = await credentialFor("session", token);
  const account = await userForCredential(c.var.db, credential);
  return account && { userId: account.id, session: credential.hash };
}

const redirectUri = (c: Context<AppEnv>, id: string) =>
  `${new URL(c.req.url).origin}/api/auth/oidc/${encodeURIComponent(id)}/callback`;

/** Back to the page the flow came from, with the code its words are shown by (protocol/oidc.ts). */
function failed(c: Context<AppEnv>, page: string, code: OidcErrorCode) {
  c.header("Cache-Control", "no-store");
  return c.redirect(`${page}?error=${code}`, 302);
}

identityAccountRoutes.get("/", async (c) => {
  const providers = configuredProviders(c.env);
  const names = new Map(providers.map((p) => [p.id, p.name]));
  const rows = await identitiesOf(c.var.db, currentUser(c).id);
  const body: AccountIdentities = {
    available: providers.map(({ id, name }) => ({ id, name })),
    linked: rows.map((r) => ({
      provider: r.provider,
      name: names.get(r.provider) ?? r.provider,
      label: r.label,
      created_at: r.createdAt,
      last_used_at: r.lastUsedAt,
    })),
  };
  return c.json(body);
});

identityAccountRoutes.delete("/:provider", async (c) => {
  const outcome = await unlinkIdentity(c.var.db, currentUser(c).id, c.req.param("provider"));
  if (outcome === "none") throw notFound("No such linked provider");
  if (outcome === "done") await releaseIdentity(directory(c), c.req.param("provider"), currentUser(c).id);
  if (outcome === "last")
    throw new ApiError(
      409,
      "last_sign_in_method",
      "This provider is your only way to sign in: set a password or add a passkey before unlinking it",
    );
  return c.body(null, 204);
});
