// Taking everything along and bringing it back (docs/protocol.md "Export and import").
import { Hono } from "hono";
import type { AppEnv } from "../middleware/identity";

export const accountDataRoutes = new Hono<AppEnv>();
