// The ways into an account: its password, its passkeys, its linked identity providers. Removing one is
// allowed only while another remains, and the check is part of the removing statement itself
// (`anotherWayIn`), so two removals at once can never leave an account nobody can sign in to.
import { eq, type SQL, sql } from "drizzle-orm";
import type { SignInWays } from "../protocol";
import type { Db } from "./client";
import { linkedIdentities, passkeys, users } from "./schema";

/** An account without a password stores this (the column is NOT NULL): no PBKDF2 hash ever matches it. */
export const NO_PASSWORD = "";

/** How many ways into the account `userId` has, by kind. */
export async function signInWays(db: Db, userId: string): Promise<SignInWays> {
  const [row] = await db
    .select({
      password: sql<number>`${users.passwordHash} != ${NO_PASSWORD}`,
      passkeys: sql<number>`(SELECT count(*) FROM ${passkeys} WHERE ${passkeys.userId} = ${users.id})`,
      identities: sql<number>`(SELECT count(*) FROM ${linkedIdentities} WHERE ${linkedIdentities.userId} = ${users.id})`,
    })
    .from(users)
    .where(eq(users.id, userId));
  return { password: Boolean(row?.password), passkeys: row?.passkeys ?? 0, identities: row?.identities ?? 0 };
}

/**
 * A condition for a DELETE (of a passkey or a linked identity) or an UPDATE (clearing a password): true
 * while `userId` has more than one way in, counted in the same statement as the removal.
 */
export const anotherWayIn = (userId: string): SQL =>
  sql`((SELECT count(*) FROM ${passkeys} WHERE ${passkeys.userId} = ${userId})
    + (SELECT count(*) FROM ${linkedIdentities} WHERE ${linkedIdentities.userId} = ${userId})
    + (SELECT count(*) FROM ${users} WHERE ${users.id} = ${userId} AND ${users.passwordHash} != ${NO_PASSWORD})) > 1`;
