// The operator's surface (docs/protocol.md "Administration"): who may sign up, accounts, invites, quotas,
// usage across users and the audit log. Every `/api/admin/*` route answers 404 to anyone but an admin.
import { z } from "zod";
import { QuotaLimitsSchema, QuotaOverrideSchema, UsageRowSchema } from "./quota";

/** `SIGNUP`: who may create an account (`GET /api/health` says which). */
export const SIGNUP_POLICIES = ["open", "invite", "approval", "closed"] as const;
export const SignupPolicySchema = z.enum(SIGNUP_POLICIES);
export type SignupPolicy = z.infer<typeof SignupPolicySchema>;

/** `pending`: signed up under `approval`, can do nothing until approved; `disabled`: by an admin. */
export const AccountStatusSchema = z.enum(["active", "pending", "disabled"]);
export type AccountStatus = z.infer<typeof AccountStatusSchema>;
export const RoleSchema = z.enum(["admin", "user"]);
export type Role = z.infer<typeof RoleSchema>;

export const AdminUserSchema = z.object({
  id: z.string(),
  username: z.string(),
  role: RoleSchema,
  status: AccountStatusSchema,
  created_at: z.string(),
  /** The last request, right to within an hour (written at most hourly); null before the first. */
  last_active_at: z.string().nullable(),
  /** This UTC month's use of the operator's models. */
  month: z.object({ tokens: z.number(), cost: z.number() }),
  /** The limits that hold for this user (their override over the defaults). */
  quota: QuotaLimitsSchema,
  /** What an admin set for this user (absent key: the default; null: no limit). */
  quota_override: QuotaOverrideSchema,
  /** Listed in the `ADMINS` variable: an admin that only the operator's configuration can demote. */
  configured_admin: z.boolean(),
});
export type AdminUser = z.infer<typeof AdminUserSchema>;

export const AdminUsersQuerySchema = z.object({
  /** Part of a username. */
  q: z.string().max(64).optional(),
  status: AccountStatusSchema.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});
export const AdminUsersSchema = z.object({ users: z.array(AdminUserSchema), total: z.number() });
export type AdminUsers = z.infer<typeof AdminUsersSchema>;

export const SetRoleSchema = z.strictObject({ role: RoleSchema });

export const CreateInviteSchema = z.strictObject({
  /** How long the link works: 1 hour to 30 days, 7 days by default. */
  expires_in_hours: z.number().int("whole hours").min(1, "1 to 720 hours").max(720, "1 to 720 hours").default(168),
  /** Who it is for, as the admin remembers it. */
  note: z.string().trim().max(100, "at most 100 characters").default(""),
});
export const InviteSchema = z.object({
  id: z.string(),
  note: z.string(),
  created_at: z.string(),
  expires_at: z.string(),
  created_by: z.string(),
  /** Set once the link has made an account (a link makes one). */
  used_at: z.string().nullable(),
  used_by: z.string().nullable(),
});
export type Invite = z.infer<typeof InviteSchema>;
/** `POST /api/admin/invites`: the only time the link is shown (stored hashed). */
export const CreatedInviteSchema = InviteSchema.extend({
  token: z.string(),
  /** `/signup?invite=<token>` on this origin. */
  url: z.string(),
});
export type CreatedInvite = z.infer<typeof CreatedInviteSchema>;
export const InvitesSchema = z.object({ invites: z.array(InviteSchema) });

export const AUDIT_ACTIONS = [
  "approve",
  "disable",
  "enable",
  "promote",
  "demote",
  "set_quota",
  "create_invite",
  "revoke_invite",
  /** A single-use link that sets a new password (a forgotten one). */
  "reset_link",
] as const;
export const AuditEntrySchema = z.object({
  id: z.number(),
  at: z.string(),
  /** The admin's username (`ADMINS` for a promotion the configuration made). */
  actor: z.string(),
  action: z.enum(AUDIT_ACTIONS),
  /** The account acted on (its username), if any. */
  target: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;
export const AuditQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  /** Entries older than this id (the next page). */
  before: z.coerce.number().int().min(1).optional(),
});
export const AuditLogSchema = z.object({ entries: z.array(AuditEntrySchema) });

/** `GET /api/admin/usage`: every user's use of the operator's models by day and model, and the top users. */
export const AdminUsageSchema = z.object({
  priced: z.boolean(),
  rows: z.array(UsageRowSchema),
  /** This UTC month, most tokens first (at most 10). */
  top_users: z.array(z.object({ id: z.string(), username: z.string(), tokens: z.number(), cost: z.number() })),
});
export type AdminUsage = z.infer<typeof AdminUsageSchema>;
