// An OpenID Connect sign-in in flight (auth_challenges, purpose `oidc`): what the callback needs and the
// browser must not hold (the PKCE verifier, the nonce), kept under the SHA-256 of the state the browser
// carries through the provider, for ten minutes, and taken once: the DELETE that reads it is also what
// makes a replayed or forged callback find nothing.
import { and, eq, gt, lt } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "./client";
import { nowIso } from "./client";
import { authChallenges } from "./schema";

const PURPOSE = "oidc";
export const OIDC_STATE_TTL_MS = 10 * 60_000;

export const OidcStateSchema = z.object({
  provider: z.string(),
  verifier: z.string(),
  nonce: z.string(),
  /** A same-origin path to land on after signing in. */
  next: z.string(),
  /** Linking: the hash of the session that started it, which the callback must bring again. */
  session: z.string().optional(),
});
export type OidcState = z.infer<typeof OidcStateSchema>;

/** Keeps a flow's secrets under `stateHash`; `userId` when a signed-in user is linking a provider. */
export async function saveOidcState(db: Db, stateHash: string, data: OidcState, userId?: string): Promise<void> {
  const expiresAt = new Date(Date.now() + OIDC_STATE_TTL_MS).toISOString();
  await db.batch([
    // Flows never finished (the user closed the provider's page) go when a later one starts.
    db.delete(authChallenges).where(and(eq(authChallenges.purpose, PURPOSE), lt(authChallenges.expiresAt, nowIso()))),
    db.insert(authChallenges).values({ id: stateHash, purpose: PURPOSE, userId: userId ?? null, data, expiresAt }),
  ]);
}

/** Takes the flow kept under `stateHash` (once: a second take finds nothing), unless it has expired. */
export async function takeOidcState(
  db: Db,
  stateHash: string,
): Promise<{ data: OidcState; userId: string | null } | undefined> {
  const [row] = await db
    .delete(authChallenges)
    .where(
      and(
        eq(authChallenges.id, stateHash),
        eq(authChallenges.purpose, PURPOSE),
        gt(authChallenges.expiresAt, nowIso()),
      ),
    )
    .returning({ data: authChallenges.data, userId: authChallenges.userId });
  if (!row) return undefined;
  const data = OidcStateSchema.safeParse(row.data);
  return data.success ? { data: data.data, userId: row.userId } : undefined;
}
