// Signing in with an identity provider (docs/protocol.md "Identity providers"): `/api/auth/oidc/*`, and a
// signed-in user's linked providers (`/api/account/identities`).
import { Hono } from "hono";
import type { AppEnv } from "../middleware/identity";

export const oidcAuthRoutes = new Hono<AppEnv>();
export const identityAccountRoutes = new Hono<AppEnv>();
