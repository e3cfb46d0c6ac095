// Who may create an account, from the operator's variables (README "Running it for others"):
// - SIGNUP: open | invite (single-use links an admin makes) | approval (the account waits for an admin) |
//   closed. Unset: approval on a deployed Worker, so a fresh deployment never hands the operator's model
//   to whoever finds the URL; open on this machine (a request to 127.0.0.1, localhost or ::1: `npm start`,
//   `wrangler dev`, the benchmarks), where nobody else can reach it.
// - ADMINS: usernames that are admins whatever the database says. Such a username may always sign up
//   (the operator's way into a closed installation); without ADMINS, the installation's first account
//   may, and becomes its admin.
// - SIGNUP_PER_HOUR: sign-ups counted per client address (an IPv6 client by its /64) per hour, before
//   anything else is checked, by the atomic fixed-window limiter (d1/rate-limits.ts). Unset: 20; 0: none.
import { type SignupPolicy, SignupPolicySchema } from "../../protocol";

export function signupPolicy(env: Pick<Env, "SIGNUP">, url: string): SignupPolicy {
  const parsed = SignupPolicySchema.safeParse(env.SIGNUP?.trim().toLowerCase());
  if (parsed.success) return parsed.data;
  return LOOPBACK.has(new URL(url).hostname) ? "open" : "approval";
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

export function configuredAdmins(env: Pick<Env, "ADMINS">): string[] {
  return (env.ADMINS ?? "")
    .split(",")
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
}

/** An admin by the database's role, or by ADMINS (which the next request also writes to the database). */
export const isAdmin = (account: { role: string; username: string }, env: Pick<Env, "ADMINS">): boolean =>
  account.role === "admin" || configuredAdmins(env).includes(account.username);

export const DEFAULT_SIGNUPS_PER_HOUR = 20;

export function signupsPerHour(env: Pick<Env, "SIGNUP_PER_HOUR">): number {
  const raw = env.SIGNUP_PER_HOUR?.trim();
  const value = raw ? Number(raw) : Number.NaN;
  return Number.isInteger(value) && value >= 0 ? value : DEFAULT_SIGNUPS_PER_HOUR;
}
