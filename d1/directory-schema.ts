// The directory's schema (d1/shards.ts): the few rows that must be unique across every user, each saying
// whose it is and in which shard that user's rows are; and what belongs to the installation, not a user.
// Its migrations are in migrations/directory/ (`npm run db:generate`).
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

export { adminAudit, invites, rateLimits } from "./schema";

const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;

/** Every account: its username (unique here, so across shards), id and shard. */
export const directoryUsers = sqliteTable(
  "directory_users",
  {
    username: text("username").primaryKey(),
    userId: text("user_id").notNull().unique(),
    shard: integer("shard").notNull(),
    createdAt: text("created_at").notNull().default(now),
  },
  (t) => [index("directory_users_shard").on(t.shard)],
);

/** A passkey's credential id → its account: a passkey sign-in names no user (discoverable credentials). */
export const directoryPasskeys = sqliteTable("directory_passkeys", {
  credentialId: text("credential_id").primaryKey(),
  userId: text("user_id").notNull(),
  shard: integer("shard").notNull(),
});

/** An identity provider's subject → its account: one subject signs in one account across every shard. */
export const directoryIdentities = sqliteTable(
  "directory_identities",
  {
    provider: text("provider").notNull(),
    subject: text("subject").notNull(),
    userId: text("user_id").notNull(),
    shard: integer("shard").notNull(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.subject] }), index("directory_identities_user").on(t.userId)],
);

/**
 * A browser's push endpoint → whose it is: one browser notifies one account, whichever shard it is in (a
 * shared browser's endpoint saved by another user moves to them, keeping its subscription id).
 */
export const directoryPushEndpoints = sqliteTable("directory_push_endpoints", {
  endpoint: text("endpoint").primaryKey(),
  userId: text("user_id").notNull(),
  shard: integer("shard").notNull(),
  subscriptionId: text("subscription_id").notNull(),
});

/** The active admins: the "never no admin" rule spans shards, so it is kept here (d1/directory.ts). */
export const directoryAdmins = sqliteTable("directory_admins", {
  userId: text("user_id").primaryKey(),
  shard: integer("shard").notNull(),
});

/** A sign-in flow that names no account yet (a passkey sign-in or sign-up, an identity provider's): as auth_challenges. */
export const authChallenges = sqliteTable(
  "auth_challenges",
  {
    id: text("id").primaryKey(),
    purpose: text("purpose").notNull(),
    /** Always null here: a signed-in user's flows are in their shard. */
    userId: text("user_id"),
    data: text("data", { mode: "json" }).notNull(),
    expiresAt: text("expires_at").notNull(),
  },
  (t) => [index("auth_challenges_expires").on(t.expiresAt)],
);
