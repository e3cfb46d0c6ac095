// A passkey's confirmation for a `confirm` body (docs/protocol.md "Account"). Placeholder until the
// passkey client lands: it says a password is needed.
import type { Confirm } from "../../../protocol";

export async function passkeyConfirmation(): Promise<Confirm | { error: string }> {
  return { error: "Confirming with a passkey is not available yet" };
}
