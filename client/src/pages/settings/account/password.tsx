// Settings → Account: placeholder for issue 43's part (Password).
export function Password() {
  return null;
}
