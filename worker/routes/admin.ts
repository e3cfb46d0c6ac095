// The operator's routes (docs/protocol.md "Administration"), mounted behind requireAdmin: anyone but an
// admin gets the 404 of an unknown route. Writes take a signed-in session (a leaked API token must not
// administer), and every write is recorded in the audit log with who did what to whom.
import { type Context, Hono } from "hono";
import { pricesConfigured } from "../../agent/llm/config";
import { defaultLimits, effectiveLimits, limitsFor } from "../../core/quota-rules";
import { type Account, accountById, type Change, setRole, setStatus } from "../../d1/accounts";
import { listAccountsEverywhere, topUsersEverywhere, usageEverywhere } from "../../d1/across-shards";
import { audit, auditLog } from "../../d1/admin-audit";
import { database } from "../../d1/client";
import { addAdmin, placementOfUser, removeAdminUnlessLast } from "../../d1/directory";
import { createInvite, listInvites, revokeInvite } from "../../d1/invites";
import { createReset } from "../../d1/password-resets";
import { writeOverride } from "../../d1/quotas";
import { replica, shardDb } from "../../d1/shards";
import { sinceDay } from "../../d1/usage";
import { tellUserChanged } from "../../durable-objects/user-changes";
import {
  type AccountStatus,
  type AdminUser,
  AdminUsersQuerySchema,
  AuditQuerySchema,
  CreateInviteSchema,
  QuotaOverrideSchema,
  SetRoleSchema,
  UsageQuerySchema,
} from "../../protocol";
import { randomToken, sha256Hex } from "../auth/crypto";
import { configuredAdmins } from "../auth/signup-policy";
import { ApiError, notFound } from "../errors";
import { type AppEnv, currentUser, directory } from "../middleware/identity";
import { readJson, readQuery } from "../validate";

export const adminRoutes = new Hono<AppEnv>();

adminRoutes.get("/users", async (c) => {
  const query = readQuery(c, AdminUsersQuerySchema);
  // Every shard at once, merged (d1/across-shards.ts).
  const { rows, total } = await listAccountsEverywhere(c.env, query);
  const defaults = defaultLimits(c.env);
  const admins = configuredAdmins(c.env);
  const users: AdminUser[] = rows.map((row) => ({
    id: row.id,
    username: row.username,
    role: row.role,
    status: row.status,
    created_at: row.created_at,
    last_active_at: row.last_active_at,
    month: { tokens: row.month_tokens, cost: row.month_cost },
    quota: effectiveLimits(defaults, row.quota_override),
    quota_override: row.quota_override,
    configured_admin: admins.includes(row.username),
  }));
  return c.json({ users, total });
});

/** The account acted on, found through the directory, with its shard's database: 404 when there is none. */
async function target(c: Context<AppEnv>): Promise<Account & { shard: number; d1: D1Database }> {
  const placement = await placementOfUser(directory(c), c.req.param("id") ?? "");
  const d1 = placement && shardDb(c.env, placement.shard);
  const account = d1 && (await accountById(d1, placement.userId));
  if (!account) throw notFound("No such user");
  return { ...account, shard: placement.shard, d1 };
}

const placementOf = (account: { id: string; shard: number }) => ({ userId: account.id, shard: account.shard });

/** A refused change in words; "unchanged" is not an error (the request is idempotent). */
function refuseChange(change: Change, action: string): void {
  if (change === "not_found") throw notFound("No such user");
  if (change === "last_admin")
    throw new ApiError(409, "conflict", `Cannot ${action} the last admin: promote another account first`);
  if (change === "changed") throw new ApiError(409, "conflict", "This account changed meanwhile: reload and try again");
}

/**
 * A change that takes an active admin off the admins (a demotion, a disabling), under the directory's rule:
 * refused when no other admin would be left; the admin's place given back when the shard's update did not
 * happen because the account changed meanwhile (so the directory and the shard keep saying the same).
 */
async function leavingAdmins(
  c: Context<AppEnv>,
  account: { id: string; shard: number },
  change: () => Promise<Change>,
): Promise<Change> {
  if (!(await removeAdminUnlessLast(directory(c), account.id))) return "last_admin";
  const done = await change();
  if (done === "changed") await addAdmin(directory(c), placementOf(account));
  return done;
}

