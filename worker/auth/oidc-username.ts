// The username a first sign-in with an identity provider gets: made from what the provider calls the
// person (preferred_username, GitHub's login, an email's local part, a name), reduced to what a username
// may be (protocol/auth.ts UsernameSchema), and varied until one is free (oidc-account.ts tries them).

const MIN = 3;
const MAX = 32;

/** `hint` as a username's base: lower case, a–z 0–9 _ -, 3–32 characters ("user" when nothing is left). */
export function usernameBase(hint: string | undefined): string {
  const plain = (hint ?? "")
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, "_")
    .replace(/^[_-]+|[_-]+$/g, "")
    .slice(0, MAX)
    .replace(/[_-]+$/, "");
  return plain.length >= MIN ? plain : "user";
}

/** The usernames to try, in order: the base, then numbered, then with random suffixes. */
export function usernameCandidates(hint: string | undefined, random = () => crypto.randomUUID().slice(0, 6)): string[] {
  const base = usernameBase(hint);
  const suffixed = (suffix: string) => `${base.slice(0, MAX - suffix.length - 1)}_${suffix}`;
  return [base, ...[2, 3, 4].map((n) => suffixed(String(n))), ...[1, 2, 3].map(() => suffixed(random()))];
}
