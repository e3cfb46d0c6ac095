// Identity shapes of docs/protocol.md ("Identity").
import { z } from "zod";

export const UsernameSchema = z.string().regex(/^[a-z0-9_-]{3,32}$/, "3–32 characters of a–z, 0–9, _ and -");
export const PasswordSchema = z.string().min(8, "at least 8 characters").max(256, "at most 256 characters");

export const CredentialsSchema = z.object({ username: UsernameSchema, password: PasswordSchema });
export type Credentials = z.infer<typeof CredentialsSchema>;

/** Login checks only the shape: a wrong username and a wrong password must look alike. */
export const LoginSchema = z.object({ username: z.string().max(64), password: z.string().max(256) });

/** `POST /api/auth/signup`: `invite` is the token of an invite link (required when SIGNUP=invite). */
export const SignupSchema = CredentialsSchema.extend({ invite: z.string().max(128).optional() });

export const UserSchema = z.object({
  id: z.string(),
  username: z.string(),
  /** `pending`: waiting for an admin's approval (SIGNUP=approval); absent or `active` otherwise. */
  status: z.enum(["active", "pending"]).optional(),
  /** Present (true) only for an admin. */
  admin: z.literal(true).optional(),
});
export type User = z.infer<typeof UserSchema>;

export const CreateTokenSchema = z.object({ name: z.string().trim().min(1).max(64) });
/** One of GET /api/tokens' items: never the token itself. */
export const TokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type Token = z.infer<typeof TokenSchema>;
/** POST /api/tokens' answer: the only time the token is shown. */
export const CreatedTokenSchema = z.object({ id: z.string(), name: z.string(), token: z.string() });
export type CreatedToken = z.infer<typeof CreatedTokenSchema>;