/** A status change (approve, disable, enable), audited; a disabled user is signed out everywhere at once. */
function statusRoute(action: "approve" | "disable" | "enable", status: AccountStatus, from: AccountStatus[]) {
  return async (c: Context<AppEnv>) => {
    const account = await target(c);
    if (account.status === status) return c.json({ status });
    if (!from.includes(account.status))
      throw new ApiError(409, "conflict", `Cannot ${action} an account that is ${account.status}`);
    if (action === "disable" && account.id === currentUser(c).id)
      throw new ApiError(409, "conflict", "You cannot disable your own account");
    // The last active admin stays: the directory's rule, checked in its own statement (d1/directory.ts).
    const admin = account.role === "admin";
    const set = () => setStatus(account.d1, account.id, status, from);
    const change = admin && status !== "active" ? await leavingAdmins(c, account, set) : await set();
    refuseChange(change, action);
    if (change === "unchanged") return c.json({ status });
    if (admin && status === "active") await addAdmin(directory(c), placementOf(account));
    await audit(directory(c), { actor: currentUser(c).username, action, target: account.username });
    // Sessions and tokens were deleted with the status: every open socket closes and the turns it
    // started stop before this answers; turns started otherwise stop at their next model call.
    if (status === "disabled") await tellUserChanged(c.env, placementOf(account), "credentials");
    else await tellUserChanged(c.env, placementOf(account), "settings");
    return c.json({ status });
  };
}

adminRoutes.post("/users/:id/approve", statusRoute("approve", "active", ["pending"]));
adminRoutes.post("/users/:id/disable", statusRoute("disable", "disabled", ["active", "pending"]));
adminRoutes.post("/users/:id/enable", statusRoute("enable", "active", ["disabled"]));

adminRoutes.put("/users/:id/role", async (c) => {
  const { role } = await readJson(c, SetRoleSchema);
  const account = await target(c);
  if (role === "user" && configuredAdmins(c.env).includes(account.username))
    throw new ApiError(409, "conflict", "This admin is listed in ADMINS: remove them there to demote them");
  const set = () => setRole(account.d1, account.id, role);
  const change = role === "user" && account.role === "admin" ? await leavingAdmins(c, account, set) : await set();
  refuseChange(change, "demote");
  if (role === "admin" && account.status === "active") await addAdmin(directory(c), placementOf(account));
  if (change === "done")
    await audit(directory(c), {
      actor: currentUser(c).username,
      action: role === "admin" ? "promote" : "demote",
      target: account.username,
    });
  return c.json({ role });
});

adminRoutes.put("/users/:id/quota", async (c) => {
  const override = await readJson(c, QuotaOverrideSchema);
  const account = await target(c);
  await writeOverride(account.d1, account.id, override);
  await audit(directory(c), {
    actor: currentUser(c).username,
    action: "set_quota",
    target: account.username,
    detail: override,
  });
  // The user's live conversations read the new limits at their next turn.
  await tellUserChanged(c.env, placementOf(account), "settings");
  return c.json({ quota: limitsFor(c.env, override), quota_override: override });
});

/** A single-use link that sets a new password for someone who forgot theirs; shown to the admin once. */
adminRoutes.post("/users/:id/reset-link", async (c) => {
  const account = await target(c);
  // The link names the account's shard, where it is kept (d1/shards.ts).
  const token = randomToken("or", account.shard);
  const me = currentUser(c);
  const expiresAt = await createReset(database(account.d1), {
    tokenHash: await sha256Hex(token),
    userId: account.id,
    createdBy: me.id,
  });
  await audit(directory(c), { actor: me.username, action: "reset_link", target: account.username, detail: {} });
  return c.json({ url: `/reset?token=${encodeURIComponent(token)}`, expires_at: expiresAt }, 201);
});

adminRoutes.get("/invites", async (c) => c.json({ invites: await listInvites(replica(directory(c))) }));

adminRoutes.post("/invites", async (c) => {
  const { expires_in_hours, note } = await readJson(c, CreateInviteSchema);
  const token = randomToken("oi");
  const me = currentUser(c);
  const invite = await createInvite(directory(c), {
    id: crypto.randomUUID(),
    tokenHash: await sha256Hex(token),
    note,
    createdBy: me.id,
    expiresAt: new Date(Date.now() + expires_in_hours * 3_600_000).toISOString(),
  });
  await audit(directory(c), { actor: me.username, action: "create_invite", detail: { id: invite.id, note } });
  const url = `/signup?invite=${encodeURIComponent(token)}`;
  return c.json({ ...invite, created_by: me.username, token, url }, 201);
});

adminRoutes.delete("/invites/:id", async (c) => {
  const revoked = await revokeInvite(directory(c), c.req.param("id"));
  if (!revoked) throw notFound("No unused invite with that id");
  await audit(directory(c), {
    actor: currentUser(c).username,
    action: "revoke_invite",
    detail: { id: revoked.id, note: revoked.note },
  });
  return c.body(null, 204);
});

adminRoutes.get("/usage", async (c) => {
  const { days } = readQuery(c, UsageQuerySchema);
  // Every shard at once, summed (d1/across-shards.ts).
  const [rows, top] = await Promise.all([usageEverywhere(c.env, sinceDay(days)), topUsersEverywhere(c.env)]);
  return c.json({ priced: pricesConfigured(c.env), rows, top_users: top });
});

adminRoutes.get("/audit", async (c) => {
  const { limit, before } = readQuery(c, AuditQuerySchema);
  return c.json({ entries: await auditLog(replica(directory(c)), limit, before) });
});
