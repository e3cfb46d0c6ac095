// Deleting an account and everything of it (docs/protocol.md "Deleting an account"): the username typed
// again and the user's identity confirmed (a password or a passkey), then worker/account-deletion/
// erases it all. The answer clears the session cookie (the session is gone) and the device cookie.
import { Hono } from "hono";
import { deleteCookie } from "hono/cookie";
import { DeleteAccountSchema } from "../../protocol";
import { deleteAccount } from "../account-deletion/delete-account";
import { confirmIdentity } from "../auth/confirm";
import { DEVICE_COOKIE } from "../auth/devices";
import { SESSION_COOKIE } from "../auth/sessions";
import { ApiError, invalid, unauthorized } from "../errors";
import { type AppEnv, background, currentUser } from "../middleware/identity";
import { readJson } from "../validate";

export const accountDeletionRoutes = new Hono<AppEnv>();

export const NOT_YOUR_USERNAME = "type your username exactly as it is";

accountDeletionRoutes.delete("/", async (c) => {
  const { username, confirm } = await readJson(c, DeleteAccountSchema);
  const user = currentUser(c);
  const credential = c.var.credential;
  if (credential?.kind !== "session") throw unauthorized();
  // A slip is refused before the password is checked, so it costs no attempt.
  if (username !== user.username) throw invalid(`username: ${NOT_YOUR_USERNAME}`, { username: NOT_YOUR_USERNAME });
  await confirmIdentity(c, user.id, confirm);
  const deleting = deleteAccount(c.env, { ...user, shard: c.var.shardIndex }, credential.hash);
  // Carried on if the browser goes away before the answer; a failure is the answer's (then sent again).
  background(c, deleting);
  if (!(await deleting))
    throw new ApiError(409, "conflict", "This account cannot be deleted while it waits for approval or is disabled");
  deleteCookie(c, SESSION_COOKIE, { path: "/" });
  deleteCookie(c, DEVICE_COOKIE, { path: "/api/auth" });
  return c.body(null, 204);
});
