// The word the deleted account leaves for the sign-in page (pages/auth/account-deleted.tsx): Settings →
// Account's Delete signs the app out, and the next page to show says why, once. Kept in sessionStorage,
// so it survives nothing but this tab's move to the sign-in page.
const KEY = "oracle.account-deleted";

export function markAccountDeleted(): void {
  try {
    sessionStorage.setItem(KEY, "1");
  } catch {
    // storage refused (a private window's quota): the sign-in page just says nothing
  }
}

/** Whether the account was just deleted in this tab; the word is taken, so it is said once. */
export function takeAccountDeleted(): boolean {
  try {
    const was = sessionStorage.getItem(KEY) === "1";
    sessionStorage.removeItem(KEY);
    return was;
  } catch {
    return false;
  }
}
