// A passkey's assertion as a confirmation (confirm.ts). Placeholder until passkeys land in this issue.
import type { Context } from "hono";
import { ApiError } from "../errors";
import type { AppEnv } from "../middleware/identity";

export async function confirmWithPasskey(
  _c: Context<AppEnv>,
  _userId: string,
  _passkey: { challenge_id: string; response: Record<string, unknown> },
): Promise<void> {
  throw new ApiError(403, "confirmation_failed", "Confirm with your password");
}
