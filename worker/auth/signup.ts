// Making an account, whatever it signs in with (a password, a passkey): the one place the sign-up
// policy (signup-policy.ts), invite links, the per-address limit and the first account's admin rule are
// applied, so every way to sign up is held to the same rules.
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

const CLOSED = "Sign-ups are closed on this server";
const INVITE_NEEDED = "Sign-ups on this server need an invite link: ask an administrator for one";
const INVITE_USED = "This invite link does not work any more: it was used, revoked or has expired. Ask for a new one";

/** How SIGNUP lets a sign-up in: pending approval, with an invite to use up, or as the first account. */
export interface Admission {
  pending: boolean;
  /** The invite's hash, to claim as the account is made. */
  invite?: string;
  bootstrap?: boolean;
}

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

/** An invite link's token as invites are stored (its hash), so no other table holds the token itself. */
export const hashInvite = async (invite: string | undefined) => (invite ? await sha256Hex(invite) : undefined);

/** Whether SIGNUP lets this sign-up in, and how (`invite`: the hash of the link's token); 403 `signup_closed` if not. */
export async function admitSignup(
  c: Context<AppEnv>,
  username: string,
  invite: string | undefined,
): Promise<Admission> {
  const admins = configuredAdmins(c.env);
  if (admins.includes(username)) return { pending: false };
  if (!admins.length && (await noAccountYet(c.env.DB))) return { pending: false, bootstrap: true };
  const policy = signupPolicy(c.env, c.req.url);
  if (policy === "closed") throw new ApiError(403, "signup_closed", CLOSED);
  if (policy === "invite") {
    if (!invite) throw new ApiError(403, "signup_closed", INVITE_NEEDED);
    return { pending: false, invite };
  }
  return { pending: policy === "approval" };
}

export const usernameTaken = () =>
  new ApiError(409, "conflict", "That username is taken", { username: "already taken" });

/**
 * Makes the admitted account (`passwordHash` is NO_PASSWORD for one without a password) and, inside the
 * same guard, what else it starts with (`withAccount`: its first passkey). Anything refused after the
 * account's row was written takes the row back, so a refusal never leaves an account behind.
 */
export async function openAccount(
  c: Context<AppEnv>,
  account: { id: string; username: string; passwordHash: string },
  admission: Admission,
  withAccount?: (userId: string) => Promise<void>,
): Promise<User> {
  const { id, username } = account;
  const claimed = admission.invite ? await claimInvite(c.env.DB, admission.invite, id) : true;
  if (!claimed) throw new ApiError(403, "signup_closed", INVITE_USED);
  const status = admission.pending ? "pending" : "active";
  const created = await createAccount(c.env.DB, { ...account, status }, configuredAdmins(c.env));
  if (!created) {
    if (admission.invite) await releaseInvite(c.env.DB, admission.invite, id);
    throw usernameTaken();
  }
  const takeBack = async () => {
    await c.env.DB.prepare("DELETE FROM users WHERE id = ?").bind(id).run();
    if (admission.invite) await releaseInvite(c.env.DB, admission.invite, id);
  };
  // The first account of an empty installation gets in whatever SIGNUP says, as its admin; two at once
  // both saw it empty, and the one that did not become the admin is held to the policy after all.
  if (admission.bootstrap && created.role !== "admin" && signupPolicy(c.env, c.req.url) !== "open") {
    await takeBack();
    throw new ApiError(403, "signup_closed", CLOSED);
  }
  if (withAccount) {
    try {
      await withAccount(id);
    } catch (error) {
      await takeBack();
      throw error;
    }
  }
  return publicUser({ id, username, status }, created.role === "admin");
}
