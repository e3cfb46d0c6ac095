// The sign-in page's identity-provider buttons (OpenID Connect): placeholder, replaced by issue 43's
// identity-provider part.
export function ProviderButtons(_props: { mode: "login" | "signup" }) {
  return null;
}
