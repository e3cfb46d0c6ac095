// Passkeys (docs/protocol.md "Passkeys"): signing in and up with one (`/api/auth/passkey/*`), and a
// signed-in user's list (`/api/account/passkeys`).
import { Hono } from "hono";
import type { AppEnv } from "../middleware/identity";

export const passkeyAuthRoutes = new Hono<AppEnv>();
export const passkeyAccountRoutes = new Hono<AppEnv>();
