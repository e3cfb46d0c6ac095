// Settings → Account: placeholder for issue 43's part (DeleteAccount).
export function DeleteAccount() {
  return null;
}
