// Passkeys (docs/protocol.md "Passkeys"): WebAuthn credentials that sign a user in without a password.
// A ceremony is two requests: options (a single-use, expiring challenge and what the browser passes to
// navigator.credentials), then the browser's answer for that challenge. The options and the answer are
// WebAuthn's own JSON (as @simplewebauthn/browser gives and takes them), checked loosely here and fully
// by the server's WebAuthn library.
import { z } from "zod";
import { UsernameSchema } from "./auth";

/** A challenge's handle: what the browser sends back with its answer (the challenge itself is in the options). */
export const ChallengeIdSchema = z.string().min(1).max(128);

/** What the browser's authenticator answered (a `PublicKeyCredential` as JSON): registration or assertion. */
export const WebAuthnResponseSchema = z.looseObject({
  id: z.string().min(1).max(1024),
  rawId: z.string().min(1).max(1024),
  type: z.literal("public-key"),
  response: z.looseObject({ clientDataJSON: z.string().max(65_536) }),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
});
export type WebAuthnResponse = z.infer<typeof WebAuthnResponseSchema>;

/** A passkey's name as the user sees it in Settings (defaults to the browser and system it was made on). */
export const PasskeyNameSchema = z.string().trim().min(1, "give it a name").max(64, "at most 64 characters");

/** `POST …/options` answers: the challenge's handle and WebAuthn's options for navigator.credentials. */
export const PasskeyOptionsSchema = z.object({
  challenge_id: z.string(),
  options: z.looseObject({ challenge: z.string() }),
});
export type PasskeyOptions = z.infer<typeof PasskeyOptionsSchema>;

/** `POST /api/auth/passkey/signin`: the assertion for a `signin-options` challenge. */
export const PasskeySigninSchema = z.object({ challenge_id: ChallengeIdSchema, response: WebAuthnResponseSchema });

/** `POST /api/auth/passkey/signup-options`: the account's name (and invite) are decided before the ceremony. */
export const PasskeySignupOptionsSchema = z.object({
  username: UsernameSchema,
  invite: z.string().max(128).optional(),
});

/** `POST /api/auth/passkey/signup` and `POST /api/account/passkeys`: the new credential, and its name. */
export const PasskeyRegisterSchema = z.object({
  challenge_id: ChallengeIdSchema,
  response: WebAuthnResponseSchema,
  name: PasskeyNameSchema.optional(),
});

/** `PATCH /api/account/passkeys/:id`. */
export const RenamePasskeySchema = z.object({ name: PasskeyNameSchema });

/** One of `GET /api/account/passkeys`' items: never the public key or the signature counter. */
export const PasskeySchema = z.object({
  id: z.string(),
  name: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  /** The authenticator says the credential is backed up (synced to the user's other devices). */
  backed_up: z.boolean(),
  /** `singleDevice` or `multiDevice`, as the authenticator said when it was made. */
  device_type: z.string().nullable(),
});
export type Passkey = z.infer<typeof PasskeySchema>;

/** The options routes that take nothing (sign-in, adding a passkey, confirming): an empty body, or `{}`. */
export const NoOptionsSchema = z.object({});
