// The sign-in page's ways in besides a password (passkey, identity providers): placeholder for issue 43.
export function OtherWays(_props: { mode: "login" | "signup" }) {
  return null;
}
