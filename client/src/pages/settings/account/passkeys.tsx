// Settings → Account: placeholder for issue 43's part (Passkeys).
export function Passkeys() {
  return null;
}
