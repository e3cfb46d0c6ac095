// Deleting an account and everything of it (docs/protocol.md "Deleting an account").
import { Hono } from "hono";
import type { AppEnv } from "../middleware/identity";

export const accountDeletionRoutes = new Hono<AppEnv>();
