// Passkeys (docs/protocol.md "Passkeys"): signing in and up with one (`/api/auth/passkey/*`), and a
// signed-in user's list (`/api/account/passkeys`: add, rename, remove, and a challenge to confirm with).
// Each ceremony is options then answer (worker/auth/passkey-ceremony.ts); a refused answer says why in
// words, and its challenge is used up either way.
import { eq } from "drizzle-orm";
import { type Context, Hono } from "hono";
import { getCookie } from "hono/cookie";
import { z } from "zod";
import { describeUserAgent } from "../../core/user-agent";
import { claimPasskey, placementOfUsername, releasePasskey } from "../../d1/directory";
import {
  addPasskey,
  credentialsOf,
  listPasskeys,
  type NewPasskey,
  removePasskey,
  renamePasskey,
} from "../../d1/passkeys";
import { users } from "../../d1/schema";
import { NO_PASSWORD } from "../../d1/sign-in-ways";
import type { Passkey } from "../../protocol";
import {
  NoOptionsSchema,
  PasskeyRegisterSchema,
  PasskeySigninSchema,
  PasskeySignupOptionsSchema,
  RenamePasskeySchema,
} from "../../protocol";
import { DEVICE_COOKIE, trustedDevice } from "../auth/devices";
import {
  beginAssertion,
  beginRegistration,
  type CeremonyFailure,
  finishAssertion,
  finishRegistration,
} from "../auth/passkey-ceremony";
import { publicUser } from "../auth/sessions";
import { startSession } from "../auth/sign-in";
import { admitSignup, countSignup, hashInvite, openAccount, usernameTaken } from "../auth/signup";
import { isAdmin } from "../auth/signup-policy";
import { ApiError, accountDisabled, notFound } from "../errors";
import { type AppEnv, currentUser, directory } from "../middleware/identity";
import { readJson } from "../validate";
import { refuseForeignOrigin } from "./auth";

export const passkeyAuthRoutes = new Hono<AppEnv>();
export const passkeyAccountRoutes = new Hono<AppEnv>();

const SIGNIN_REFUSED: Record<CeremonyFailure, string> = {
  expired: "This passkey request has expired or was already used: try again",
  unknown_credential: "This passkey is not registered here",
  not_verified: "This passkey could not be verified: try again",
};

const REGISTER_REFUSED: Record<CeremonyFailure, string> = {
  ...SIGNIN_REFUSED,
  not_verified: "The new passkey could not be verified: try again",
};

const ALREADY_REGISTERED = "This passkey is already registered here";

/** What a sign-up's challenge keeps until its answer: the account to make (the invite by its hash). */
const SignupChallengeSchema = z.object({ user_id: z.string(), username: z.string(), invite: z.string().optional() });

passkeyAuthRoutes.post("/signin-options", async (c) => {
  refuseForeignOrigin(c);
  await readJson(c, NoOptionsSchema);
  // No allowCredentials: the browser offers this site's discoverable passkeys, no username asked.
  return c.json(await beginAssertion(c, "passkey-signin", { owner: null }));
});

passkeyAuthRoutes.post("/signin", async (c) => {
  refuseForeignOrigin(c);
  const { challenge_id, response } = await readJson(c, PasskeySigninSchema);
  const result = await finishAssertion(c, "passkey-signin", { challengeId: challenge_id, response, owner: null });
  if (!result.ok) throw new ApiError(401, "unauthorized", SIGNIN_REFUSED[result.reason]);
  const [row] = await c.var.db.select().from(users).where(eq(users.id, result.passkey.userId));
  if (!row) throw new ApiError(401, "unauthorized", SIGNIN_REFUSED.unknown_credential);
  if (row.status === "disabled") throw accountDisabled();
  // A pending account gets its session, as with a password: it can read that it waits, and nothing else.
  const user = publicUser(row, isAdmin(row, c.env));
  const device = await trustedDevice(c.var.db, getCookie(c, DEVICE_COOKIE), row.id);
  await startSession(c, user, { method: "passkey", knownDevice: device !== undefined });
  return c.json({ user });
});

passkeyAuthRoutes.post("/signup-options", async (c) => {
  refuseForeignOrigin(c);
  const { username, invite } = await readJson(c, PasskeySignupOptionsSchema);
  // The same rules as a password's sign-up, before the ceremony (and again when it ends).
  await countSignup(c);
  const inviteHash = await hashInvite(invite);
  await admitSignup(c, username, inviteHash);
  if (await placementOfUsername(directory(c), username)) throw usernameTaken();
  const userId = crypto.randomUUID();
  const extra = { user_id: userId, username, ...(inviteHash ? { invite: inviteHash } : {}) };
  const user = { id: userId, name: username };
  return c.json(await beginRegistration(c, "passkey-signup", { owner: null, user, extra }));
});

