// Settings → Account (docs/protocol.md "Account"): the sessions a user is signed in with, their password,
// passkeys, linked identity providers, deleting the account and taking its data along. Every
// `/api/account/*` route takes a signed-in session, never an API token.
import { z } from "zod";
import { PasswordSchema, UserSchema } from "./auth";

/**
 * Who the user is, asked again before what cannot be undone or what locks others out (a new password,
 * deleting the account): the current password, or a passkey's assertion for a `confirm` challenge
 * (`POST /api/account/passkeys/confirm-options`).
 */
export const ConfirmSchema = z.union([
  z.object({ password: z.string().min(1).max(256) }).strict(),
  z
    .object({
      passkey: z.object({ challenge_id: z.string().max(128), response: z.record(z.string(), z.unknown()) }).strict(),
    })
    .strict(),
]);
export type Confirm = z.infer<typeof ConfirmSchema>;

/** How a session signed in: `oidc:<provider id>` for an identity provider. */
export const SignInMethodSchema = z.string();

/** One of `GET /api/account/sessions`' items: never the session's secret or its hash. */
export const AccountSessionSchema = z.object({
  id: z.string(),
  /** The session this request came with. */
  current: z.boolean(),
  /** The browser as a person names it ("Firefox on Windows"), from its User-Agent. */
  device: z.string(),
  user_agent: z.string().nullable(),
  address: z.string().nullable(),
  /** Cloudflare's city and country of where it signed in, when known. */
  place: z.string().nullable(),
  method: SignInMethodSchema.nullable(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  expires_at: z.string(),
});
export type AccountSession = z.infer<typeof AccountSessionSchema>;

/** `POST /api/account/password`: the new password, confirmed by the current one (or, without one, a passkey). */
export const ChangePasswordSchema = z.object({ new_password: PasswordSchema, confirm: ConfirmSchema }).strict();

/** The ways into an account: what `GET /api/account` says of it (never the last one can be removed). */
export const SignInWaysSchema = z.object({
  password: z.boolean(),
  passkeys: z.number().int(),
  identities: z.number().int(),
});
export type SignInWays = z.infer<typeof SignInWaysSchema>;

/** `GET /api/account`: who is signed in and the ways into the account. */
export const AccountSchema = z.object({ user: UserSchema, ways: SignInWaysSchema });
export type Account = z.infer<typeof AccountSchema>;

/** `POST /api/account/sessions/sign-out-others`' answer: how many sessions ended. */
export const SignedOutSchema = z.object({ signed_out: z.number().int() });

/** `POST /api/auth/reset`: an admin's reset link's token and the new password. */
export const ResetPasswordSchema = z
  .object({ token: z.string().min(1).max(128), new_password: PasswordSchema })
  .strict();

/** `POST /api/admin/users/:id/reset-link`' answer: the link, shown to the admin once. */
export const ResetLinkSchema = z.object({ url: z.string(), expires_at: z.string() });
export type ResetLink = z.infer<typeof ResetLinkSchema>;
