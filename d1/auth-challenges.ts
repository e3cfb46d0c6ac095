// The single-use values a sign-in flow waits on (auth_challenges): a passkey ceremony's challenge, an
// OpenID Connect flow's state. Each is kept under the SHA-256 of the handle the browser holds, expires,
// and is taken with one DELETE … RETURNING, so a replayed or forged answer finds nothing, even when two
// requests race. Storing one clears the expired ones.
import { and, eq, gt, isNull, lt } from "drizzle-orm";
import { type Db, nowIso } from "./client";
import { authChallenges } from "./schema";

export async function storeChallenge(
  db: Db,
  row: { id: string; purpose: string; userId: string | null; data: unknown; expiresAt: string },
): Promise<void> {
  await db.batch([
    db.delete(authChallenges).where(lt(authChallenges.expiresAt, nowIso())),
    db.insert(authChallenges).values(row),
  ]);
}

/**
 * Takes the live value of `purpose` kept under `id`, once. `owner` also requires whose it is (null: a
 * flow nobody was signed in for); left out, any owner's, who is returned.
 */
export async function takeChallenge(
  db: Db,
  id: string,
  purpose: string,
  owner?: string | null,
): Promise<{ data: unknown; userId: string | null } | undefined> {
  const [row] = await db
    .delete(authChallenges)
    .where(
      and(
        eq(authChallenges.id, id),
        eq(authChallenges.purpose, purpose),
        owner === undefined
          ? undefined
          : owner === null
            ? isNull(authChallenges.userId)
            : eq(authChallenges.userId, owner),
        gt(authChallenges.expiresAt, nowIso()),
      ),
    )
    .returning({ data: authChallenges.data, userId: authChallenges.userId });
  return row;
}