passkeyAuthRoutes.post("/signup", async (c) => {
  refuseForeignOrigin(c);
  const { challenge_id, response, name } = await readJson(c, PasskeyRegisterSchema);
  const result = await finishRegistration(c, "passkey-signup", { challengeId: challenge_id, response, owner: null });
  if (!result.ok) throw new ApiError(400, "invalid_input", REGISTER_REFUSED[result.reason]);
  const { user_id: id, username, invite } = SignupChallengeSchema.parse(result.data);
  const admission = await admitSignup(c, username, invite);
  const passkey = newPasskey(c.req.header("User-Agent"), result.passkey, name);
  const user = await openAccount(c, { id, username, passwordHash: NO_PASSWORD }, admission, (userId) =>
    storePasskey(c, { ...passkey, userId }),
  );
  await startSession(c, user, { method: "signup" });
  return c.json({ user }, 201);
});

/**
 * Keeps a verified passkey: its credential id claimed in the directory first (unique across every shard,
 * and what a sign-in finds its account by), then the key in the user's shard. 409 if it is anyone's already.
 */
async function storePasskey(c: Context<AppEnv>, passkey: NewPasskey): Promise<Passkey> {
  const owner = { userId: passkey.userId, shard: c.var.shardIndex };
  if (!(await claimPasskey(directory(c), passkey.id, owner))) throw new ApiError(409, "conflict", ALREADY_REGISTERED);
  const stored = await addPasskey(c.var.db, passkey).catch(async (error: unknown) => {
    await releasePasskey(directory(c), passkey.id, passkey.userId);
    throw error;
  });
  if (!stored) {
    await releasePasskey(directory(c), passkey.id, passkey.userId);
    throw new ApiError(409, "conflict", ALREADY_REGISTERED);
  }
  return stored;
}

/** A verified credential as stored: named by the user, else by the browser it was made in. */
const newPasskey = (userAgent: string | undefined, passkey: Omit<NewPasskey, "userId" | "name">, name?: string) => ({
  ...passkey,
  name: name ?? describeUserAgent(userAgent, "Passkey"),
});

passkeyAccountRoutes.get("/", async (c) => c.json(await listPasskeys(c.var.db, currentUser(c).id)));

passkeyAccountRoutes.post("/options", async (c) => {
  await readJson(c, NoOptionsSchema);
  const { id, username } = currentUser(c);
  const exclude = await credentialsOf(c.var.db, id);
  const options = await beginRegistration(c, "passkey-register", { owner: id, user: { id, name: username }, exclude });
  return c.json(options);
});

passkeyAccountRoutes.post("/", async (c) => {
  const { challenge_id, response, name } = await readJson(c, PasskeyRegisterSchema);
  const userId = currentUser(c).id;
  const result = await finishRegistration(c, "passkey-register", {
    challengeId: challenge_id,
    response,
    owner: userId,
  });
  if (!result.ok) throw new ApiError(400, "invalid_input", REGISTER_REFUSED[result.reason]);
  const stored = await storePasskey(c, { ...newPasskey(c.req.header("User-Agent"), result.passkey, name), userId });
  return c.json(stored, 201);
});

/** A challenge to confirm who the user is with one of their passkeys (protocol.md "Account": `confirm`). */
passkeyAccountRoutes.post("/confirm-options", async (c) => {
  await readJson(c, NoOptionsSchema);
  const userId = currentUser(c).id;
  const allow = await credentialsOf(c.var.db, userId);
  if (!allow.length) throw notFound("This account has no passkey");
  return c.json(await beginAssertion(c, "passkey-confirm", { owner: userId, allow }));
});

passkeyAccountRoutes.patch("/:id", async (c) => {
  const { name } = await readJson(c, RenamePasskeySchema);
  const renamed = await renamePasskey(c.var.db, currentUser(c).id, c.req.param("id"), name);
  if (!renamed) throw notFound("No such passkey");
  return c.json(renamed);
});

passkeyAccountRoutes.delete("/:id", async (c) => {
  const outcome = await removePasskey(c.var.db, currentUser(c).id, c.req.param("id"));
  if (outcome === "not_found") throw notFound("No such passkey");
  if (outcome === "removed") await releasePasskey(directory(c), c.req.param("id"), currentUser(c).id);
  if (outcome === "last")
    throw new ApiError(
      409,
      "last_sign_in_method",
      "This passkey is the only way into your account: add another way in (a passkey or a password) before removing it",
    );
  return c.body(null, 204);
});
