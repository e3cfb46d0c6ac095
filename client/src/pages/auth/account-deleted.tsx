// The sign-in page's line after an account was deleted from Settings → Account (delete-account.tsx):
// the app signs out to here, and this says why, once.
import { useState } from "preact/hooks";
import { takeAccountDeleted } from "../../lib/account-deleted";
import style from "./style.module.css";

export function AccountDeletedNotice() {
  const [deleted] = useState(takeAccountDeleted);
  if (!deleted) return null;
  return (
    <p class={style.policy} role="status" data-testid="account-deleted">
      Your account was deleted, with everything in it.
    </p>
  );
}
