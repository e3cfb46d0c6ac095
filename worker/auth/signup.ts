// Making an account, whatever it signs in with (a password, a passkey): the one place the sign-up
// policy (signup-policy.ts), invite links, the per-address limit and the first account's admin rule are
// applied, so every way to sign up is held to the same rules.
import type { Context } from "hono";
import { createAccount } from "../../d1/accounts";
import { database } from "../../d1/client";
import { claimUsername, noAccountYet, releaseUser } from "../../d1/directory";
import { claimInvite, releaseInvite } from "../../d1/invites";
import { hit } from "../../d1/rate-limits";
import { pickShard } from "../../d1/shards";
import type { User } from "../../protocol";
import { ApiError } from "../errors";
import { type AppEnv, directory, enterShard } from "../middleware/identity";
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

/**
 * The per-address limit on sign-ups, counted before anything else is checked (signup-policy.ts). In the
 * directory: a sign-up writes there anyway (its username), and sign-ups are few beside requests.
 */
export async function countSignup(c: Context<AppEnv>): Promise<void> {
  const max = signupsPerHour(c.env);
  if (!max) return;
  const address = clientAddress(c.req.header("CF-Connecting-IP") ?? "local");
  const decision = await hit(database(directory(c)), `sign-up:${address}`, { max, windowSeconds: 3600 });
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
  if (!admins.length && (await noAccountYet(directory(c)))) return { pending: false, bootstrap: true };
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
  withAccount?: (userId: string) => Promise<unknown>,
): Promise<User> {
  const { id, username } = account;
  const dir = directory(c);
  const claimed = admission.invite ? await claimInvite(dir, admission.invite, id) : true;
  if (!claimed) throw new ApiError(403, "signup_closed", INVITE_USED);
  const status = admission.pending ? "pending" : "active";
  // The username is claimed in the directory first (unique across shards, and where the first account
  // becomes the admin); the account's rows then go to a shard with room (d1/shards.ts).
  const shard = pickShard(c.env);
  const admins = configuredAdmins(c.env);
  const created = await claimUsername(
    dir,
    { username, userId: id, shard },
    { firstIsAdmin: !admins.length, listedAdmin: admins.includes(username) },
  );
  if (!created) {
    if (admission.invite) await releaseInvite(dir, admission.invite, id);
    throw usernameTaken();
  }
  enterShard(c, shard);
  const takeBack = async () => {
    await c.var.shard.prepare("DELETE FROM users WHERE id = ?").bind(id).run();
    await releaseUser(dir, id);
    if (admission.invite) await releaseInvite(dir, admission.invite, id);
  };
  try {
    await createAccount(c.var.shard, { ...account, status, role: created.admin ? "admin" : "user" });
  } catch (error) {
    await takeBack();
    throw error;
  }
  // The first account of an empty installation gets in whatever SIGNUP says, as its admin; two at once
  // both saw it empty, and the one that did not become the admin is held to the policy after all.
  if (admission.bootstrap && !created.admin && signupPolicy(c.env, c.req.url) !== "open") {
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
  return publicUser({ id, username, status }, created.admin);
}
