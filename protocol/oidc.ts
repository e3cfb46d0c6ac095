// Signing in with an identity provider (docs/protocol.md "Identity providers"): the providers the operator
// configured, a user's linked ones, and the words for what can go wrong at the provider's callback. The
// callback redirects with one of these codes only (never the provider's own text), and the page shows
// the words.
import { z } from "zod";

/** One configured provider, as the sign-in page and Settings list it: never its secret or endpoints. */
export const OidcProviderSchema = z.object({ id: z.string(), name: z.string() });
export type OidcProvider = z.infer<typeof OidcProviderSchema>;

/** `GET /api/auth/oidc/providers`. */
export const OidcProvidersSchema = z.array(OidcProviderSchema);

/** One of a user's linked providers: `label` is what the provider said of the account (an email or a name). */
export const LinkedIdentitySchema = z.object({
  provider: z.string(),
  name: z.string(),
  label: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type LinkedIdentity = z.infer<typeof LinkedIdentitySchema>;

/** `GET /api/account/identities`: the configured providers and the user's links (at most one per provider). */
export const AccountIdentitiesSchema = z.object({
  available: z.array(OidcProviderSchema),
  linked: z.array(LinkedIdentitySchema),
});
export type AccountIdentities = z.infer<typeof AccountIdentitiesSchema>;

/** `GET /api/auth/oidc/:id/start`'s query: where to land after signing in, and `link=1` to link instead. */
export const OidcStartQuerySchema = z.object({
  next: z.string().max(2000).optional(),
  link: z.literal("1").optional(),
});

/**
 * What a failed callback says, by the code in `?error=` (on /login, or on /settings/account when it
 * was linking). A code the page does not know gets OIDC_UNKNOWN_ERROR.
 */
export const OIDC_ERROR_WORDS = {
  oidc_state:
    "That sign-in link has expired or was already used, so it did nothing. Start again with the provider's button.",
  oidc_denied: "Signing in was cancelled at the identity provider.",
  oidc_failed:
    "The identity provider's answer could not be verified, so you were not signed in. Try again, or use another way in.",
  oidc_unavailable: "The identity provider could not be reached. Try again in a moment, or use another way in.",
  oidc_unknown_provider: "That identity provider is not offered on this server.",
  signup_closed:
    "No account here is linked to that identity, and sign-ups are closed on this server. Sign in another way and link the provider in Settings → Account.",
  signup_invite:
    "No account here is linked to that identity, and sign-ups on this server need an invite link: sign up with the link first, then link the provider in Settings → Account.",
  rate_limited: "Too many sign-ups from this address; try again later.",
  oidc_busy: "Too many sign-ins with identity providers from this address; try again in a few minutes.",
  account_disabled: "This account has been disabled by an administrator.",
  oidc_linked_elsewhere:
    "That account at the identity provider is already linked to another Oracle account. Unlink it there first.",
  oidc_already_linked:
    "This provider is already linked to your account. Unlink it first to link another account of the same provider.",
  oidc_link_session:
    "Linking needs the browser you started it in, still signed in. Sign in and start again from Settings → Account.",
} as const;
export type OidcErrorCode = keyof typeof OIDC_ERROR_WORDS;

export const OIDC_UNKNOWN_ERROR = "Signing in with the identity provider did not work. Try again.";

/** The words for a callback's `?error=` code. */
export const oidcErrorWords = (code: string): string =>
  Object.hasOwn(OIDC_ERROR_WORDS, code) ? OIDC_ERROR_WORDS[code as OidcErrorCode] : OIDC_UNKNOWN_ERROR;
