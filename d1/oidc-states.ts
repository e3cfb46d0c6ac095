// An OpenID Connect sign-in in flight (auth_challenges, purpose `oidc`): what the callback needs and the
// browser must not hold (the PKCE verifier, the nonce), kept under the SHA-256 of the state the browser
// carries through the provider, for ten minutes, and taken once (auth-challenges.ts).
import { z } from "zod";
import { storeChallenge, takeChallenge } from "./auth-challenges";
import type { Db } from "./client";

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
  await storeChallenge(db, { id: stateHash, purpose: PURPOSE, userId: userId ?? null, data, expiresAt });
}

/** Takes the flow kept under `stateHash` (once: a second take finds nothing), unless it has expired. */
export async function takeOidcState(
  db: Db,
  stateHash: string,
): Promise<{ data: OidcState; userId: string | null } | undefined> {
  const row = await takeChallenge(db, stateHash, PURPOSE);
  if (!row) return undefined;
  const data = OidcStateSchema.safeParse(row.data);
  return data.success ? { data: data.data, userId: row.userId } : undefined;
}
