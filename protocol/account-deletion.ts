// Deleting an account (docs/protocol.md "Deleting an account"): the username typed again, as a guard
// against a slip, and who the user is asked again (a password or a passkey: ConfirmSchema).
import { z } from "zod";
import { ConfirmSchema } from "./account";

/** `DELETE /api/account`'s body. */
export const DeleteAccountSchema = z
  .object({
    /** The account's username, typed again: a mismatch is 400 on `username` and changes nothing. */
    username: z.string().max(64),
    confirm: ConfirmSchema,
  })
  .strict();
export type DeleteAccount = z.infer<typeof DeleteAccountSchema>;

/** What rows naming a deleted account (the admins' audit log, invites) say instead of its name or id. */
export const DELETED_USER = "deleted user";
