// The account a provider's identity signs in: the linked one, or on a first sign-in a new one made under
// the operator's sign-up policy (signup-admission.ts), with no password (d1/sign-in-ways.ts NO_PASSWORD)
// and a username made from what the provider calls the person, free and never one of ADMINS.
import type { Context } from "hono";
import { accountForIdentity, linkIdentity } from "../../d1/linked-identities";
import { NO_PASSWORD } from "../../d1/sign-in-ways";
import type { User } from "../../protocol";
import { ApiError } from "../errors";
import type { AppEnv } from "../middleware/identity";
import type { ProviderIdentity } from "./oidc-client";
import { usernameCandidates } from "./oidc-username";
import { publicUser } from "./sessions";
import { admitSignup, countSignup, createAdmittedAccount } from "./signup-admission";
import { configuredAdmins, isAdmin } from "./signup-policy";

/** Why a provider's identity signs nobody in, as the sign-in page's `?error=` codes name it. */
export class SignInRefused extends Error {
  constructor(readonly code: "signup_closed" | "signup_invite" | "rate_limited" | "account_disabled") {
    super(code);
    this.name = "SignInRefused";
  }
}

/** The account the identity signs in (linked), or undefined when none is linked yet. */
export async function linkedAccount(c: Context<AppEnv>, provider: string, identity: ProviderIdentity) {
  const account = await accountForIdentity(c.var.db, { provider, subject: identity.subject });
  if (!account) return undefined;
  if (account.status === "disabled") throw new SignInRefused("account_disabled");
  return publicUser(account, isAdmin(account, c.env));
}

/**
 * A first sign-in: a new account linked to the identity, if SIGNUP lets one in. Should another callback
 * for the same identity have linked an account meanwhile, the new one goes and that one signs in.
 */
export async function signUpWithIdentity(
  c: Context<AppEnv>,
  provider: string,
  identity: ProviderIdentity,
): Promise<User> {
  try {
    await countSignup(c);
  } catch (error) {
    if (error instanceof ApiError && error.code === "rate_limited") throw new SignInRefused("rate_limited");
    throw error;
  }
  const admission = await admitSignup(c, { viaProvider: true });
  if (!admission.admitted) throw new SignInRefused(admission.refusal === "closed" ? "signup_closed" : "signup_invite");
  const admins = configuredAdmins(c.env);
  for (const username of usernameCandidates(identity.usernameHint)) {
    if (admins.includes(username)) continue;
    const user = await createOrRefuse(c, admission, username);
    if (!user) continue;
    const ref = { provider, subject: identity.subject, userId: user.id, label: identity.label };
    if ((await linkIdentity(c.var.db, ref, true)) === "linked") return user;
    await c.env.DB.prepare("DELETE FROM users WHERE id = ?").bind(user.id).run();
    const winner = await linkedAccount(c, provider, identity);
    if (winner) return winner;
    throw new Error("a new account could not be linked to its identity");
  }
  throw new Error("no free username for a new account");
}

async function createOrRefuse(
  c: Context<AppEnv>,
  admission: Parameters<typeof createAdmittedAccount>[1],
  username: string,
): Promise<User | undefined> {
  try {
    return await createAdmittedAccount(c, admission, { username, passwordHash: NO_PASSWORD });
  } catch (error) {
    if (error instanceof ApiError && error.code === "signup_closed") throw new SignInRefused("signup_closed");
    throw error;
  }
}
