// After a write to what a conversation's object copies of its user (settings, subscribers, providers
// and models, MCP servers, approval rules, a conversation's model, API tokens), every live
// conversation of the user drops its copy before the write is answered (durable-objects/user-changes.ts):
// the next turn, in any tab, starts from what was just saved, and a revoked token's sockets are closed.
import type { MiddlewareHandler } from "hono";
import { tellUserChanged, type UserChange } from "../../durable-objects/user-changes";
import { type AppEnv, SAFE_METHODS } from "./identity";

export const changesUser =
  (change: UserChange): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    await next();
    const user = c.var.user;
    if (!user || SAFE_METHODS.has(c.req.method) || c.res.status >= 400) return;
    await tellUserChanged(c.env, { userId: user.id, shard: c.var.shardIndex }, change);
  };
