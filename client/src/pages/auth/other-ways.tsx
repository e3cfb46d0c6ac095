// The sign-in page's ways in besides a password (passkey, identity providers): the identity providers'
// buttons (provider-buttons.tsx); the passkey part joins them here.
import { ProviderButtons } from "./provider-buttons";

export function OtherWays({ mode }: { mode: "login" | "signup" }) {
  return <ProviderButtons mode={mode} />;
}
