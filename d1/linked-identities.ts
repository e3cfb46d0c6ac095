// Identity providers' accounts linked to users (linked_identities): a provider's subject signs in one
// user, and a user has at most one account per provider. Linking and unlinking are each one statement
// whose conditions hold under concurrency: a link never takes a subject another user has, and an unlink
// never removes the account's last way in (anotherWayIn).
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "./client";
import { nowIso } from "./client";
import { linkedIdentities, users } from "./schema";
import { anotherWayIn } from "./sign-in-ways";

export interface IdentityRef {
  provider: string;
  subject: string;
}

/** The account a provider's subject signs in, stamping the link's last use. */
export async function accountForIdentity(db: Db, { provider, subject }: IdentityRef) {
  const [row] = await db
    .update(linkedIdentities)
    .set({ lastUsedAt: nowIso() })
    .where(and(eq(linkedIdentities.provider, provider), eq(linkedIdentities.subject, subject)))
    .returning({ userId: linkedIdentities.userId });
  if (!row) return undefined;
  const [account] = await db
    .select({ id: users.id, username: users.username, role: users.role, status: users.status })
    .from(users)
    .where(eq(users.id, row.userId));
  return account;
}

export type LinkOutcome = "linked" | "already_yours" | "linked_elsewhere" | "provider_taken";

/**
 * Links `subject` at `provider` to `userId`, in one statement: not when the subject is another user's,
 * nor when the user already has another account of that provider.
 */
export async function linkIdentity(
  db: Db,
  ref: IdentityRef & { userId: string; label: string },
  lastUsed = false,
): Promise<LinkOutcome> {
  const inserted = await db.run(sql`
    INSERT INTO ${linkedIdentities} (provider, subject, user_id, label, last_used_at)
    SELECT ${ref.provider}, ${ref.subject}, ${ref.userId}, ${ref.label}, ${lastUsed ? nowIso() : null}
    WHERE NOT EXISTS (SELECT 1 FROM ${linkedIdentities}
      WHERE ${linkedIdentities.userId} = ${ref.userId} AND ${linkedIdentities.provider} = ${ref.provider})
    ON CONFLICT (provider, subject) DO NOTHING`);
  if (inserted.meta.changes) return "linked";
  const [owner] = await db
    .select({ userId: linkedIdentities.userId })
    .from(linkedIdentities)
    .where(and(eq(linkedIdentities.provider, ref.provider), eq(linkedIdentities.subject, ref.subject)));
  if (owner) return owner.userId === ref.userId ? "already_yours" : "linked_elsewhere";
  return "provider_taken";
}

/** A user's links, oldest first. */
export function identitiesOf(db: Db, userId: string) {
  return db
    .select({
      provider: linkedIdentities.provider,
      label: linkedIdentities.label,
      createdAt: linkedIdentities.createdAt,
      lastUsedAt: linkedIdentities.lastUsedAt,
    })
    .from(linkedIdentities)
    .where(eq(linkedIdentities.userId, userId))
    .orderBy(linkedIdentities.createdAt);
}

/** Unlinks the user's account at `provider`, unless it is their last way in. */
export async function unlinkIdentity(db: Db, userId: string, provider: string): Promise<"done" | "last" | "none"> {
  const mine = and(eq(linkedIdentities.userId, userId), eq(linkedIdentities.provider, provider));
  const removed = await db
    .delete(linkedIdentities)
    .where(and(mine, anotherWayIn(userId)))
    .returning({ subject: linkedIdentities.subject });
  if (removed.length) return "done";
  const [left] = await db.select({ subject: linkedIdentities.subject }).from(linkedIdentities).where(mine);
  return left ? "last" : "none";
}
