// Making an account under the operator's sign-up policy (signup-policy.ts), whichever way it comes: a
// sign-up form (a username and password, maybe an invite link) or a first sign-in with an identity
// provider. One place decides who is let in (and how: pending approval, with an invite to use up, as the
// installation's first account) and creates the account, so the two ways cannot drift apart.
import type { Context } from "hono";
import { createAccount, noAccountYet } from "../../d1/accounts";
import { claimInvite, releaseInvite } from "../../d1/invites";
import { hit } from "../../d1/rate-limits";
import type { User } from "../../protocol";
import { ApiError } from "../errors";
import type { AppEnv } from "../middleware/identity";
import { clientAddress } from "./client-address";
import { sha256Hex } from "./crypto";
import { publicUser } from "./sessions";
import { configuredAdmins, signupPolicy, signupsPerHour } from "./signup-policy";

export const SIGNUP_CLOSED = "Sign-ups are closed on this server";
export const INVITE_NEEDED = "Sign-ups on this server need an invite link: ask an administrator for one";
const INVITE_USED = "This invite link does not work any more: it was used, revoked or has expired. Ask for a new one";

/** Who SIGNUP lets in: how (pending, an invite to use up, the first account), or why not. */
export type Admission =
  | { admitted: true; pending: boolean; invite?: string; bootstrap?: boolean }
  | { admitted: false; refusal: "closed" | "invite_needed" };

/** The per-address limit on sign-ups, counted before anything else is checked (signup-policy.ts). */
export async function countSignup(c: Context<AppEnv>): Promise<void> {
  const max = signupsPerHour(c.env);
  if (!max) return;
  const address = clientAddress(c.req.header("CF-Connecting-IP") ?? "local");
  const decision = await hit(c.var.db, `sign-up:${address}`, { max, windowSeconds: 3600 });
  if (decision.allowed) return;
  c.header("Retry-After", String(decision.retryAfterSeconds));
  const minutes = Math.ceil(decision.retryAfterSeconds / 60);
  throw new ApiError(429, "rate_limited", `Too many sign-ups from this address; try again in ${minutes} min`);
}

/**
 * Whether SIGNUP lets this sign-up in. A username listed in ADMINS always may (the operator's way into
 * a closed installation), but only one chosen on the form: a provider's account brings a name its owner
 * picked at the provider, which must not make anyone the operator.
 */
export async function admitSignup(
  c: Context<AppEnv>,
  { username, invite, viaProvider = false }: { username?: string; invite?: string; viaProvider?: boolean },
): Promise<Admission> {
  const admins = configuredAdmins(c.env);
  if (!viaProvider && username && admins.includes(username)) return { admitted: true, pending: false };
  if (!admins.length && (await noAccountYet(c.env.DB))) return { admitted: true, pending: false, bootstrap: true };
  const policy = signupPolicy(c.env, c.req.url);
  if (policy === "closed") return { admitted: false, refusal: "closed" };
  if (policy === "invite") {
    if (!invite || viaProvider) return { admitted: false, refusal: "invite_needed" };
    return { admitted: true, pending: false, invite: await sha256Hex(invite) };
  }
  return { admitted: true, pending: policy === "approval" };
}

/** An admission's refusal as the sign-up form's error. */
export const refusalError = (refusal: "closed" | "invite_needed") =>
  new ApiError(403, "signup_closed", refusal === "closed" ? SIGNUP_CLOSED : INVITE_NEEDED);

/**
 * Creates the account an admission lets in: the user, or undefined when the username is taken (then
 * nothing is kept and the invite is free again). 403 `signup_closed` when the invite was used meanwhile,
 * or when a race for the first account was lost.
 */
export async function createAdmittedAccount(
  c: Context<AppEnv>,
  admission: Extract<Admission, { admitted: true }>,
  { username, passwordHash }: { username: string; passwordHash: string },
): Promise<User | undefined> {
  const id = crypto.randomUUID();
  const claimed = admission.invite ? await claimInvite(c.env.DB, admission.invite, id) : true;
  if (!claimed) throw new ApiError(403, "signup_closed", INVITE_USED);
  const status = admission.pending ? "pending" : "active";
  const created = await createAccount(c.env.DB, { id, username, passwordHash, status }, configuredAdmins(c.env));
  if (!created) {
    if (admission.invite) await releaseInvite(c.env.DB, admission.invite, id);
    return undefined;
  }
  // The first account of an empty installation gets in whatever SIGNUP says, as its admin; two at once
  // both saw it empty, and the one that did not become the admin is held to the policy after all.
  if (admission.bootstrap && created.role !== "admin" && signupPolicy(c.env, c.req.url) !== "open") {
    await c.env.DB.prepare("DELETE FROM users WHERE id = ?").bind(id).run();
    throw refusalError("closed");
  }
  return publicUser({ id, username, status }, created.role === "admin");
}
