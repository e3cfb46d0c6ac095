// The one error body of docs/protocol.md ("Errors"), shared by the Worker, the socket and the client.
import { z } from "zod";

export const ERROR_CODES = [
  "invalid_input",
  "unauthorized",
  "not_found",
  "conflict",
  "too_large",
  /** A file whose bytes are not a type the server keeps (protocol.md "Files"). */
  "unsupported_file",
  /** The user's files would pass their total (FILES_MAX_TOTAL_BYTES). */
  "storage_full",
  "rate_limited",
  "forbidden_origin",
  "session_required",
  /** The operator turned the feature off (USER_PROVIDERS=off). */
  "forbidden",
  /** The operator's quota for this user is used up (`resets_at` says when it starts afresh). */
  "quota_exceeded",
  /** Signed up under SIGNUP=approval and not approved yet: nothing but /api/me and logout. */
  "account_pending",
  /** An admin disabled the account: sign-in is refused. */
  "account_disabled",
  /** SIGNUP=closed, or invite without a valid invite link. */
  "signup_closed",
  /** A password or passkey asked for again (a new password, deleting the account) did not match. */
  "confirmation_failed",
  /** Removing the last way into an account (its only passkey, provider or password). */
  "last_sign_in_method",
  "busy",
  "no_pending_input",
  /** A `tool_approval` frame for a call that is not waiting (decided already, or unknown). */
  "no_pending_approval",
  "not_running",
  "internal",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const ErrorBodySchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    fields: z.record(z.string(), z.string()).optional(),
  }),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

export const UNKNOWN_FIELD = "unknown field";

/** Turns a zod error into docs/protocol.md's `fields` map: one message per bad field, each unknown field named. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) fields[[...issue.path, key].join(".")] ??= UNKNOWN_FIELD;
      continue;
    }
    const key = issue.path.length ? issue.path.join(".") : "_";
    fields[key] ??= issue.message;
  }
  return fields;
}

/** One line naming the first bad field, for an error's `message`; `whole` names the field "_". */
export function firstFieldError(fields: Record<string, string>, whole: string): string {
  const [field, problem] = Object.entries(fields)[0] ?? ["_", "invalid"];
  return `${field === "_" ? whole : field}: ${problem}`;
}
