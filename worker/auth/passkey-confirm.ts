// A passkey's assertion as a confirmation (confirm.ts): the answer to a `passkey-confirm` challenge
// (`POST /api/account/passkeys/confirm-options`, made for this user, single-use, five minutes) signed by
// one of this user's own passkeys. Anything else is 403 `confirmation_failed`.
import type { Context } from "hono";
import { WebAuthnResponseSchema } from "../../protocol";
import { ApiError } from "../errors";
import type { AppEnv } from "../middleware/identity";
import { type CeremonyFailure, finishAssertion } from "./passkey-ceremony";

const REFUSED: Record<CeremonyFailure | "malformed", string> = {
  expired: "The passkey request has expired or was already used: try again",
  unknown_credential: "That passkey is not one of this account's",
  not_verified: "That passkey could not be verified: try again",
  malformed: "That passkey answer could not be read: try again",
};

export async function confirmWithPasskey(
  c: Context<AppEnv>,
  userId: string,
  passkey: { challenge_id: string; response: Record<string, unknown> },
): Promise<void> {
  const response = WebAuthnResponseSchema.safeParse(passkey.response);
  if (!response.success) throw new ApiError(403, "confirmation_failed", REFUSED.malformed);
  const result = await finishAssertion(c, "passkey-confirm", {
    challengeId: passkey.challenge_id,
    response: response.data,
    owner: userId,
  });
  if (!result.ok) throw new ApiError(403, "confirmation_failed", REFUSED[result.reason]);
}
