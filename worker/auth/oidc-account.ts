// The account a provider's identity signs in: the linked one, or on a first sign-in a new one made under
// the operator's sign-up policy (signup.ts), with no password (d1/sign-in-ways.ts NO_PASSWORD)
// and a username made from what the provider calls the person, free and never one of ADMINS.
import type { Context } from "hono";
import { claimIdentity, placementOfIdentity, releaseIdentity } from "../../d1/directory";
import { accountForIdentity, type IdentityRef, type LinkOutcome, linkIdentity } from "../../d1/linked-identities";
import { NO_PASSWORD } from "../../d1/sign-in-ways";
import type { User } from "../../protocol";
import { ApiError } from "../errors";
import { type AppEnv, directory, enterShard } from "../middleware/identity";
import type { ProviderIdentity } from "./oidc-client";
import { usernameCandidates } from "./oidc-username";
import { publicUser } from "./sessions";
import { admitSignup, countSignup, openAccount } from "./signup";
import { configuredAdmins, isAdmin, signupPolicy } from "./signup-policy";

/** Why a provider's identity signs nobody in, as the sign-in page's `?error=` codes name it. */
export class SignInRefused extends Error {
  constructor(readonly code: "signup_closed" | "signup_invite" | "rate_limited" | "account_disabled") {
    super(code);
    this.name = "SignInRefused";
  }
}

/** The account the identity signs in (linked), or undefined when none is linked yet. */
export async function linkedAccount(c: Context<AppEnv>, provider: string, identity: ProviderIdentity) {
  // The directory says whose the subject is and where that account's rows are.
  const placement = await placementOfIdentity(directory(c), provider, identity.subject);
  if (!placement) return undefined;
  enterShard(c, placement.shard);
  const account = await accountForIdentity(c.var.db, { provider, subject: identity.subject });
  if (!account) return undefined;
  if (account.status === "disabled") throw new SignInRefused("account_disabled");
  return publicUser(account, isAdmin(account, c.env));
}

/**
 * A first sign-in: a new account linked to the identity, if SIGNUP lets one in (signup.ts, as every
 * sign-up). Should another callback for the same identity have linked an account meanwhile, the new one
 * is taken back and that one signs in.
 */
export async function signUpWithIdentity(
  c: Context<AppEnv>,
  provider: string,
  identity: ProviderIdentity,
): Promise<User> {
  await refusedAs(c, () => countSignup(c));
  // Never a name in ADMINS (which would make the account an admin, and let it past a closed SIGNUP): the
  // provider's user chose it there.
  const admins = configuredAdmins(c.env);
  for (const username of usernameCandidates(identity.usernameHint)) {
    if (admins.includes(username)) continue;
    const admission = await refusedAs(c, () => admitSignup(c, username, undefined));
    const account = { id: crypto.randomUUID(), username, passwordHash: NO_PASSWORD };
    const link = async (userId: string) => {
      const ref = { provider, subject: identity.subject, userId, label: identity.label };
      if ((await linkEverywhere(c, ref, true)) !== "linked") throw new LinkedMeanwhile();
    };
    try {
      return await refusedAs(c, () => openAccount(c, account, admission, link));
    } catch (error) {
      if (error instanceof ApiError && error.code === "conflict") continue; // the username is taken
      if (!(error instanceof LinkedMeanwhile)) throw error;
      const winner = await linkedAccount(c, provider, identity);
      if (winner) return winner;
      throw new Error("a new account could not be linked to its identity");
    }
  }
  throw new Error("no free username for a new account");
}

class LinkedMeanwhile extends Error {}

/**
 * Links the subject to the user (in the user's shard, c.var.db): claimed in the directory first, where a
 * subject is unique across every shard, then linked in the shard; a link the shard refuses gives the
 * directory's claim back.
 */
export async function linkEverywhere(
  c: Context<AppEnv>,
  ref: IdentityRef & { userId: string; label: string },
  lastUsed = false,
): Promise<LinkOutcome> {
  const owner = await claimIdentity(directory(c), ref.provider, ref.subject, {
    userId: ref.userId,
    shard: c.var.shardIndex,
  });
  if (owner !== ref.userId) return "linked_elsewhere";
  const outcome = await linkIdentity(c.var.db, ref, lastUsed);
  if (outcome === "provider_taken") await releaseIdentity(directory(c), ref.provider, ref.userId, ref.subject);
  return outcome;
}

/** The sign-up rules' refusals (signup.ts throws them for the form) as the sign-in page's codes. */
async function refusedAs<T>(c: Context<AppEnv>, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.code === "rate_limited") throw new SignInRefused("rate_limited");
    if (error.code !== "signup_closed") throw error;
    throw new SignInRefused(signupPolicy(c.env, c.req.url) === "invite" ? "signup_invite" : "signup_closed");
  }
}
