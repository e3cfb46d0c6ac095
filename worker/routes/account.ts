// Settings → Account (docs/protocol.md "Account"): the ways in, the sessions, the password.
import { Hono } from "hono";
import type { AppEnv } from "../middleware/identity";

export const accountRoutes = new Hono<AppEnv>();
